/* strata: command-line entry point. Parses flags (usage errors exit 2) and
 * hands over to the app. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: strata");
    for (int i = 0; i < app_option_count; i++)
        fprintf(f, " [%s%s%s]", app_options[i].flag, app_options[i].arg ? " " : "", app_options[i].arg ? app_options[i].arg : "");
    fprintf(f, "\n(strata --man | man -l - for the manual)\n");
}

static int parse_size(const char *flag, const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = s ? strtol(s, &end, 10) : 0;
    if (!s || errno || *end || end == s || v < 16 || v > 16384) {
        fprintf(stderr, "strata: %s needs a whole number of pixels in [16, 16384], got '%s'\n", flag, s ? s : "");
        return 0;
    }
    *out = (int)v;
    return 1;
}

int main(int argc, char **argv)
{
    app_desc d = { 0 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--headless") == 0) {
            d.headless = true;
        } else if (strcmp(a, "--man") == 0) {
            /* --man [FILE]: the build writes the installed page with it */
            if (!next || strncmp(next, "--", 2) == 0) return app_write_man(stdout) ? 0 : 1;
            FILE *f = fopen(next, "w");
            if (!f) {
                fprintf(stderr, "strata: cannot write '%s': %s\n", next, strerror(errno));
                return 1;
            }
            bool ok = app_write_man(f);
            ok = fclose(f) == 0 && ok;
            if (!ok) fprintf(stderr, "strata: cannot write '%s'\n", next);
            return ok ? 0 : 1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--width") == 0 || strcmp(a, "--height") == 0) {
            if (!parse_size(a, next, a[2] == 'w' ? &d.width : &d.height)) return 2;
            i++;
        } else if (strcmp(a, "--config") == 0 || strcmp(a, "--world") == 0 || strcmp(a, "--exec") == 0) {
            /* "--config --exec ..." forgot the file: the next option is not it */
            if (!next || strncmp(next, "--", 2) == 0) {
                fprintf(stderr, "strata: %s needs an argument%s%s%s\n", a, next ? " (got the option '" : "",
                        next ? next : "", next ? "'; write ./NAME for a file whose name starts with --)" : "");
                return 2;
            }
            if (!next[0] && a[2] != 'e') { /* a variable that expanded to nothing: no file is no default */
                fprintf(stderr, "strata: %s needs a file name, not an empty string\n", a);
                return 2;
            }
            if (a[2] == 'c') d.config = next;
            else if (a[2] == 'w') d.world = next;
            else d.exec = next;
            i++;
        } else {
            fprintf(stderr, "strata: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    return app_run(&d);
}

#include "core/log.h"

#include <stdio.h>

static void default_sink(void *user, log_level level, const char *line)
{
    (void)user;
    FILE *f = (level == LOG_OUTPUT) ? stdout : stderr;
    const char *prefix = level == LOG_ERROR ? "error: " : level == LOG_WARN ? "warning: " : "";
    fprintf(f, "%s%s\n", prefix, line);
    fflush(f);
}

/* The platform layer and console own the sink; it is process state by design
 * (DESIGN.md allows the console registry and platform layer to be global). */
static log_sink_fn g_sink = default_sink;
static void *g_sink_user;

void log_set_sink(log_sink_fn fn, void *user)
{
    g_sink = fn ? fn : default_sink;
    g_sink_user = user;
}

void log_reset_sink(void) { log_set_sink(NULL, NULL); }

void log_vmsg(log_level level, const char *fmt, va_list ap)
{
    char buf[2048];
    vsnprintf(buf, sizeof buf, fmt, ap);
    g_sink(g_sink_user, level, buf);
}

void log_msg(log_level level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    log_vmsg(level, fmt, ap);
    va_end(ap);
}

/* Grammar files (engine/gen/grammar_file): any text parses or is refused
 * with a message; what parses is written back and reads back to the same
 * text (the writer's promise). */
#include <math.h>

#include "fuzz_common.h"
#include "gen/grammar_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 64 * 1024) return 0;
    fuzz_quiet();
    char *text = fuzz_string(data, size);
    grammar *g = malloc(sizeof *g), *back = malloc(sizeof *back);
    char err[512];
    if (grammar_parse(text, "fuzz.grammar", g, err, sizeof err)) {
        size_t n = grammar_write(g, NULL, 0);
        char *a = malloc(n + 1), *b = malloc(n + 1);
        grammar_write(g, a, n + 1);
        FUZZ_CHECK(grammar_parse(a, "written.grammar", back, err, sizeof err));
        FUZZ_CHECK(grammar_write(back, b, n + 1) == n);
        FUZZ_CHECK(strcmp(a, b) == 0);
        free(a);
        free(b);
    } else {
        FUZZ_CHECK(err[0] != 0);
    }
    free(g);
    free(back);
    free(text);
    return 0;
}

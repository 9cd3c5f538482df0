/* grammar_file: the text format of voxel grammars (docs/grammar.md),
 * material and class names included: comments, named rules, a size, a
 * weight, symbol and transform grids.
 * Parse errors come back as file:line:col and the reason; nothing is
 * half-loaded. The writer prints a grammar the parser reads back equal. */
#ifndef STRATA_GRAMMAR_FILE_H
#define STRATA_GRAMMAR_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "gen/grammar.h"

/* Parses `text` (named `file` in messages) into *out. */
bool grammar_parse(const char *text, const char *file, grammar *out, char *err, size_t errlen);
/* Reads and parses a file. */
bool grammar_load(const char *path, grammar *out, char *err, size_t errlen);
/* Writes g as text into buf (always terminated when cap > 0); returns the
 * length the whole text needs, so a short buffer can be retried. */
size_t grammar_write(const grammar *g, char *buf, size_t cap);

#endif

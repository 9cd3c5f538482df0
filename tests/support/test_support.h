/* test_support: shared helpers for the cmocka tests. */
#ifndef STRATA_TEST_SUPPORT_H
#define STRATA_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* Path of a file in the source tree, e.g. test_path("assets/atlas.png"). */
const char *test_source_path(const char *rel);
const char *test_binary_path(const char *rel);

#endif

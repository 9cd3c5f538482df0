#include "test_support.h"

#include <stdio.h>

const char *test_source_path(const char *rel)
{
    static char buf[4][1024];
    static int k;
    k = (k + 1) & 3;
    snprintf(buf[k], sizeof buf[k], "%s/%s", STRATA_SOURCE_DIR, rel);
    return buf[k];
}

const char *test_binary_path(const char *rel)
{
    static char buf[4][1024];
    static int k;
    k = (k + 1) & 3;
    snprintf(buf[k], sizeof buf[k], "%s/%s", STRATA_BINARY_DIR, rel);
    return buf[k];
}

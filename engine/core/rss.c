#include "core/rss.h"

#include <stdio.h>
#include <unistd.h>

long rss_kib(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return -1;
    long size, res;
    int n = fscanf(f, "%ld %ld", &size, &res);
    fclose(f);
    long page = sysconf(_SC_PAGESIZE);
    return n == 2 && page > 0 ? res * (page / 1024) : -1;
}

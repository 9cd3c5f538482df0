/* rss: the process's resident memory, for `stats`, the streaming benches
 * and the tests that watch memory stay flat over a long flight. */
#ifndef STRATA_RSS_H
#define STRATA_RSS_H

/* Resident set in KiB (Linux /proc/self/statm), or -1 where unknown. */
long rss_kib(void);

#endif

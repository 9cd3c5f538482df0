/* timer: monotonic clock for frame timing and benchmarks. */
#ifndef STRATA_TIMER_H
#define STRATA_TIMER_H

#include <stdint.h>

uint64_t timer_ns(void);
static inline double timer_ms_since(uint64_t start_ns) { return (double)(timer_ns() - start_ns) / 1e6; }

#endif

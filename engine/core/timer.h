/* timer: monotonic clock for frame timing and benchmarks. */
#ifndef STRATA_TIMER_H
#define STRATA_TIMER_H

#include <stdint.h>

uint64_t timer_ns(void);
static inline double timer_ms_since(uint64_t start_ns) { return (double)(timer_ns() - start_ns) / 1e6; }
/* The calling thread's own CPU time: what a piece of main-thread work
 * costs whatever else loads the machine (wall time also counts the waits
 * for a core the other threads and processes hold). */
uint64_t timer_thread_cpu_ns(void);
static inline double timer_cpu_ms_since(uint64_t start_ns) { return (double)(timer_thread_cpu_ns() - start_ns) / 1e6; }

#endif

/* cpu_budget: a frame's share of the main thread's CPU time for work that
 * can wait (a streamed column's light landing, its block light, a stale
 * texture column's clear), taken in pieces: a piece starts only while the
 * time spent plus what a piece has been costing (a running mean, kept from
 * frame to frame) stays within the budget, so a frame passes it by the
 * error of that guess, not by a whole piece. The first piece of a frame
 * always runs: the work never stops, whatever the budget. */
#ifndef STRATA_CPU_BUDGET_H
#define STRATA_CPU_BUDGET_H

#include <stdbool.h>
#include <stdint.h>

typedef struct cpu_budget {
    double ms;      /* this frame's budget; < 0: none (everything runs) */
    double est;     /* the running mean of a piece's cost, ms (kept across frames) */
    uint64_t t0, last; /* the frame's start, the last piece's (thread CPU ns) */
    int pieces;     /* started this frame */
} cpu_budget;

/* A new frame with `ms` to spend (< 0: no budget); the estimate stays. */
void cpu_budget_begin(cpu_budget *b, double ms);
/* Whether the next piece may start (and counts it): the first always, a
 * later one while the time spent and the estimate fit the budget. Call it
 * before each piece; the time since the previous call is that piece's
 * cost. */
bool cpu_budget_next(cpu_budget *b);

#endif

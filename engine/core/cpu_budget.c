#include "core/cpu_budget.h"

#include "core/timer.h"

void cpu_budget_begin(cpu_budget *b, double ms)
{
    b->ms = ms;
    b->t0 = b->last = timer_thread_cpu_ns();
    b->pieces = 0;
}

bool cpu_budget_next(cpu_budget *b)
{
    uint64_t now = timer_thread_cpu_ns();
    if (b->pieces > 0) { /* the piece before this call: into the mean */
        double piece = (double)(now - b->last) / 1e6;
        b->est = b->est > 0 ? 0.8 * b->est + 0.2 * piece : piece;
    }
    b->last = now;
    if (b->ms < 0 || b->pieces == 0) return ++b->pieces, true;
    if ((double)(now - b->t0) / 1e6 + b->est > b->ms) return false;
    b->pieces++;
    return true;
}

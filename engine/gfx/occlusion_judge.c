/* occlusion_judge: see occlusion_judge.h. */
#include "gfx/occlusion_judge.h"

#include <stdlib.h>

void occlusion_judge_init(occlusion_judge *j)
{
    /* held (reads) until JUDGE_FIRST frames have passed */
    *j = (occlusion_judge){ .frame = JUDGE_HOLD - JUDGE_FIRST, .last = true, .verdict = true };
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static float median(float *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_float);
    return n % 2 ? v[n / 2] : 0.5f * (v[n / 2 - 1] + v[n / 2]);
}

/* A trial's mode at its frame f: blocks of each in turn, culling first. */
static bool trial_mode(int f) { return (f / JUDGE_BLOCK) % 2 == 0; }

bool occlusion_judge_next(occlusion_judge *j, double ms)
{
    if (j->trial) {
        /* the frame that ended was the trial's frame j->frame - 1 */
        if (j->frame > 0 && ms >= 0) {
            if (j->last) j->on_ms[j->n_on++] = (float)ms;
            else j->off_ms[j->n_off++] = (float)ms;
        }
        if (j->frame == JUDGE_TRIAL) {
            /* too few times known (pauses): culling, as before the trial */
            bool on = true;
            if (j->n_on >= JUDGE_TRIAL / 4 && j->n_off >= JUDGE_TRIAL / 4)
                on = !(median(j->off_ms, j->n_off) < (1.f - JUDGE_MARGIN) * median(j->on_ms, j->n_on));
            j->verdict = on;
            j->verdicts++, j->verdicts_off += !on;
            j->trial = false, j->frame = 0;
        } else {
            j->last = trial_mode(j->frame++);
            return j->last;
        }
    }
    if (j->frame++ >= JUDGE_HOLD) { /* held JUDGE_HOLD frames: this one starts a trial */
        j->trial = true, j->frame = 0, j->n_on = j->n_off = 0;
        j->last = trial_mode(j->frame++);
        return j->last;
    }
    j->last = j->verdict;
    return j->last;
}

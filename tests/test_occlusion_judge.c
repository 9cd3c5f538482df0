/* occlusion_judge: trials of frames with the depth reads and without, the
 * faster held (gfx/occlusion_judge.h), fed made-up frame times. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gfx/occlusion_judge.h"

/* Frame times: `on` ms with the reads, `off` without, each spread by up
 * to +-spread ms (a fixed generator), and every spike-th frame 10x. */
typedef struct frames {
    double on, off, spread;
    int spike;
    uint32_t rng;
    int n;
} frames;

static double frame_ms(frames *f, bool reads)
{
    f->rng = f->rng * 1664525u + 1013904223u;
    double u = (double)(f->rng >> 8) / (double)(1u << 24) * 2.0 - 1.0;
    double ms = (reads ? f->on : f->off) + u * f->spread;
    if (f->spike && ++f->n % f->spike == 0) ms *= 10.0;
    return ms;
}

/* Runs n frames; returns how many read. */
static int run(occlusion_judge *j, frames *f, bool *reads, int n)
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        *reads = occlusion_judge_next(j, frame_ms(f, *reads));
        count += *reads;
    }
    return count;
}

/* The first JUDGE_FIRST frames read; then a trial alternates blocks; the
 * verdict holds until the next trial. */
static void test_schedule(void **state)
{
    (void)state;
    occlusion_judge j;
    occlusion_judge_init(&j);
    frames f = { .on = 24, .off = 20, .spread = 0, .rng = 1 };
    bool reads = occlusion_judge_next(&j, -1); /* the first frame: no time yet */
    assert_true(reads);
    assert_int_equal(run(&j, &f, &reads, JUDGE_FIRST - 1), JUDGE_FIRST - 1);
    /* the trial: JUDGE_BLOCK with reads, JUDGE_BLOCK without, ... */
    bool mode[JUDGE_TRIAL];
    for (int i = 0; i < JUDGE_TRIAL; i++) mode[i] = reads = occlusion_judge_next(&j, frame_ms(&f, reads));
    for (int i = 0; i < JUDGE_TRIAL; i++) assert_int_equal(mode[i], (i / JUDGE_BLOCK) % 2 == 0);
    assert_int_equal(j.verdicts, 0);
    /* every time so far under the mode of the frame it timed (one frame
     * of the trial is still running) */
    assert_int_equal(j.n_on + j.n_off, JUDGE_TRIAL - 1);
    for (int i = 0; i < j.n_on; i++) assert_true(j.on_ms[i] == 24.f);
    for (int i = 0; i < j.n_off; i++) assert_true(j.off_ms[i] == 20.f);
    /* judged: without the reads is faster, and held */
    assert_int_equal(run(&j, &f, &reads, JUDGE_HOLD), 0);
    assert_int_equal(j.verdicts, 1);
    assert_int_equal(j.verdicts_off, 1);
    /* then the next trial */
    reads = occlusion_judge_next(&j, frame_ms(&f, reads));
    assert_true(reads);
    int in_trial = run(&j, &f, &reads, JUDGE_TRIAL - 1);
    assert_int_equal(in_trial + 1, JUDGE_TRIAL / 2);
}

/* Which way each trial goes, over ten trials each. */
static int verdicts_on(double on, double off, double spread, int spike)
{
    occlusion_judge j;
    occlusion_judge_init(&j);
    frames f = { .on = on, .off = off, .spread = spread, .spike = spike, .rng = 7 };
    bool reads = occlusion_judge_next(&j, -1);
    run(&j, &f, &reads, JUDGE_FIRST + 10 * (JUDGE_TRIAL + JUDGE_HOLD));
    assert_int_equal(j.verdicts, 10);
    return j.verdicts - j.verdicts_off;
}

static void test_verdicts(void **state)
{
    (void)state;
    /* the open desert: reads cost more than they hide */
    assert_int_equal(verdicts_on(22.9, 20.2, 3.0, 0), 0);
    /* a forest from the ground: they hide much more than they cost */
    assert_int_equal(verdicts_on(30.0, 40.0, 3.0, 0), 10);
    /* the same either way (paced to a display): the reads stay */
    assert_int_equal(verdicts_on(16.7, 16.7, 0.0, 0), 10);
    /* within the margin: the reads stay */
    assert_int_equal(verdicts_on(20.0, 19.8, 0.5, 0), 10);
    /* a hitch every 7th frame (an arrival, a save) does not sway it */
    assert_int_equal(verdicts_on(20.0, 18.0, 1.0, 7), 0);
    assert_int_equal(verdicts_on(18.0, 20.0, 1.0, 7), 10);
}

/* Frames whose time is not known count for neither; a trial with too
 * few known keeps the reads, however fast the few without them were. */
static void test_unknown_times(void **state)
{
    (void)state;
    occlusion_judge j;
    occlusion_judge_init(&j);
    int reads = 0;
    for (int i = 0; i < JUDGE_FIRST + JUDGE_TRIAL; i++) reads += occlusion_judge_next(&j, -1);
    assert_int_equal(reads, JUDGE_FIRST + JUDGE_TRIAL / 2); /* the trial still tries both */
    assert_true(occlusion_judge_next(&j, -1));             /* the verdict: the reads */
    assert_int_equal(j.verdicts, 1);
    assert_int_equal(j.verdicts_off, 0);
    /* the next trial: every frame with reads timed at 30 ms, only a few
     * without (10 ms), the rest unknown */
    bool last = true;
    int known_off = 0;
    while (j.verdicts < 2) {
        double ms = last ? 30.0 : known_off < JUDGE_TRIAL / 4 - 4 ? (known_off++, 10.0) : -1.0;
        last = occlusion_judge_next(&j, ms);
    }
    assert_int_equal(j.verdicts_off, 0);
    assert_true(last);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schedule),
        cmocka_unit_test(test_verdicts),
        cmocka_unit_test(test_unknown_times),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

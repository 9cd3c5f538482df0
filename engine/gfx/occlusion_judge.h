/* occlusion_judge: whether occlusion culling (gfx/occlusion.h) pays here,
 * by timing frames drawn with it and without it.
 *
 * A read of the depth costs the same whatever it hides: on llvmpipe the
 * rasterizer finishes what was drawn so far, then 1280 x 720 depths are
 * converted (13.4 ms from the reads' start to their end, on average over
 * the frames of a 20 s desert flight that read); on a GPU the CPU waits
 * for the GPU. What it saves depends on
 * the view: a forest's crowns hide most of what lies behind them, but the
 * parts a mesa hides in the open desert are few triangles, and the
 * desert's 60 s flight ran slower with culling than without (p50 22.6
 * and 22.2 ms against 20.9 and 19.7, p95 30.9 and 29.7 against 27.1 and
 * 27.6). The occlusion module's own rule (a ring pays when it hides one
 * part in eight) counts parts, not time, and cannot see this.
 *
 * So the frames themselves say. A trial of JUDGE_TRIAL frames alternates
 * blocks of JUDGE_BLOCK frames with the reads and without (the parts
 * outside the frustum are left out either way); whichever's median frame
 * is faster (without: by JUDGE_MARGIN at least; a tie keeps the reads) is
 * held for JUDGE_HOLD frames, then the next trial. The picture is the
 * same either way (culling is exact): only the time changes. Frames paced
 * to the display's refresh take as long either way, and the reads stay.
 *
 * Pure CPU: fed the frame times, it answers; testable without GL. */
#ifndef STRATA_OCCLUSION_JUDGE_H
#define STRATA_OCCLUSION_JUDGE_H

#include <stdbool.h>

#define JUDGE_BLOCK 4   /* frames in a row of one mode within a trial */
#define JUDGE_TRIAL 96  /* frames of a trial: 12 blocks of each mode */
#define JUDGE_HOLD 600  /* frames a verdict is kept: 10 s at 60 Hz (then a trial) */
#define JUDGE_MARGIN 0.03f /* how much faster frames without culling must be */
/* Frames before the first trial: a script's few frames (and the tests')
 * cull as they always did, and a new world's columns settle first. */
#define JUDGE_FIRST 120

typedef struct occlusion_judge {
    bool trial;      /* in a trial (else holding `verdict`) */
    int frame;       /* frames into the trial or the hold */
    bool last;       /* whether the frame that is ending read the depth */
    bool verdict;    /* reads pay (the last trial's answer; true at first) */
    int n_on, n_off;
    float on_ms[JUDGE_TRIAL], off_ms[JUDGE_TRIAL];
    /* verdicts given, and how many said off (for `stats`) */
    int verdicts, verdicts_off;
} occlusion_judge;

/* A judge that reads until its first trial, JUDGE_FIRST frames on. */
void occlusion_judge_init(occlusion_judge *j);
/* The frame that ends now took ms (< 0: not known, as for the first
 * frame); returns whether the next frame reads the depth. */
bool occlusion_judge_next(occlusion_judge *j, double ms);

#endif

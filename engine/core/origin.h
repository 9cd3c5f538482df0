/* origin: the integer frame that keeps floats small far from the origin.
 * A float's step is a whole voxel at 10^7, so positions that must be exact
 * there (the camera, a tool's pose) are kept as an integer origin plus a
 * small float offset. One rule for all of them, so their frames agree. */
#ifndef STRATA_ORIGIN_H
#define STRATA_ORIGIN_H

#include <math.h>

/* Within ORIGIN_HOME voxels of 0 the frame is 0: every finite world (at
 * most 1024 wide) computes exactly what it did before frames existed, and
 * its pixel-exact pictures stay byte for byte. Beyond, the frame is the
 * position snapped down to a multiple of ORIGIN_STEP, which divides 10^7:
 * at 10^7 + d the offset is what it is at d (for d in [0, ORIGIN_STEP)),
 * so the same scene gives the same floats there as at the origin. */
#define ORIGIN_HOME 4096
#define ORIGIN_STEP 128

/* The frame for coordinate v (NaN and absurd values give 0 or the int
 * range's edge, so a conversion stays defined). */
static inline int origin_snap(double v)
{
    if (fabs(v) < ORIGIN_HOME || v != v) return 0;
    double o = floor(v / ORIGIN_STEP) * ORIGIN_STEP;
    return o > 2.0e9 ? 2000000000 : o < -2.0e9 ? -2000000000 : (int)o;
}

#endif

/* enhance_view_params: the enhanced mode's parameters: the enhance.* cvars read into
 * enhance_params, compared, and the memory a radius of chunks would take
 * (what the mode's cvars are checked against). No GL. */
#include "gfx/enhance_view.h"

#include <stdio.h>
#include <string.h>

#include "mesh/enhance_mesh.h"
#include "ui/cvar.h"
#include "voxel/material.h"

enhance_params enhance_view_params(void)
{
    enhance_params p = enhance_params_default();
    p.op = (enhance_operator)cvar_int("enhance.operator", (int)p.op);
    p.levels = cvar_int("enhance.levels", p.levels);
    p.factor = cvar_int("enhance.factor", p.factor);
    p.thr_low = cvar_int("enhance.threshold_low", p.thr_low);
    p.thr_even = cvar_int("enhance.threshold_even", p.thr_even);
    p.thr_odd = cvar_int("enhance.threshold_odd", p.thr_odd);
    p.altitude = cvar_int("enhance.altitude", p.altitude);
    p.probes = cvar_int("enhance.probes", p.probes);
    p.spread = cvar_float("enhance.spread", p.spread);
    p.probe_seed = (uint32_t)cvar_int("enhance.probe_seed", (int)p.probe_seed);
    p.percent = cvar_int("enhance.percent", p.percent);
    p.materials = cvar_int("enhance.materials", 1) != 0;
    for (int m = 0; m < MAT_COUNT; m++) {
        char name[64];
        snprintf(name, sizeof name, "enhance.mat.%s.even", material_table[m].name);
        p.mat_even[m] = (uint8_t)cvar_int(name, p.mat_even[m]);
        snprintf(name, sizeof name, "enhance.mat.%s.odd", material_table[m].name);
        p.mat_odd[m] = (uint8_t)cvar_int(name, p.mat_odd[m]);
        snprintf(name, sizeof name, "enhance.mat.%s.percent", material_table[m].name);
        p.mat_percent[m] = (uint8_t)cvar_int(name, p.mat_percent[m]);
    }
    return p;
}

double enhance_view_estimate(int chunks, int factor)
{
    /* a hilly chunk lists about 1500 surface voxels; merged quads run near
     * half the fragment faces, about 1.5 faces per listed fragment row */
    double voxels = 1500.0, per_voxel = (double)factor * factor * 2.0 + sizeof(enhance_voxel);
    double quads = voxels * factor * factor * 0.75;
    double per_chunk = sizeof(enhance_input) + voxels * per_voxel + quads * 4 * sizeof(enhance_vertex) * 2;
    return per_chunk * chunks;
}

bool enhance_view_params_equal(const enhance_params *a, const enhance_params *b)
{
    return a->op == b->op && a->levels == b->levels && a->factor == b->factor && a->thr_low == b->thr_low &&
           a->thr_even == b->thr_even && a->thr_odd == b->thr_odd && a->altitude == b->altitude &&
           a->probes == b->probes && a->spread == b->spread && a->probe_seed == b->probe_seed &&
           a->percent == b->percent && a->materials == b->materials &&
           !memcmp(a->mat_even, b->mat_even, sizeof a->mat_even) && !memcmp(a->mat_odd, b->mat_odd, sizeof a->mat_odd) &&
           !memcmp(a->mat_percent, b->mat_percent, sizeof a->mat_percent);
}

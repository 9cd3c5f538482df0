/* grammar_ref: the straightforward reference derivation of voxel grammars,
 * kept out of the engine: test_grammar compares the fast derivation with it
 * and strata-bench times it (grammar.reference.cave.64). Static, so each
 * includer gets its own copy and no test links code it does not use. */
#ifndef STRATA_GRAMMAR_REF_H
#define STRATA_GRAMMAR_REF_H

#include <stdlib.h>
#include <string.h>

#include "gen/grammar.h"

/* ---- the reference: the derivation written as plainly as possible ------ */

/* `start` is the grid as it stood when the iteration began: SLOPE reads it. */
static inline bool ref_matches(const grammar_wrule *r, const grammar_grid *g, const grammar_grid *start, int x, int y, int z)
{
    for (int dz = 0; dz < r->size[2]; dz++)
        for (int dy = 0; dy < r->size[1]; dy++)
            for (int dx = 0; dx < r->size[0]; dx++) {
                grammar_cell s = r->sym[dx + r->size[0] * (dy + r->size[1] * dz)];
                size_t i = grammar_grid_index(g, x + dx, y + dy, z + dz);
                float slope = s.op == GSYM_SLOPE ? grammar_slope_at(start, x + dx, y + dy, z + dz) : GRAMMAR_NO_SLOPE;
                if (!grammar_sym_eval(s, g->d[i], g->m ? g->m[i] : 0, slope)) return false;
            }
    return true;
}

/* Same definition as the engine's: groups in program order, then two phases
 * of z slabs of GRAMMAR_SLAB window positions (even slabs, then odd), each
 * slab z, y, x ascending; highest weight wins, ties by grammar_tiebreak. */
static inline void ref_derive(const grammar_program *prog, grammar_grid *g, const grammar_params *p)
{
    size_t cells = (size_t)g->nx * (size_t)g->ny * (size_t)g->nz;
    grammar_grid start = *g;
    start.d = malloc(cells * sizeof(float));
    for (int it = 0; it < p->iterations; it++) {
        memcpy(start.d, g->d, cells * sizeof(float));
        for (int gr = 0; gr < prog->groups; gr++) {
            int g0 = prog->group_start[gr], g1 = prog->group_start[gr + 1];
            const int *sz = prog->rules[g0].size;
            int nw[3];
            for (int a = 0; a < 3; a++)
                nw[a] = p->hi[a] - p->lo[a] < sz[a] ? 0 : (p->hi[a] - p->lo[a] - sz[a]) / p->stride[a] + 1;
            int slabs = (nw[2] + GRAMMAR_SLAB - 1) / GRAMMAR_SLAB;
            for (int phase = 0; phase < 2; phase++)
                for (int s = phase; s < slabs; s += 2)
                    for (int tz = s * GRAMMAR_SLAB; tz < nw[2] && tz < (s + 1) * GRAMMAR_SLAB; tz++)
                        for (int ty = 0; ty < nw[1]; ty++)
                            for (int tx = 0; tx < nw[0]; tx++) {
                                int x = p->lo[0] + tx * p->stride[0], y = p->lo[1] + ty * p->stride[1],
                                    z = p->lo[2] + tz * p->stride[2];
                                int match[GRAMMAR_MAX_RULES * 4], n = 0;
                                float best = -1.f;
                                for (int r = g0; r < g1; r++) {
                                    if (!ref_matches(&prog->rules[r], g, &start, x, y, z)) continue;
                                    if (prog->rules[r].weight > best) {
                                        best = prog->rules[r].weight;
                                        n = 0;
                                    }
                                    if (prog->rules[r].weight == best) match[n++] = r;
                                }
                                if (n == 0) continue;
                                const grammar_wrule *r = &prog->rules[match[n > 1 ? grammar_tiebreak(p->seed, it, gr, x, y, z, n) : 0]];
                                for (int dz = 0; dz < r->size[2]; dz++)
                                    for (int dy = 0; dy < r->size[1]; dy++)
                                        for (int dx = 0; dx < r->size[0]; dx++) {
                                            size_t i = grammar_grid_index(g, x + dx, y + dy, z + dz);
                                            grammar_cell t = r->xf[dx + r->size[0] * (dy + r->size[1] * dz)];
                                            g->d[i] = grammar_xf_apply(t, g->d[i]);
                                            if (g->m) g->m[i] = grammar_xf_material(t, g->m[i]);
                                        }
                            }
        }
    }
    free(start.d);
}

#endif

/* grammar_random: random grids and rulesets for the tests that compare two
 * derivations (test_grammar: fast against the reference; test_grammar_gpu:
 * the compute shader against the CPU). Static, like grammar_ref.h. */
#ifndef STRATA_GRAMMAR_RANDOM_H
#define STRATA_GRAMMAR_RANDOM_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/rng.h"
#include "gen/grammar.h"

/* A noisy height field (0/1 with 8% flipped) or densities in steps of 1/4. */
static inline void noise_grid(grammar_grid *g, uint64_t seed, bool heightfield)
{
    rng r = rng_make(seed);
    for (int z = 0; z < g->nz; z++)
        for (int y = 0; y < g->ny; y++)
            for (int x = 0; x < g->nx; x++) {
                float v;
                if (heightfield) {
                    float h = (float)g->ny * (0.5f + 0.25f * sinf((float)x * 0.3f + (float)seed) * cosf((float)z * 0.2f));
                    v = (float)y < h ? 1.f : 0.f;
                    if (rng_double(&r) < 0.08) v = 1.f - v;
                } else {
                    v = (float)(rng_range(&r, 0, 4)) * 0.25f;
                }
                g->d[grammar_grid_index(g, x, y, z)] = v;
            }
}

/* 1..6 rules up to 4 x 4 x 3 with symbol operators [0, sym_ops) and
 * transforms [0, xf_ops), values in steps of 1/4. */
static inline void random_grammar(grammar *g, rng *r, int sym_ops, int xf_ops)
{
    memset(g, 0, sizeof *g);
    g->count = rng_range(r, 1, 6);
    for (int i = 0; i < g->count; i++) {
        grammar_rule *ru = &g->rules[i];
        snprintf(ru->name, sizeof ru->name, "r%d", i);
        for (int a = 0; a < 3; a++) ru->size[a] = rng_range(r, 1, a == 2 ? 3 : 4);
        ru->weight = (float)rng_range(r, 1, 2);
        int n = ru->size[0] * ru->size[1] * ru->size[2];
        for (int c = 0; c < n; c++) {
            static const float vals[] = { 0.f, 0.25f, 0.5f, 0.75f, 1.f };
            ru->sym[c].op = (uint8_t)rng_range(r, 0, sym_ops - 1);
            ru->sym[c].v = vals[rng_range(r, 0, 4)];
            ru->xf[c].op = (uint8_t)rng_range(r, 0, xf_ops - 1);
            ru->xf[c].v = vals[rng_range(r, 0, 4)] - 0.5f;
        }
        ru->sym[0].op = GSYM_GEQ; /* never all IGN */
    }
}

#endif

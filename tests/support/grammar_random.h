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
#include "voxel/material.h"

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

/* Materials for random grids and rules: terrain, air, a plant, the floor. */
static const uint8_t k_mats[] = { MAT_AIR, MAT_STONE, MAT_SAND, MAT_SANDSTONE, MAT_MESA, MAT_OAK_LOG, MAT_BEDROCK };
static const uint8_t k_terrain[] = { MAT_STONE, MAT_SAND, MAT_SANDSTONE, MAT_MESA, MAT_CRACKED_STONE };

/* A material channel that agrees with the densities the way a world does:
 * solid cells are terrain (or the floor), empty ones air or a plant. */
static inline void random_materials(const grammar_grid *g, uint8_t *m, rng *r)
{
    size_t n = (size_t)g->nx * (size_t)g->ny * (size_t)g->nz;
    for (size_t i = 0; i < n; i++) {
        if (g->d[i] >= 0.5f) m[i] = rng_double(r) < 0.05 ? MAT_BEDROCK : k_terrain[rng_range(r, 0, 3)];
        else m[i] = rng_double(r) < 0.1 ? MAT_OAK_LOG : MAT_AIR;
    }
}

/* 1..6 rules up to 4 x 4 x 3 with the paper's operators (IGN..GEQ, NOP,
 * SET, ADD), values in steps of 1/4; abstract: also MAT, CLASS, SLOPE,
 * PAINT and FILL, with valid arguments. */
static inline void random_grammar(grammar *g, rng *r, bool abstract)
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
            grammar_cell *sc = &ru->sym[c], *xc = &ru->xf[c];
            sc->op = (uint8_t)rng_range(r, 0, abstract ? GSYM_COUNT - 1 : GSYM_GEQ);
            sc->v = vals[rng_range(r, 0, 4)];
            if (sc->op == GSYM_MAT) sc->id = k_mats[rng_range(r, 0, (int)sizeof k_mats - 1)];
            if (sc->op == GSYM_CLASS) sc->id = (uint8_t)rng_range(r, 0, GCLASS_COUNT - 1);
            if (sc->op == GSYM_SLOPE) {
                sc->v = (float)rng_range(r, 0, 60);
                sc->hi = sc->v + (float)rng_range(r, 0, 90 - (int)sc->v);
            }
            xc->op = (uint8_t)rng_range(r, 0, abstract ? GXF_COUNT - 1 : GXF_ADD);
            xc->v = vals[rng_range(r, 0, 4)] - 0.5f;
            if (grammar_xf_is_material(xc->op)) xc->id = k_terrain[rng_range(r, 0, (int)sizeof k_terrain - 1)];
        }
        ru->sym[0].op = GSYM_GEQ; /* never all IGN */
    }
}

#endif

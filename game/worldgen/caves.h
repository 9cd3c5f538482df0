/* caves: grammar-carved caves and overhangs (seed 004) in the biomes.
 * A pass after a kind's columns: worm tunnels seeded from the surface (the
 * entrances) and chambers, grown by the cave grammar in boxes around each
 * tunnel, then the overhang grammar over the whole terrain in tiles, then
 * the kind's feature ruleset (caves.features_KIND, written with materials
 * and slopes) over the same tiles.
 * Voxels become densities (terrain 1, air and plants 0), and after the
 * derivation density < 0.5 is air and new solid takes the material around
 * it. Every parameter is a caves.* cvar; see docs/grammar.md. */
#ifndef STRATA_CAVES_H
#define STRATA_CAVES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/jobs.h"
#include "gen/grammar.h"
#include "voxel/world.h"

/* Registers the caves.* cvars and the worldgen pass. */
void caves_register(void);

/* Finds a grammar file: as given, else under assets/grammars/. */
bool caves_load_grammar(const char *name, grammar *out, char *err, size_t errlen);
/* The orientation flags caves.orientation selects. */
unsigned caves_orientation(void);

/* What a box application changed. */
typedef struct caves_edit {
    long long matches, changed;
    int lo[3], hi[3]; /* bounding box of changed voxels, [lo, hi); empty when changed == 0 */
} caves_edit;

/* Derives `prog` over the world box [lo, hi): densities in (and the box's
 * materials, when the program reads or writes them), the grammar's windows
 * inside the box, materials out (terrain only: bedrock, muskeg and plants
 * never change; what PAINT or FILL named, else new solid takes the material
 * around it). Changed voxels go through world_set, so only their
 * chunks become dirty. Refuses (world untouched) a box outside the world. */
bool caves_apply_box(world *w, const grammar_program *prog, const int lo[3], const int hi[3], const int stride[3],
                     int iterations, uint64_t seed, job_pool *jobs, caves_edit *out, char *err, size_t errlen);

/* A derivation of the box's densities: grammar_derive on the workers, or
 * another with the same bits (the GPU's, for `grammar apply`). */
typedef bool (*caves_derive_fn)(void *user, const grammar_program *prog, grammar_grid *grid, const grammar_params *p,
                                grammar_stats *stats, char *err, size_t errlen);
/* caves_apply_box with the derivation chosen by the caller. */
bool caves_apply_box_with(world *w, const grammar_program *prog, const int lo[3], const int hi[3], const int stride[3],
                          int iterations, uint64_t seed, caves_derive_fn derive, void *user, caves_edit *out, char *err,
                          size_t errlen);

/* How the caves pass derives its boxes: NULL (the default) is
 * grammar_derive on the pass's pool. The app may install a derivation of
 * the same bits instead (app_grammar.c: the compute shader, when the pass
 * runs on the GL thread and a probe measured it faster); it gets `user` and
 * the pool the pass was given. Set at start-up, before any generation. */
typedef bool (*caves_pass_derive_fn)(void *user, job_pool *jobs, const grammar_program *prog, grammar_grid *grid,
                                     const grammar_params *p, grammar_stats *stats, char *err, size_t errlen);
void caves_set_pass_derive(caves_pass_derive_fn fn, void *user);

/* Whether a material is terrain the grammar may carve or grow. */
bool caves_is_terrain(uint8_t m);

#endif

/* bench_mesh: greedy block meshing of one 32^3 chunk (mesh_build only; the
 * gather is outside the timed region) on typical hills terrain, a solid
 * sphere and the checkerboard worst case, plus --mesh-file for any volume. */
#include "bench.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/timer.h"
#include "mesh/mesh_blocks.h"
#include "worldgen/terrain.h"

typedef struct bench_mesh_state {
    mesh_input in;
    chunk_mesh mesh;
} bench_mesh_state;

/* Meshes once outside the timed runs, so buffers are grown before timing
 * (steady state: no allocation) and the counts can be noted. */
static void *bench_mesh_prepare(const uint8_t *vox)
{
    bench_mesh_state *s = calloc(1, sizeof *s);
    if (!s) {
        bench_skip("out of memory");
        return NULL;
    }
    mesh_gather_volume(vox, &s->in);
    mesh_build(&s->in, true, &s->mesh);
    bench_note("faces", s->mesh.faces);
    bench_note("quads", s->mesh.quads);
    bench_note("triangles", 2.0 * s->mesh.quads);
    return s;
}

/* Hills as the game makes them (seed 001 eq. 9 height map): grass on top,
 * four dirt, stone below, bedrock at y = 0, air above. Heights span most
 * of the chunk so the sides of the hills show as well as the tops. */
static void *bench_mesh_terrain_setup(void)
{
    static uint8_t vox[CHUNK_VOLUME];
    int heights[CHUNK_AREA];
    terrain_heightmap_params p = { .weight = 24.f, .scale = 40.f, .ground = 4.f, .octaves = 3 };
    terrain_heightmap(&p, 1, 0, 0, CHUNK_SIZE, CHUNK_SIZE, CHUNK_SIZE, heights);
    for (int y = 0; y < CHUNK_SIZE; y++)
        for (int z = 0; z < CHUNK_SIZE; z++)
            for (int x = 0; x < CHUNK_SIZE; x++) {
                int h = heights[z * CHUNK_SIZE + x];
                uint8_t m = y == 0 ? MAT_BEDROCK : y > h ? MAT_AIR : y == h ? MAT_GRASS : y > h - 4 ? MAT_DIRT : MAT_STONE;
                vox[CHUNK_INDEX(x, y, z)] = m;
            }
    return bench_mesh_prepare(vox);
}

static void *bench_mesh_sphere_setup(void)
{
    static uint8_t vox[CHUNK_VOLUME];
    for (int y = 0; y < CHUNK_SIZE; y++)
        for (int z = 0; z < CHUNK_SIZE; z++)
            for (int x = 0; x < CHUNK_SIZE; x++) {
                int dx = x - 16, dy = y - 16, dz = z - 16;
                vox[CHUNK_INDEX(x, y, z)] = dx * dx + dy * dy + dz * dz <= 15 * 15 ? MAT_STONE : MAT_AIR;
            }
    return bench_mesh_prepare(vox);
}

/* Every solid voxel alone: the most faces and nothing to merge. */
static void *bench_mesh_checker_setup(void)
{
    static uint8_t vox[CHUNK_VOLUME];
    for (int y = 0; y < CHUNK_SIZE; y++)
        for (int z = 0; z < CHUNK_SIZE; z++)
            for (int x = 0; x < CHUNK_SIZE; x++) vox[CHUNK_INDEX(x, y, z)] = ((x + y + z) & 1) ? MAT_AIR : MAT_STONE;
    return bench_mesh_prepare(vox);
}

static void bench_mesh_run(void *state)
{
    bench_mesh_state *s = state;
    mesh_build(&s->in, true, &s->mesh);
}

static void bench_mesh_teardown(void *state)
{
    bench_mesh_state *s = state;
    if (!s) return;
    mesh_free(&s->mesh);
    free(s);
}

static const bench_case bench_mesh_cases[] = {
    { "mesh.blocks.terrain32", bench_mesh_terrain_setup, bench_mesh_run, bench_mesh_teardown, 200 },
    { "mesh.blocks.sphere32", bench_mesh_sphere_setup, bench_mesh_run, bench_mesh_teardown, 200 },
    { "mesh.blocks.checker32", bench_mesh_checker_setup, bench_mesh_run, bench_mesh_teardown, 200 },
};
BENCH_REGISTER(bench_mesh_cases)

static int bench_mesh_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define BENCH_MESH_FILE_RUNS 200

int bench_mesh_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "mesh-file: %s: %s\n", path, strerror(errno));
        return 1;
    }
    static uint8_t vox[CHUNK_VOLUME + 1];
    /* one byte more than needed tells a too-long file from an exact one */
    size_t n = fread(vox, 1, sizeof vox, f);
    bool read_error = ferror(f) != 0;
    fclose(f);
    if (read_error) {
        fprintf(stderr, "mesh-file: %s: read error\n", path);
        return 1;
    }
    if (n != CHUNK_VOLUME) {
        fprintf(stderr,
                "mesh-file: %s: expected exactly %d bytes (a 32^3 volume, one material id per byte, "
                "x fastest, then z, then y), got %s%zu\n",
                path, CHUNK_VOLUME, n > CHUNK_VOLUME ? "more than " : "", n > CHUNK_VOLUME ? (size_t)CHUNK_VOLUME : n);
        return 1;
    }
    bench_mesh_state *s = calloc(1, sizeof *s);
    double *ms = malloc(sizeof(double) * BENCH_MESH_FILE_RUNS);
    if (!s || !ms) {
        fprintf(stderr, "mesh-file: out of memory\n");
        free(s);
        free(ms);
        return 1;
    }
    mesh_gather_volume(vox, &s->in);
    mesh_build(&s->in, true, &s->mesh); /* warm-up: grows the buffers */
    for (int i = 0; i < BENCH_MESH_FILE_RUNS; i++) {
        uint64_t t0 = timer_ns();
        mesh_build(&s->in, true, &s->mesh);
        ms[i] = timer_ms_since(t0);
    }
    qsort(ms, BENCH_MESH_FILE_RUNS, sizeof *ms, bench_mesh_cmp);
    printf("visible_faces=%d\n", s->mesh.faces);
    printf("quads=%d\n", s->mesh.quads);
    printf("triangles=%d\n", 2 * s->mesh.quads);
    printf("median_ms=%.4f\n", 0.5 * (ms[BENCH_MESH_FILE_RUNS / 2 - 1] + ms[BENCH_MESH_FILE_RUNS / 2]));
    mesh_free(&s->mesh);
    free(s);
    free(ms);
    return 0;
}

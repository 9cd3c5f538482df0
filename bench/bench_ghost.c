/* bench_ghost: meshing the cutting tool's ghost (ghost_build) for the
 * largest tool, a 64^3 ball: the cost of changing tool.shape or tool.size.
 * The shape is made and the buffer grown outside the timed runs. */
#include "bench.h"

#include <stdlib.h>

#include "gfx/ghost.h"

typedef struct bench_ghost_state {
    shape s;
    ghost_mesh mesh;
} bench_ghost_state;

static void *bench_ghost_setup(void)
{
    bench_ghost_state *st = calloc(1, sizeof *st);
    char err[256];
    if (!st) {
        bench_skip("out of memory");
        return NULL;
    }
    if (!shape_from_formula(&st->s, "cx cx * cy cy * cz cz * + + sqrt r <", 64, 64, 64, err, sizeof err) ||
        !ghost_build(&st->s, &st->mesh)) {
        bench_skip(st->s.vox ? "out of memory" : err);
        shape_free(&st->s);
        free(st);
        return NULL;
    }
    bench_note("faces", (double)st->mesh.faces);
    bench_note("quads", st->mesh.quads);
    return st;
}

static void bench_ghost_run(void *state)
{
    bench_ghost_state *st = state;
    ghost_build(&st->s, &st->mesh);
}

static void bench_ghost_teardown(void *state)
{
    bench_ghost_state *st = state;
    if (!st) return;
    ghost_mesh_free(&st->mesh);
    shape_free(&st->s);
    free(st);
}

static const bench_case bench_ghost_cases[] = {
    { "ghost.build64", bench_ghost_setup, bench_ghost_run, bench_ghost_teardown, 50 },
};
BENCH_REGISTER(bench_ghost_cases)

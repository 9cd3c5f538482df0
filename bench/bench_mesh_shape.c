/* bench_mesh_shape: meshing the cutting tool's ghost (shape_mesh_build) for the
 * largest tool, a 64^3 ball: the cost of changing tool.shape or tool.size.
 * The shape is made and the buffer grown outside the timed runs. */
#include "bench.h"

#include <stdlib.h>

#include "mesh/mesh_shape.h"

typedef struct bench_shape_state {
    shape s;
    shape_mesh mesh;
} bench_shape_state;

static void *bench_shape_setup(void)
{
    bench_shape_state *st = calloc(1, sizeof *st);
    char err[256];
    if (!st) {
        bench_skip("out of memory");
        return NULL;
    }
    if (!shape_from_formula(&st->s, "cx cx * cy cy * cz cz * + + sqrt r <", 64, 64, 64, err, sizeof err) ||
        !shape_mesh_build(&st->s, &st->mesh)) {
        bench_skip(st->s.vox ? "out of memory" : err);
        shape_free(&st->s);
        free(st);
        return NULL;
    }
    bench_note("faces", (double)st->mesh.faces);
    bench_note("quads", st->mesh.quads);
    return st;
}

static void bench_shape_run(void *state)
{
    bench_shape_state *st = state;
    shape_mesh_build(&st->s, &st->mesh);
}

static void bench_shape_teardown(void *state)
{
    bench_shape_state *st = state;
    if (!st) return;
    shape_mesh_free(&st->mesh);
    shape_free(&st->s);
    free(st);
}

static const bench_case bench_shape_cases[] = {
    { "mesh.shape.sphere64", bench_shape_setup, bench_shape_run, bench_shape_teardown, 50 },
};
BENCH_REGISTER(bench_shape_cases)

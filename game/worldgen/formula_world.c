#include "formula_world.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "gen/shape.h"
#include "ui/cvar.h"

typedef struct formula_plan {
    int n;           /* object side */
    int ox, oz;      /* where the object's corner sits (y: on the floor at 1) */
    uint8_t *mat;    /* n^3 materials, shape layout */
} formula_plan;

/* Grass on voxels with air above, then three of dirt, then stone, so the
 * object reads as terrain from any formula. */
static void paint(formula_plan *pl, const shape *s)
{
    int n = pl->n;
    for (int z = 0; z < n; z++)
        for (int x = 0; x < n; x++) {
            int below_air = 1000;
            for (int y = n - 1; y >= 0; y--) {
                size_t i = shape_index(s, x, y, z);
                if (!s->vox[i]) {
                    below_air = 0;
                    pl->mat[i] = MAT_AIR;
                    continue;
                }
                below_air++;
                pl->mat[i] = below_air == 1 ? MAT_GRASS : below_air <= 4 ? MAT_DIRT : MAT_STONE;
            }
        }
}

static void *formula_plan_make(const world *w, int64_t seed, char *err, size_t errlen)
{
    (void)seed; /* a formula has no randomness: the same formula is the same world */
    cvar *fc = cvar_find("world.formula");
    const char *formula = fc ? fc->str : FORMULA_WORLD_DEFAULT;
    int n = cvar_int("world.formula_size", 64);
    int fits = w->sy - 1; /* the largest side: the bedrock floor takes a layer */
    if (w->sx < fits) fits = w->sx;
    if (w->sz < fits) fits = w->sz;
    if (fits < 1) {
        snprintf(err, errlen, "this %dx%dx%d world has no room above its bedrock floor", w->sx, w->sy, w->sz);
        return NULL;
    }
    if (n > fits) {
        /* world.formula_size and world.size_* constrain each other only here:
         * shrinking the object keeps every combination playable */
        log_warn("world.formula_size %d does not fit this %dx%dx%d world: the object is %d a side", n, w->sx, w->sy,
                 w->sz, fits);
        n = fits;
    }
    shape s = { 0 };
    char why[256];
    if (!shape_from_formula(&s, formula, n, n, n, why, sizeof why)) {
        snprintf(err, errlen, "world.formula: %s", why);
        return NULL;
    }
    formula_plan *pl = calloc(1, sizeof *pl);
    if (pl) pl->mat = malloc((size_t)n * n * n);
    if (!pl || !pl->mat) {
        free(pl);
        shape_free(&s);
        snprintf(err, errlen, "out of memory for the formula object");
        return NULL;
    }
    pl->n = n;
    /* global coordinates: the middle of the window the plan was made for */
    pl->ox = world_x0(w) + (w->sx - n) / 2;
    pl->oz = world_z0(w) + (w->sz - n) / 2;
    paint(pl, &s);
    shape_free(&s);
    return pl;
}

static void formula_fill_column(void *plan, world *w, int cx, int cz)
{
    formula_plan *pl = plan;
    for (int cy = 0; cy < w->cy; cy++) {
        chunk *c = world_chunk(w, cx, cy, cz);
        for (int ly = 0; ly < CHUNK_SIZE; ly++) {
            int y = cy * CHUNK_SIZE + ly, oy = y - 1;
            for (int lz = 0; lz < CHUNK_SIZE; lz++) {
                int oz = cz * CHUNK_SIZE + lz - pl->oz;
                for (int lx = 0; lx < CHUNK_SIZE; lx++) {
                    int ox = cx * CHUNK_SIZE + lx - pl->ox;
                    uint8_t m = MAT_AIR;
                    if (y == 0) m = MAT_BEDROCK;
                    else if (ox >= 0 && oz >= 0 && oy >= 0 && ox < pl->n && oz < pl->n && oy < pl->n)
                        m = pl->mat[(size_t)ox + (size_t)pl->n * ((size_t)oz + (size_t)pl->n * (size_t)oy)];
                    c->vox[CHUNK_INDEX(lx, ly, lz)] = m;
                }
            }
        }
    }
}

static void formula_free(void *plan)
{
    formula_plan *pl = plan;
    free(pl->mat);
    free(pl);
}

static const char *const k_own_cvars[] = { "world.formula", NULL };

const worldgen_kind formula_world_kind = {
    .own_cvars = k_own_cvars,
    .name = "formula",
    .help = "seed 003's terrain object: world.formula on a bedrock floor",
    .plan = formula_plan_make,
    .fill_column = formula_fill_column,
    .free_plan = formula_free,
    .seedless = true,
    .finite = true,
};

/* 'set world.formula' refuses what does not compile, with the column: the
 * mistake is reported where it is typed, not at the next regeneration. */
static bool validate_formula(const cvar *proposed, char *err, size_t errlen, void *user)
{
    (void)user;
    expr_program p;
    return expr_compile(proposed->str, EXPR_AUTO, &p, err, errlen);
}

void formula_world_register(void)
{
    static const cvar_desc vars[] = {
        { "world.formula", "formula of the formula world's object, postfix or infix (seed 003)", CVAR_STRING,
          CVAR_ARCHIVE | CVAR_REGEN, FORMULA_WORLD_DEFAULT, 0, 0, NULL, NULL, NULL, validate_formula },
        { "world.formula_size", "side of the formula world's object in voxels", CVAR_INT, CVAR_ARCHIVE | CVAR_REGEN,
          "64", 1, SHAPE_MAX_SIZE },
    };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) cvar_register(&vars[i]);
    worldgen_register(&formula_world_kind);
}

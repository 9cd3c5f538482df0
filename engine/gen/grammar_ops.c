/* grammar_ops: what each symbol and transform of a voxel grammar means on
 * one cell (seed 004's operators and ours: material, class, slope, paint,
 * fill), their names, and the material classes. The definitions the fast
 * derivation (grammar.c), the parser (grammar_file.c), the compute shader's
 * host (gfx/grammar_gpu.c) and the tests' reference all share; declared in
 * gen/grammar.h. */
#include "gen/grammar.h"

#include <math.h>
#include <string.h>

#include "voxel/material.h"

static inline int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

static const char *const k_sym_names[GSYM_COUNT] = { "IGN", "PRES", "ABS", "EQ", "NEQ", "LT", "LEQ", "GT", "GEQ",
                                                     "MAT", "CLASS", "SLOPE" };
static const char *const k_xf_names[GXF_COUNT] = { "NOP", "SET", "ADD", "PAINT", "FILL" };

const char *grammar_sym_name(int op) { return op >= 0 && op < GSYM_COUNT ? k_sym_names[op] : "?"; }
const char *grammar_xf_name(int op) { return op >= 0 && op < GXF_COUNT ? k_xf_names[op] : "?"; }
bool grammar_sym_has_value(int op) { return op >= GSYM_EQ && op <= GSYM_GEQ; }
bool grammar_xf_has_value(int op) { return op == GXF_SET || op == GXF_ADD; }
bool grammar_sym_is_material(int op) { return op == GSYM_MAT || op == GSYM_CLASS; }
bool grammar_xf_is_material(int op) { return op == GXF_PAINT || op == GXF_FILL; }

/* ---- material classes --------------------------------------------------- */

static const char *const k_class_names[GCLASS_COUNT] = { "air", "terrain", "rock", "soil", "plant", "fixed" };

#define CB(c) (1u << (c))
#define TERRAIN_ROCK (CB(GCLASS_TERRAIN) | CB(GCLASS_ROCK))
#define TERRAIN_SOIL (CB(GCLASS_TERRAIN) | CB(GCLASS_SOIL))
/* Classes per material. Terrain is what the caves carve and grow: rock and
 * soil; plants never make walls; the fixed floor (bedrock, muskeg, and the
 * placeholder that becomes muskeg) is never written. Null is in none. */
const uint8_t grammar_material_classes[256] = {
    [MAT_AIR] = CB(GCLASS_AIR),
    [MAT_PLACEHOLDER] = CB(GCLASS_FIXED),
    [MAT_BEDROCK] = CB(GCLASS_FIXED),
    [MAT_STONE] = TERRAIN_ROCK,
    [MAT_DIRT] = TERRAIN_SOIL,
    [MAT_GRASS] = TERRAIN_SOIL,
    [MAT_SAND] = TERRAIN_SOIL,
    [MAT_SANDSTONE] = TERRAIN_ROCK,
    [MAT_MESA] = TERRAIN_ROCK,
    [MAT_SALT_FLAT] = TERRAIN_SOIL,
    [MAT_TAIGA_DIRT] = TERRAIN_SOIL,
    [MAT_TAIGA_GRASS] = TERRAIN_SOIL,
    [MAT_PERMAFROST] = TERRAIN_SOIL,
    [MAT_CACTUS] = CB(GCLASS_PLANT),
    [MAT_OAK_LOG] = CB(GCLASS_PLANT),
    [MAT_FIR_LOG] = CB(GCLASS_PLANT),
    [MAT_OAK_LEAVES] = CB(GCLASS_PLANT),
    [MAT_FIR_LEAVES] = CB(GCLASS_PLANT),
    [MAT_CRACKED_STONE] = TERRAIN_ROCK,
    [MAT_MUSKEG] = CB(GCLASS_FIXED),
    [MAT_GLOW_ORE] = TERRAIN_ROCK, /* the lamp, placed by the player, is in none: the rules never touch it */
};
#undef TERRAIN_ROCK
#undef TERRAIN_SOIL
#undef CB

const char *grammar_class_name(int cls) { return cls >= 0 && cls < GCLASS_COUNT ? k_class_names[cls] : "?"; }

int grammar_class_find(const char *name)
{
    for (int c = 0; c < GCLASS_COUNT; c++)
        if (strcmp(k_class_names[c], name) == 0) return c;
    return -1;
}

uint8_t grammar_cell_material(float d, uint8_t m)
{
    return d < 0.5f && grammar_class_has(GCLASS_TERRAIN, m) ? (uint8_t)MAT_AIR : m;
}

/* ---- slope -------------------------------------------------------------- */

float grammar_slope_angle(int gx, int gy, int gz)
{
    if (gx == 0 && gy == 0 && gz == 0) return GRAMMAR_NO_SLOPE;
    double across = sqrt((double)gx * gx + (double)gz * gz);
    return (float)(atan2(across, fabs((double)gy)) * (180.0 / 3.14159265358979323846));
}

float grammar_slope_at(const grammar_grid *g, int x, int y, int z)
{
    int grad[3] = { 0, 0, 0 };
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int px = clampi(x + dx, 0, g->nx - 1), py = clampi(y + dy, 0, g->ny - 1), pz = clampi(z + dz, 0, g->nz - 1);
                int s = g->d[grammar_grid_index(g, px, py, pz)] >= 0.5f;
                grad[0] += dx * s; /* +1 on the +x face, -1 on the -x face, 0 between */
                grad[1] += dy * s;
                grad[2] += dz * s;
            }
    return grammar_slope_angle(grad[0], grad[1], grad[2]);
}

bool grammar_sym_test(grammar_cell c, float d)
{
    switch (c.op) {
    case GSYM_IGN: return true;
    case GSYM_PRES: return d > 0.f;
    case GSYM_ABS: return d == 0.f;
    case GSYM_EQ: return d == c.v;
    case GSYM_NEQ: return d != c.v;
    case GSYM_LT: return d < c.v;
    case GSYM_LEQ: return d <= c.v;
    case GSYM_GT: return d > c.v;
    case GSYM_GEQ: return d >= c.v;
    default: return false;
    }
}

bool grammar_sym_eval(grammar_cell c, float d, uint8_t m, float slope)
{
    switch (c.op) {
    case GSYM_MAT: return grammar_cell_material(d, m) == c.id;
    case GSYM_CLASS: return grammar_class_has(c.id, grammar_cell_material(d, m));
    /* lo >= 0, so GRAMMAR_NO_SLOPE (-1) is in no range */
    case GSYM_SLOPE: return slope >= c.v && slope <= c.hi;
    default: return grammar_sym_test(c, d);
    }
}

float grammar_xf_apply(grammar_cell c, float d)
{
    switch (c.op) {
    case GXF_SET: return c.v;
    case GXF_ADD: return d + c.v;
    case GXF_FILL: return 1.f;
    default: return d;
    }
}

uint8_t grammar_xf_material(grammar_cell c, uint8_t m)
{
    return grammar_xf_is_material(c.op) ? c.id : m;
}


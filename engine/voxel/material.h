/* material: the voxel type table of seed 001 ("Voxel Environments").
 * Each type has a tile number per face (back, front, top, bottom, left,
 * right) and the two render flags that drive hidden-face culling. Ids are
 * ours: air is 0 so zeroed memory is empty space; the order otherwise
 * follows the paper's table. */
#ifndef STRATA_MATERIAL_H
#define STRATA_MATERIAL_H

#include <stdbool.h>
#include <stdint.h>

typedef enum material_id {
    MAT_AIR = 0,
    MAT_NULL,
    MAT_PLACEHOLDER, /* "Structure Placeholder": stands in for muskeg until opaque generation ends */
    MAT_BEDROCK,
    MAT_STONE,
    MAT_DIRT,
    MAT_GRASS,
    MAT_SAND,
    MAT_SANDSTONE,
    MAT_MESA,
    MAT_SALT_FLAT,
    MAT_TAIGA_DIRT,
    MAT_TAIGA_GRASS,
    MAT_PERMAFROST,
    MAT_CACTUS,
    MAT_OAK_LOG,
    MAT_FIR_LOG,
    MAT_OAK_LEAVES,
    MAT_FIR_LEAVES,
    MAT_CRACKED_STONE,
    MAT_MUSKEG,
    /* Ours, after the paper's table: light sources (light/emit.h). */
    MAT_LAMP,      /* placed by the player: the brightest */
    MAT_GLOW_ORE,  /* grown on cave walls by the caves pass */
    MAT_COUNT
} material_id;

/* Face order of the paper's table. Directions follow seed 003's neighbour
 * list: back is +z, front is -z, top +y, bottom -y, left -x, right +x. */
typedef enum face_id { FACE_BACK, FACE_FRONT, FACE_TOP, FACE_BOTTOM, FACE_LEFT, FACE_RIGHT, FACE_COUNT } face_id;

/* How a visible material is drawn; decided by the table's flags and texture. */
typedef enum render_pass {
    PASS_NONE = -1,   /* never drawn (air, placeholder) */
    PASS_OPAQUE = 0,
    PASS_CUTOUT = 1,  /* alpha-tested: leaves */
    PASS_TRANSLUCENT = 2, /* blended, drawn after everything opaque: muskeg */
    PASS_COUNT = 3
} render_pass;

/* Neighbourhood classes of detail enhancement (seed 000 section 5, gen/enhance):
 * with enhance.materials on, fragments grown into an empty voxel count only
 * the neighbours of their own class, so like blends into like and a class
 * boundary stays where the voxels put it. */
typedef enum enhance_class {
    ECLASS_NONE, ECLASS_ROCK, ECLASS_SOIL, ECLASS_SAND, ECLASS_WOOD, ECLASS_LEAVES, ECLASS_BOG, ECLASS_COUNT
} enhance_class;

/* A material's enhancement: its class, the subdivision threshold pattern
 * (fragments at even / odd heights; seed 000 section 2's alternation, per
 * material as the paper proposes) and the resampling probe percentage. The
 * defaults for the enhance.mat.* cvars. */
typedef struct material_enhance {
    uint8_t cls;
    uint8_t even, odd; /* 1..4 */
    uint8_t percent;   /* 0..99 */
} material_enhance;

typedef struct material {
    const char *name;    /* snake_case, used by stats and commands */
    const char *display; /* the paper's name */
    uint8_t tile[FACE_COUNT];
    bool render_self;
    bool render_neighbors;
    bool solid; /* blocks the player */
    render_pass pass;
    material_enhance enhance;
    /* Mass of one voxel (water = 1) when it is part of a falling body
     * (physics/body.h); physics.density.NAME overrides it in the game. */
    float density;
} material;

#define MATERIAL_TILE_COUNT 27 /* tile numbers 0..24 of the paper, 25 lamp, 26 glowing ore */

extern const material material_table[MAT_COUNT];

static inline const material *material_get(uint8_t id)
{
    return &material_table[id < MAT_COUNT ? id : MAT_NULL];
}

/* The face of `self` towards `neighbor` is drawn iff self renders itself,
 * the neighbour lets its neighbours show, and they are not the same
 * see-through material (no inner walls inside a bog). */
static inline bool material_face_visible(uint8_t self, uint8_t neighbor)
{
    const material *a = material_get(self), *b = material_get(neighbor);
    return a->render_self && b->render_neighbors && self != neighbor;
}

/* Leaves: they hang on what they grow on and carry nothing (physics/detach.h). */
static inline bool material_is_foliage(uint8_t id) { return id == MAT_OAK_LEAVES || id == MAT_FIR_LEAVES; }

/* Id by snake_case name, or -1. */
int material_find(const char *name);

static const int face_normal[FACE_COUNT][3] = {
    { 0, 0, 1 }, { 0, 0, -1 }, { 0, 1, 0 }, { 0, -1, 0 }, { -1, 0, 0 }, { 1, 0, 0 },
};

#endif

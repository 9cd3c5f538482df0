/* atlas: the block texture atlas of seed 001 (assets/atlas.png, made by
 * tools/atlasgen). One PNG holds 16x16 tiles, 8 per row, tile n at column n%8,
 * row n/8. We split it into one layer per tile so the GPU samples a
 * GL_TEXTURE_2D_ARRAY: no bleeding between neighbours at any mip level, and
 * greedy-merged faces can repeat their tile across a whole quad. */
#ifndef STRATA_ATLAS_H
#define STRATA_ATLAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ATLAS_TILE 16                           /* tile edge in pixels */
#define ATLAS_COLUMNS 8                         /* tiles per atlas row */
#define ATLAS_WIDTH (ATLAS_TILE * ATLAS_COLUMNS) /* every atlas is this wide */
#define ATLAS_ROWS 4                            /* rows of the standard atlas */
#define ATLAS_HEIGHT (ATLAS_TILE * ATLAS_ROWS)
#define ATLAS_LAYER_BYTES (ATLAS_TILE * ATLAS_TILE * 4)
#define ATLAS_MIP_LEVELS 5                      /* 16, 8, 4, 2, 1 */
/* Cut-out tiles must be drawn with `discard` below this alpha (0..1): the
 * mip chain is built so that each level keeps the base level's coverage
 * under exactly this test. */
#define ATLAS_ALPHA_CUTOFF 0.5f

typedef struct atlas_image {
    int width, height; /* of the source PNG */
    int layers;        /* tiles in it: (width / 16) * (height / 16) */
    uint8_t *pixels;   /* layers * ATLAS_LAYER_BYTES, RGBA; layer n = tile n, rows top first */
} atlas_image;

/* Loads an atlas PNG (any channel count, expanded to RGBA). It must be
 * ATLAS_WIDTH wide and a whole number of tile rows high, with at least one
 * tile per texture number of the material table. On failure returns false,
 * leaves *out zeroed and writes a message naming the path into err. */
bool atlas_load(const char *path, atlas_image *out, char *err, size_t errlen);
void atlas_free(atlas_image *img);

/* The RGBA pixels of one layer (ATLAS_TILE rows of ATLAS_TILE pixels), or
 * NULL when layer is out of range. */
const uint8_t *atlas_layer(const atlas_image *img, int layer);

/* Where tile n sits in the atlas image, in pixels (top-left corner). Tiles
 * outside 0..31 map to tile 0, the magenta "null" checker, so a bad tile
 * number is visible instead of sampling a neighbour. */
void atlas_tile_origin(int tile, int *px, int *py);
/* The same as u0, v0, u1, v1 in 0..1 of the standard 128x64 atlas, v
 * growing downwards from the image's first row (stb and glTexImage agree on
 * that row being v = 0). For code that samples the flat 2D atlas. */
void atlas_tile_uv(int tile, float uv[4]);

/* A layer is cut-out (leaves) when its alpha is only 0 or 255 with some of
 * each: such layers are alpha-tested and get coverage-preserving mips. */
bool atlas_layer_is_cutout(const atlas_image *img, int layer);

/* The whole mip chain of the layered texture, built on the CPU so that it is
 * the same on every driver and testable: level k has layers tiles of
 * (16 >> k)^2 RGBA pixels. Colour is averaged weighted by alpha (transparent
 * texels do not darken edges); in cut-out layers the texels with the most
 * alpha are pushed over ATLAS_ALPHA_CUTOFF (the rest under it) so the share
 * that passes stays that of level 0: distant leaves neither thin out and
 * vanish nor turn into a solid wall. */
typedef struct atlas_mips {
    int layers;
    uint8_t *level[ATLAS_MIP_LEVELS];
} atlas_mips;

bool atlas_mips_build(const atlas_image *img, atlas_mips *out);
void atlas_mips_free(atlas_mips *m);
/* Fraction (0..1) of a layer's texels at mip level k that pass the cut-out test. */
float atlas_mips_coverage(const atlas_mips *m, int level, int layer);

/* --- GL part (needs a current GL 4.5 context) ---------------------------- */

/* Uploads img as a GL_TEXTURE_2D_ARRAY, RGBA8, one layer per tile, with the
 * CPU mip chain above. Filtering: NEAREST magnification (crisp pixel art up
 * close), LINEAR_MIPMAP_LINEAR minification (no shimmer or mip seams far
 * away; NEAREST_MIPMAP_NEAREST on Mesa's software rasterizers, where it is
 * paid per pixel on the CPU), REPEAT on S and T, and up to 8x anisotropy where the driver has it
 * (grazing floors stay sharp). Sample with vec3(u, v, tile). Returns the
 * texture name, or 0 when out of memory. */
unsigned atlas_texture_create(const atlas_image *img);
/* atlas_load + atlas_texture_create: the texture of the atlas PNG at path,
 * or 0 with err set (path NULL: "assets/atlas.png not found"). */
unsigned atlas_texture_load(const char *path, char *err, size_t errlen);
void atlas_texture_destroy(unsigned tex);
/* Sets anisotropic filtering (level <= 0: automatic choice for this GL);
 * returns the level applied. */
float atlas_texture_set_anisotropy(unsigned tex, float level);

#endif

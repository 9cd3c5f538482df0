#include "gfx/atlas.h"

#include "voxel/material.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb/stb_image.h>

/* ---- pure CPU part: loading, layout, mip chain ------------------------- */

__attribute__((format(printf, 3, 4))) static void atlas_error(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

bool atlas_load(const char *path, atlas_image *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (err && errlen) err[0] = '\0';
    /* fopen ourselves so a missing file reports the system's reason, not stb's */
    FILE *f = fopen(path, "rb");
    if (!f) {
        atlas_error(err, errlen, "atlas %s: cannot open: %s", path, strerror(errno));
        return false;
    }
    int w = 0, h = 0, channels = 0;
    uint8_t *src = stbi_load_from_file(f, &w, &h, &channels, 4);
    fclose(f);
    if (!src) {
        atlas_error(err, errlen, "atlas %s: not a readable image: %s", path, stbi_failure_reason());
        return false;
    }
    if (w != ATLAS_WIDTH || h <= 0 || h % ATLAS_TILE != 0) {
        atlas_error(err, errlen,
                    "atlas %s: image is %dx%d; expected %d pixels wide (%d columns of %dx%d tiles) "
                    "and a height that is a whole number of %d-pixel tile rows",
                    path, w, h, ATLAS_WIDTH, ATLAS_COLUMNS, ATLAS_TILE, ATLAS_TILE, ATLAS_TILE);
        stbi_image_free(src);
        return false;
    }
    int layers = (w / ATLAS_TILE) * (h / ATLAS_TILE);
    if (layers < MATERIAL_TILE_COUNT) {
        atlas_error(err, errlen, "atlas %s: holds %d tiles, but the material table uses %d", path, layers,
                    MATERIAL_TILE_COUNT);
        stbi_image_free(src);
        return false;
    }
    uint8_t *dst = malloc((size_t)layers * ATLAS_LAYER_BYTES);
    if (!dst) {
        atlas_error(err, errlen, "atlas %s: out of memory for %d tiles", path, layers);
        stbi_image_free(src);
        return false;
    }
    /* Gather each tile's rows so a layer is one contiguous block: that is
     * the layout glTexSubImage3D wants for a texture array. */
    for (int n = 0; n < layers; n++) {
        int ox = (n % ATLAS_COLUMNS) * ATLAS_TILE, oy = (n / ATLAS_COLUMNS) * ATLAS_TILE;
        for (int y = 0; y < ATLAS_TILE; y++)
            memcpy(dst + (size_t)n * ATLAS_LAYER_BYTES + (size_t)y * ATLAS_TILE * 4,
                   src + ((size_t)(oy + y) * (size_t)w + (size_t)ox) * 4, ATLAS_TILE * 4);
    }
    stbi_image_free(src);
    out->width = w;
    out->height = h;
    out->layers = layers;
    out->pixels = dst;
    return true;
}

void atlas_free(atlas_image *img)
{
    if (!img) return;
    free(img->pixels);
    memset(img, 0, sizeof *img);
}

const uint8_t *atlas_layer(const atlas_image *img, int layer)
{
    if (!img || !img->pixels || layer < 0 || layer >= img->layers) return NULL;
    return img->pixels + (size_t)layer * ATLAS_LAYER_BYTES;
}

void atlas_tile_origin(int tile, int *px, int *py)
{
    if (tile < 0 || tile >= ATLAS_COLUMNS * ATLAS_ROWS) tile = 0;
    *px = (tile % ATLAS_COLUMNS) * ATLAS_TILE;
    *py = (tile / ATLAS_COLUMNS) * ATLAS_TILE;
}

void atlas_tile_uv(int tile, float uv[4])
{
    int px, py;
    atlas_tile_origin(tile, &px, &py);
    uv[0] = (float)px / (float)ATLAS_WIDTH;
    uv[1] = (float)py / (float)ATLAS_HEIGHT;
    uv[2] = (float)(px + ATLAS_TILE) / (float)ATLAS_WIDTH;
    uv[3] = (float)(py + ATLAS_TILE) / (float)ATLAS_HEIGHT;
}

bool atlas_layer_is_cutout(const atlas_image *img, int layer)
{
    const uint8_t *p = atlas_layer(img, layer);
    if (!p) return false;
    bool clear = false, solid = false;
    for (int i = 0; i < ATLAS_TILE * ATLAS_TILE; i++) {
        uint8_t a = p[i * 4 + 3];
        if (a == 0) clear = true;
        else if (a == 255) solid = true;
        else return false;
    }
    return clear && solid;
}

/* GL turns a byte into a/255 and discards below the cutoff, so a texel
 * passes from this byte value up. */
static int atlas_cutoff_byte(void)
{
    int c = (int)(ATLAS_ALPHA_CUTOFF * 255.0f);
    return (float)c < ATLAS_ALPHA_CUTOFF * 255.0f ? c + 1 : c;
}

static int atlas_count_passing(const uint8_t *p, int texels)
{
    int cut = atlas_cutoff_byte(), n = 0;
    for (int i = 0; i < texels; i++)
        if (p[i * 4 + 3] >= cut) n++;
    return n;
}

/* One 2x2 box step. Colour is weighted by alpha so the (arbitrary) colour
 * of transparent texels never leaks into visible ones. */
static void atlas_downsample(const uint8_t *src, int size, uint8_t *dst)
{
    int half = size / 2;
    for (int y = 0; y < half; y++)
        for (int x = 0; x < half; x++) {
            const uint8_t *t[4] = {
                src + ((2 * y) * size + 2 * x) * 4, src + ((2 * y) * size + 2 * x + 1) * 4,
                src + ((2 * y + 1) * size + 2 * x) * 4, src + ((2 * y + 1) * size + 2 * x + 1) * 4,
            };
            unsigned asum = t[0][3] + t[1][3] + t[2][3] + t[3][3];
            uint8_t *d = dst + (y * half + x) * 4;
            for (int c = 0; c < 3; c++) {
                unsigned v;
                if (asum) {
                    unsigned s = t[0][c] * t[0][3] + t[1][c] * t[1][3] + t[2][c] * t[2][3] + t[3][c] * t[3][3];
                    v = (s + asum / 2) / asum;
                } else {
                    v = (t[0][c] + t[1][c] + t[2][c] + t[3][c] + 2u) / 4u;
                }
                d[c] = (uint8_t)v;
            }
            d[3] = (uint8_t)((asum + 2u) / 4u);
        }
}

/* Makes exactly `want` texels of a level pass the cut-out test, picking
 * those with the most alpha (alpha-to-coverage-preserving mipmaps). Plain
 * averaging would drop most texels below the cutoff after two levels and the
 * canopy would dissolve with distance; one uniform alpha scale cannot hit
 * the base coverage either, as a 2x2 average only takes five values. Alpha
 * order is kept, so filtering between texels still fades the right way. */
static void atlas_preserve_coverage(uint8_t *p, int texels, int want)
{
    enum { MAX_TEXELS = (ATLAS_TILE / 2) * (ATLAS_TILE / 2) };
    unsigned key[MAX_TEXELS];
    int cut = atlas_cutoff_byte();
    /* ties (many texels share an alpha) are broken by a fixed scatter of
     * the index, so the chosen texels spread over the tile, not in a row */
    for (int i = 0; i < texels; i++) key[i] = (unsigned)p[i * 4 + 3] * 256u + (unsigned)((i * 97 + 13) & 255);
    for (int i = 0; i < texels; i++) {
        int rank = 0; /* texels that beat this one: n <= 64, quadratic is fine */
        for (int j = 0; j < texels; j++)
            if (key[j] > key[i] || (key[j] == key[i] && j < i)) rank++;
        uint8_t *a = &p[i * 4 + 3];
        if (rank < want) {
            if (*a < cut) *a = (uint8_t)cut;
        } else if (*a >= cut) {
            *a = (uint8_t)(cut - 1);
        }
    }
}

bool atlas_mips_build(const atlas_image *img, atlas_mips *out)
{
    memset(out, 0, sizeof *out);
    if (!img || !img->pixels || img->layers <= 0) return false;
    out->layers = img->layers;
    for (int k = 0; k < ATLAS_MIP_LEVELS; k++) {
        int size = ATLAS_TILE >> k;
        out->level[k] = malloc((size_t)img->layers * (size_t)(size * size * 4));
        if (!out->level[k]) {
            atlas_mips_free(out);
            return false;
        }
    }
    memcpy(out->level[0], img->pixels, (size_t)img->layers * ATLAS_LAYER_BYTES);
    for (int n = 0; n < img->layers; n++) {
        bool cutout = atlas_layer_is_cutout(img, n);
        int base_pass = cutout ? atlas_count_passing(atlas_layer(img, n), ATLAS_TILE * ATLAS_TILE) : 0;
        for (int k = 1; k < ATLAS_MIP_LEVELS; k++) {
            int ps = ATLAS_TILE >> (k - 1), size = ATLAS_TILE >> k;
            const uint8_t *src = out->level[k - 1] + (size_t)n * (size_t)(ps * ps * 4);
            uint8_t *dst = out->level[k] + (size_t)n * (size_t)(size * size * 4);
            atlas_downsample(src, ps, dst);
            if (cutout) {
                int texels = size * size;
                /* round the wanted count to this level's texel grid */
                int want = (base_pass * texels + (ATLAS_TILE * ATLAS_TILE) / 2) / (ATLAS_TILE * ATLAS_TILE);
                atlas_preserve_coverage(dst, texels, want);
            }
        }
    }
    return true;
}

void atlas_mips_free(atlas_mips *m)
{
    if (!m) return;
    for (int k = 0; k < ATLAS_MIP_LEVELS; k++) free(m->level[k]);
    memset(m, 0, sizeof *m);
}

float atlas_mips_coverage(const atlas_mips *m, int level, int layer)
{
    if (!m || level < 0 || level >= ATLAS_MIP_LEVELS || layer < 0 || layer >= m->layers || !m->level[level])
        return 0.0f;
    int size = ATLAS_TILE >> level;
    const uint8_t *p = m->level[level] + (size_t)layer * (size_t)(size * size * 4);
    return (float)atlas_count_passing(p, size * size) / (float)(size * size);
}

/* ---- GL part ------------------------------------------------------------ */

#include <glad/gl.h>

/* Mesa's software rasterizers, where texture filtering is paid per pixel on the CPU. */
static bool atlas_software_gl(void)
{
    const char *r = (const char *)glGetString(GL_RENDERER);
    return r && (strstr(r, "llvmpipe") || strstr(r, "softpipe"));
}

unsigned atlas_texture_create(const atlas_image *img)
{
    atlas_mips mips;
    if (!atlas_mips_build(img, &mips)) return 0;
    GLuint tex = 0;
    /* DSA (GL 4.5) so creating the atlas disturbs no texture binding */
    glCreateTextures(GL_TEXTURE_2D_ARRAY, 1, &tex);
    glTextureStorage3D(tex, ATLAS_MIP_LEVELS, GL_RGBA8, ATLAS_TILE, ATLAS_TILE, img->layers);
    for (int k = 0; k < ATLAS_MIP_LEVELS; k++) {
        int size = ATLAS_TILE >> k;
        glTextureSubImage3D(tex, k, 0, 0, 0, size, size, img->layers, GL_RGBA, GL_UNSIGNED_BYTE, mips.level[k]);
    }
    atlas_mips_free(&mips);
    glTextureParameteri(tex, GL_TEXTURE_BASE_LEVEL, 0);
    glTextureParameteri(tex, GL_TEXTURE_MAX_LEVEL, ATLAS_MIP_LEVELS - 1);
    glTextureParameteri(tex, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    /* On Mesa's software rasterizer the texture fetch is a third of a
     * frame: one texel of the nearest mip level costs 15% less CPU than
     * trilinear (render.frame.deciduous) and the tiles are pixel art anyway
     * (magnified NEAREST). GPUs keep trilinear. */
    glTextureParameteri(tex, GL_TEXTURE_MIN_FILTER, atlas_software_gl() ? GL_NEAREST_MIPMAP_NEAREST : GL_LINEAR_MIPMAP_LINEAR);
    glTextureParameteri(tex, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTextureParameteri(tex, GL_TEXTURE_WRAP_T, GL_REPEAT);
    atlas_texture_set_anisotropy(tex, 0);
    return tex;
}

float atlas_texture_set_anisotropy(unsigned tex, float level)
{
    if (!(GLAD_GL_ARB_texture_filter_anisotropic || GLAD_GL_EXT_texture_filter_anisotropic)) return 1.0f;
    if (level <= 0) {
        /* auto: 8x on hardware; off on Mesa's software rasterizer, where
         * anisotropic sampling made a 1280x720 frame 13x slower (154 ms vs 11.7 ms) */
        level = atlas_software_gl() ? 1.0f : 8.0f;
    }
    GLfloat max = 1.0f;
    glGetFloatv(GL_MAX_TEXTURE_MAX_ANISOTROPY, &max);
    if (level > max) level = max;
    glTextureParameterf(tex, GL_TEXTURE_MAX_ANISOTROPY, level);
    return level;
}

unsigned atlas_texture_load(const char *path, char *err, size_t errlen)
{
    if (!path) {
        snprintf(err, errlen, "assets/atlas.png not found");
        return 0;
    }
    atlas_image img;
    if (!atlas_load(path, &img, err, errlen)) return 0;
    unsigned tex = atlas_texture_create(&img);
    atlas_free(&img);
    if (!tex) snprintf(err, errlen, "%s: out of memory for the texture", path);
    return tex;
}

void atlas_texture_destroy(unsigned tex)
{
    GLuint t = tex;
    if (t) glDeleteTextures(1, &t);
}

/* icongen: paints the desktop icon, a grass block seen from above at an
 * angle, from the game's own atlas (the grass tiles of the material table),
 * so the icon is made by the program like every other picture.
 * Usage: icongen ATLAS.png OUT.png [SIZE]. */
#include "gfx/atlas.h"
#include "voxel/material.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <stb/stb_image_write.h>

/* The tile's pixel at (u, v) in [0, 1), darkened by shade. */
static void sample(const atlas_image *img, int tile, float u, float v, float shade, unsigned char *out)
{
    const uint8_t *px = atlas_layer(img, tile);
    int x = (int)(u * ATLAS_TILE), y = (int)(v * ATLAS_TILE);
    if (x < 0) x = 0;
    if (y < 0) y = 0;
    if (x >= ATLAS_TILE) x = ATLAS_TILE - 1;
    if (y >= ATLAS_TILE) y = ATLAS_TILE - 1;
    const uint8_t *p = px + 4 * (y * ATLAS_TILE + x);
    for (int c = 0; c < 3; c++) out[c] = (unsigned char)(p[c] * shade);
    out[3] = 255;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: icongen ATLAS.png OUT.png [SIZE]\n");
        return 2;
    }
    int n = argc > 3 ? atoi(argv[3]) : 128;
    if (n < 16 || n > 1024) {
        fprintf(stderr, "icongen: SIZE must be 16 to 1024\n");
        return 2;
    }
    atlas_image img;
    char err[512];
    if (!atlas_load(argv[1], &img, err, sizeof err)) {
        fprintf(stderr, "icongen: %s\n", err);
        return 1;
    }
    const material *grass = &material_table[MAT_GRASS];
    unsigned char *out = calloc((size_t)n * (size_t)n, 4); /* transparent around the block */
    if (!out) return 1;
    /* An isometric cube: centre c, half-width h; the top is a rhombus, the
     * two visible sides parallelograms below it. Each output pixel is mapped
     * back to (u, v) on its face. */
    float h = (float)n * 0.46f, q = h * 0.5f, cx = (float)n * 0.5f, top = (float)n * 0.5f - h;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            float px = (float)x + 0.5f - cx, py = (float)y + 0.5f - top;
            unsigned char *o = out + 4 * ((size_t)y * (size_t)n + (size_t)x);
            /* top face: px = (a - b) * h, py = (a + b) * q, a, b in [0, 1] */
            float a = (px / h + py / q) * 0.5f, b = (py / q - px / h) * 0.5f;
            if (a >= 0 && a < 1 && b >= 0 && b < 1) {
                sample(&img, grass->tile[FACE_TOP], a, b, 1.0f, o);
                continue;
            }
            /* sides: below the top's lower edges, h tall */
            if (px < 0 && px >= -h) { /* left side: from the left corner to the bottom corner */
                float u = (px + h) / h, edge = q + u * q; /* the top's lower-left edge at this x */
                float v = (py - edge) / h;
                if (v >= 0 && v < 1) sample(&img, grass->tile[FACE_LEFT], u, v, 0.8f, o);
            } else if (px >= 0 && px < h) {
                float u = px / h, edge = 2 * q - u * q;
                float v = (py - edge) / h;
                if (v >= 0 && v < 1) sample(&img, grass->tile[FACE_RIGHT], u, v, 0.62f, o);
            }
        }
    int ok = stbi_write_png(argv[2], n, n, 4, out, n * 4);
    free(out);
    atlas_free(&img);
    if (!ok) {
        fprintf(stderr, "icongen: cannot write %s\n", argv[2]);
        return 1;
    }
    return 0;
}

#include "gfx/light_tex.h"

#include <glad/gl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool light_tex_create(light_tex *t, int sx, int sy, int sz, char *err, size_t errlen)
{
    *t = (light_tex){ 0 };
    GLint max3d = 0;
    glGetIntegerv(GL_MAX_3D_TEXTURE_SIZE, &max3d);
    if (sx > max3d || sy > max3d || sz > max3d) {
        snprintf(err, errlen, "a %dx%dx%d light volume exceeds GL_MAX_3D_TEXTURE_SIZE %d", sx, sy, sz, max3d);
        return false;
    }
    while (glGetError() != GL_NO_ERROR) {}
    glCreateTextures(GL_TEXTURE_3D, 1, &t->tex);
    glTextureStorage3D(t->tex, 1, GL_RG8, sx, sy, sz);
    if (glGetError() != GL_NO_ERROR) {
        snprintf(err, errlen, "no memory for a %dx%dx%d light volume (%.0f MiB)", sx, sy, sz,
                 (double)sx * sy * sz * 2 / 1048576.0);
        glDeleteTextures(1, &t->tex);
        t->tex = 0;
        return false;
    }
    glTextureParameteri(t->tex, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(t->tex, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTextureParameteri(t->tex, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTextureParameteri(t->tex, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTextureParameteri(t->tex, GL_TEXTURE_WRAP_R, GL_CLAMP_TO_EDGE);
    t->sx = sx, t->sy = sy, t->sz = sz;
    t->bits = malloc(sizeof *t->bits * LIGHT_FRESH_WORDS);
    if (!t->bits) {
        snprintf(err, errlen, "no memory for the light volume's column bits");
        light_tex_destroy(t);
        return false;
    }
    memset(t->bits, 0xff, sizeof *t->bits * LIGHT_FRESH_WORDS); /* every slot fresh */
    glCreateBuffers(1, &t->fresh);
    glNamedBufferStorage(t->fresh, sizeof *t->bits * LIGHT_FRESH_WORDS, t->bits, GL_DYNAMIC_STORAGE_BIT);
    return true;
}

void light_tex_destroy(light_tex *t)
{
    if (t->tex) glDeleteTextures(1, &t->tex);
    if (t->fresh) glDeleteBuffers(1, &t->fresh);
    free(t->bits);
    *t = (light_tex){ 0 };
}

void light_tex_sync_fresh(light_tex *t, const light *l)
{
    if (!t->fresh) return;
    uint32_t now[LIGHT_FRESH_WORDS];
    int n = light_fresh_bits(l, now, LIGHT_FRESH_WORDS);
    if (n < 0) return; /* (no window is that large: see LIGHT_FRESH_WORDS) */
    size_t bytes = sizeof *now * (size_t)((n + 31) / 32);
    if (!memcmp(now, t->bits, bytes)) return;
    memcpy(t->bits, now, bytes);
    glNamedBufferSubData(t->fresh, 0, (GLsizeiptr)bytes, t->bits);
}

/* Uploads the slot box [a, b) (texel coordinates, inside the texture):
 * read straight out of the whole volume, which is laid out as the texture. */
static void upload_slots(const light_tex *t, const light *l, const int a[3], const int b[3])
{
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, t->sx);
    glPixelStorei(GL_UNPACK_IMAGE_HEIGHT, t->sy);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, a[0]);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, a[1]);
    glPixelStorei(GL_UNPACK_SKIP_IMAGES, a[2]);
    glTextureSubImage3D(t->tex, 0, a[0], a[1], a[2], b[0] - a[0], b[1] - a[1], b[2] - a[2], GL_RG, GL_UNSIGNED_BYTE,
                        light_data(l));
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glPixelStorei(GL_UNPACK_IMAGE_HEIGHT, 0);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
    glPixelStorei(GL_UNPACK_SKIP_IMAGES, 0);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
}

/* The window range [a, b) of an axis of n texels whose first voxel is in
 * slot k, as at most two slot ranges (it wraps around the texture's edge
 * when a + k < n <= b + k). Returns how many. */
static int slot_pieces(int a, int b, int k, int n, int lo[2], int hi[2])
{
    int s = a + k >= n ? a + k - n : a + k, len = b - a;
    lo[0] = s, hi[0] = s + len < n ? s + len : n;
    if (s + len <= n) return 1;
    lo[1] = 0, hi[1] = s + len - n;
    return 2;
}

void light_tex_upload(light_tex *t, const light *l, const int lo[3], const int hi[3])
{
    if (!t->tex) return;
    int x0, z0, kx, kz;
    light_origin(l, &x0, &z0);
    light_slot(l, &kx, &kz);
    const int org[3] = { x0, 0, z0 }, size[3] = { t->sx, t->sy, t->sz };
    int a[3], b[3]; /* in the window */
    for (int k = 0; k < 3; k++) {
        int64_t a0 = lo ? (int64_t)lo[k] - org[k] : 0, b0 = hi ? (int64_t)hi[k] - org[k] : size[k];
        a[k] = a0 > 0 ? (int)a0 : 0;
        b[k] = b0 < size[k] ? (int)b0 : size[k];
        if (b[k] <= a[k]) return;
    }
    int xl[2], xh[2], zl[2], zh[2];
    int nx = slot_pieces(a[0], b[0], kx, t->sx, xl, xh), nz = slot_pieces(a[2], b[2], kz, t->sz, zl, zh);
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < nz; j++)
            upload_slots(t, l, (const int[3]){ xl[i], a[1], zl[j] }, (const int[3]){ xh[i], b[1], zh[j] });
}

void light_tex_fill(light_tex *t, unsigned char sun, unsigned char sky)
{
    if (!t->tex) return;
    const unsigned char rg[2] = { sun, sky };
    glClearTexImage(t->tex, 0, GL_RG, GL_UNSIGNED_BYTE, rg);
}

void light_shading_apply(unsigned program, const light_shading *ls, int unit)
{
    GLuint p = program;
    glUniform1i(glGetUniformLocation(p, "u_light_on"), ls->enabled && ls->texture);
    glUniform1i(glGetUniformLocation(p, "u_light"), unit);
    if (!ls->enabled || !ls->texture) return;
    glBindTextureUnit((GLuint)unit, ls->texture);
    glBindBufferBase(GL_UNIFORM_BUFFER, LIGHT_FRESH_BINDING, ls->fresh);
    glUniform3i(glGetUniformLocation(p, "u_light_size"), ls->size[0], ls->size[1], ls->size[2]);
    glUniform3i(glGetUniformLocation(p, "u_light_origin"), ls->origin[0], ls->origin[1], ls->origin[2]);
    glUniform3i(glGetUniformLocation(p, "u_light_slot"), ls->slot[0], ls->slot[1], ls->slot[2]);
    glUniform3fv(glGetUniformLocation(p, "u_sun_color"), 1, ls->sun_color);
    glUniform3fv(glGetUniformLocation(p, "u_sky_color"), 1, ls->sky_color);
    glUniform1f(glGetUniformLocation(p, "u_ambient"), ls->ambient);
    glUniform1i(glGetUniformLocation(p, "u_light_smooth"), ls->smooth);
}

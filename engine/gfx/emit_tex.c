#include "gfx/emit_tex.h"

#include <glad/gl.h>
#include <stdio.h>

bool emit_tex_create(emit_tex *t, int sx, int sy, int sz, char *err, size_t errlen)
{
    t->sx = sx, t->sy = sy, t->sz = sz;
    glCreateTextures(GL_TEXTURE_3D, 1, &t->tex);
    glTextureStorage3D(t->tex, 1, GL_R8, sx, sy, sz);
    /* read with texelFetch, one texel a fragment: nearest and clamped are
     * what that is (a linear filter's eight texels cost llvmpipe too much) */
    glTextureParameteri(t->tex, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(t->tex, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    const unsigned char zero = 0;
    glClearTexImage(t->tex, 0, GL_RED, GL_UNSIGNED_BYTE, &zero);
    if (glGetError() != GL_NO_ERROR) {
        snprintf(err, errlen, "no room for a %dx%dx%d emitter light texture", sx, sy, sz);
        emit_tex_destroy(t);
        return false;
    }
    return true;
}

void emit_tex_destroy(emit_tex *t)
{
    if (t->tex) glDeleteTextures(1, &t->tex);
    t->tex = 0;
}

static int mod(int a, int n)
{
    int r = a % n;
    return r < 0 ? r + n : r;
}

void emit_tex_upload(emit_tex *t, const emit *e, const int lo[3], const int hi[3])
{
    if (!t->tex) return;
    int sx, sy, sz, x0, z0;
    emit_size(e, &sx, &sy, &sz);
    emit_origin(e, &x0, &z0);
    if (sx != t->sx || sy != t->sy || sz != t->sz) return;
    int a[3] = { x0, 0, z0 }, b[3] = { x0 + sx, sy, z0 + sz };
    if (lo)
        for (int k = 0; k < 3; k++) a[k] = lo[k], b[k] = hi[k];
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, sx);
    glPixelStorei(GL_UNPACK_IMAGE_HEIGHT, sy);
    const unsigned char *data = emit_data(e);
    /* pieces that do not cross a multiple of the size in x or z */
    for (int z = a[2]; z < b[2];) {
        int tz = mod(z, sz), nz = sz - tz < b[2] - z ? sz - tz : b[2] - z;
        for (int x = a[0]; x < b[0];) {
            int tx = mod(x, sx), nx = sx - tx < b[0] - x ? sx - tx : b[0] - x;
            const unsigned char *p = data + (size_t)tx + (size_t)sx * ((size_t)a[1] + (size_t)sy * (size_t)tz);
            glTextureSubImage3D(t->tex, 0, tx, a[1], tz, nx, b[1] - a[1], nz, GL_RED, GL_UNSIGNED_BYTE, p);
            x += nx;
        }
        z += nz;
    }
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glPixelStorei(GL_UNPACK_IMAGE_HEIGHT, 0);
}

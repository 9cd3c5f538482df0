#include "gfx/text.h"

#include <glad/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb/stb_truetype.h>

#include "core/log.h"
#include "gfx/shader.h"
#include "core/utf8.h"

/* One glyph or rectangle: a screen rectangle, its atlas rectangle and a
 * colour. 20 bytes; the vertex shader expands it to a 4-vertex strip. */
typedef struct text_quad {
    int16_t x0, y0, x1, y1;
    uint16_t u0, v0, u1, v1; /* unorm16 over the atlas */
    uint8_t rgba[4];
} text_quad;

typedef struct text_glyph {
    int16_t x0, y0, x1, y1; /* box relative to the pen on the baseline */
    uint16_t u0, v0, u1, v1;
} text_glyph;

/* The codepoints baked: ASCII, Latin-1, dashes and quotes, arrows, box and
 * block shapes (for bars), and the replacement character. */
static const struct { unsigned first, count; } g_ranges[] = {
    { 0x20, 95 }, { 0xA0, 96 }, { 0x2010, 24 }, { 0x2190, 4 }, { 0x2500, 0x100 }, { 0xFFFD, 1 },
};
#define RANGE_COUNT (int)(sizeof g_ranges / sizeof g_ranges[0])

struct text_ctx {
    text_desc d;
    unsigned char *font_data;
    stbtt_fontinfo font;

    int px;                  /* baked pixel size */
    int advance, line_h, ascent;
    unsigned char *atlas;
    int aw, ah;
    uint16_t white_u, white_v;
    text_glyph *glyphs;      /* in range order */
    unsigned *glyph_cp;      /* codepoint of each glyph, sorted */
    int nglyphs;
    int16_t latin[256];      /* codepoint < 256 -> glyph index, or -1 */
    int fallback;            /* glyph for anything missing */
    bool atlas_dirty;

    text_quad *quads;
    int nquads, capquads;
    int fb_w, fb_h;

    GLuint prog, vao, vbo, tex;
    GLsizeiptr vbo_size;
    GLint u_screen;
};

/* ---- font ---------------------------------------------------------------- */

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *data = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0) n = ftell(f);
    if (n > 0 && n < (64l << 20) && fseek(f, 0, SEEK_SET) == 0) {
        data = malloc((size_t)n + 1);
        if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
            free(data);
            data = NULL;
        }
        if (data) data[n] = 0;
    }
    fclose(f);
    if (data && size) *size = (size_t)n;
    return data;
}

static bool load_font(text_ctx *t, char *err, size_t errlen)
{
    static const char *const system_paths[] = {
        "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", /* Debian, Ubuntu: fonts-dejavu-core */
        "/usr/share/fonts/dejavu-sans-mono-fonts/DejaVuSansMono.ttf", /* Fedora */
        "/usr/share/fonts/dejavu/DejaVuSansMono.ttf",
        "/usr/share/fonts/TTF/DejaVuSansMono.ttf", /* Arch */
        "/usr/local/share/fonts/DejaVuSansMono.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf",
        "/usr/share/fonts/truetype/noto/NotoSansMono-Regular.ttf",
    };
    char tried[2048];
    size_t n = 0;
    tried[0] = 0;
    int count = (int)(sizeof system_paths / sizeof system_paths[0]);
    for (int i = -1; i < count; i++) {
        const char *path = i < 0 ? t->d.font_path : system_paths[i];
        if (!path) continue;
        size_t size = 0;
        unsigned char *data = read_file(path, &size);
        int offset = data ? stbtt_GetFontOffsetForIndex(data, 0) : -1;
        if (data && offset >= 0 && stbtt_InitFont(&t->font, data, offset)) {
            t->font_data = data;
            return true;
        }
        free(data);
        if (n < sizeof tried) n += (size_t)snprintf(tried + n, sizeof tried - n, "%s%s", n ? ", " : "", path);
    }
    snprintf(err, errlen, "no usable monospace font (install fonts-dejavu-core); tried: %s", tried);
    return false;
}

static int glyph_lookup(const text_ctx *t, unsigned cp)
{
    if (cp < 256) {
        int g = t->latin[cp];
        return g >= 0 ? g : t->fallback;
    }
    int lo = 0, hi = t->nglyphs;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (t->glyph_cp[mid] == cp) return mid;
        if (t->glyph_cp[mid] < cp) lo = mid + 1;
        else hi = mid;
    }
    return t->fallback;
}

/* Bakes every range at px pixels, growing the atlas until all glyphs fit.
 * No oversampling: glyph boxes land on whole pixels, which keeps them sharp. */
static bool bake(text_ctx *t, int px)
{
    int total = 0;
    for (int r = 0; r < RANGE_COUNT; r++) total += (int)g_ranges[r].count;
    stbtt_packedchar *packed = malloc(sizeof *packed * (size_t)total);
    if (!packed) return false;
    int w = 256, h = 128;
    unsigned char *atlas = NULL;
    bool ok = false;
    while (!ok && w <= 4096) {
        free(atlas);
        atlas = calloc((size_t)w * (size_t)h, 1);
        if (!atlas) break;
        stbtt_pack_context pc;
        /* the last two rows stay outside the packer: a solid white texel for rectangles */
        if (stbtt_PackBegin(&pc, atlas, w, h - 2, w, 1, NULL)) {
            stbtt_pack_range ranges[RANGE_COUNT];
            int at = 0;
            for (int r = 0; r < RANGE_COUNT; r++) {
                ranges[r] = (stbtt_pack_range){ .font_size = (float)px,
                                                .first_unicode_codepoint_in_range = (int)g_ranges[r].first,
                                                .num_chars = (int)g_ranges[r].count,
                                                .chardata_for_range = packed + at };
                at += (int)g_ranges[r].count;
            }
            ok = stbtt_PackFontRanges(&pc, t->font_data, 0, ranges, RANGE_COUNT) != 0;
            stbtt_PackEnd(&pc);
        }
        if (!ok) {
            if (h < w) h *= 2;
            else w *= 2;
        }
    }
    if (!ok) {
        free(atlas);
        free(packed);
        return false;
    }
    memset(atlas + (size_t)w * (size_t)(h - 2), 255, (size_t)w * 2);

    float scale = stbtt_ScaleForPixelHeight(&t->font, (float)px);
    int asc, desc, gap, adv, lsb;
    stbtt_GetFontVMetrics(&t->font, &asc, &desc, &gap);
    stbtt_GetCodepointHMetrics(&t->font, 'M', &adv, &lsb);
    t->ascent = (int)ceilf((float)asc * scale);
    t->line_h = t->ascent + (int)ceilf((float)-desc * scale) + (int)roundf((float)gap * scale);
    t->advance = (int)roundf((float)adv * scale);
    if (t->advance < 1) t->advance = 1;

    text_glyph *glyphs = malloc(sizeof *glyphs * (size_t)total);
    unsigned *cps = malloc(sizeof *cps * (size_t)total);
    if (!glyphs || !cps) {
        free(glyphs);
        free(cps);
        free(atlas);
        free(packed);
        return false;
    }
    for (int i = 0; i < 256; i++) t->latin[i] = -1;
    int at = 0;
    for (int r = 0; r < RANGE_COUNT; r++) {
        for (unsigned k = 0; k < g_ranges[r].count; k++, at++) {
            const stbtt_packedchar *p = &packed[at];
            text_glyph *g = &glyphs[at];
            g->x0 = (int16_t)lroundf(p->xoff);
            g->y0 = (int16_t)lroundf(p->yoff);
            g->x1 = (int16_t)(g->x0 + (p->x1 - p->x0));
            g->y1 = (int16_t)(g->y0 + (p->y1 - p->y0));
            g->u0 = (uint16_t)((p->x0 * 65535u) / (unsigned)w);
            g->v0 = (uint16_t)((p->y0 * 65535u) / (unsigned)h);
            g->u1 = (uint16_t)((p->x1 * 65535u) / (unsigned)w);
            g->v1 = (uint16_t)((p->y1 * 65535u) / (unsigned)h);
            cps[at] = g_ranges[r].first + k;
            if (cps[at] < 256) t->latin[cps[at]] = (int16_t)at;
        }
    }
    free(packed);
    free(t->atlas);
    free(t->glyphs);
    free(t->glyph_cp);
    t->atlas = atlas;
    t->aw = w;
    t->ah = h;
    t->glyphs = glyphs;
    t->glyph_cp = cps;
    t->nglyphs = total;
    t->px = px;
    t->white_u = (uint16_t)((1u * 65535u + 32767u) / (unsigned)w);
    t->white_v = (uint16_t)(((unsigned)(h - 1) * 65535u) / (unsigned)h);
    t->fallback = -1;
    t->fallback = glyph_lookup(t, 0xFFFD);
    if (t->fallback < 0 || t->glyph_cp[t->fallback] != 0xFFFD) t->fallback = t->latin['?'];
    t->atlas_dirty = true;
    return true;
}

/* ---- GL ------------------------------------------------------------------ */

static bool gl_init(text_ctx *t, char *err, size_t errlen)
{
    t->prog = shader_load("text.vert", "text.frag", err, errlen);
    if (!t->prog) return false;
    t->u_screen = glGetUniformLocation(t->prog, "u_screen");

    glCreateBuffers(1, &t->vbo);
    glCreateVertexArrays(1, &t->vao);
    glVertexArrayVertexBuffer(t->vao, 0, t->vbo, 0, sizeof(text_quad));
    glVertexArrayBindingDivisor(t->vao, 0, 1); /* one quad per instance */
    glEnableVertexArrayAttrib(t->vao, 0);
    glVertexArrayAttribIFormat(t->vao, 0, 4, GL_SHORT, offsetof(text_quad, x0));
    glEnableVertexArrayAttrib(t->vao, 1);
    glVertexArrayAttribFormat(t->vao, 1, 4, GL_UNSIGNED_SHORT, GL_TRUE, offsetof(text_quad, u0));
    glEnableVertexArrayAttrib(t->vao, 2);
    glVertexArrayAttribFormat(t->vao, 2, 4, GL_UNSIGNED_BYTE, GL_TRUE, offsetof(text_quad, rgba));
    for (GLuint a = 0; a < 3; a++) glVertexArrayAttribBinding(t->vao, a, 0);

    glCreateTextures(GL_TEXTURE_2D, 1, &t->tex);
    glTextureParameteri(t->tex, GL_TEXTURE_MIN_FILTER, GL_NEAREST); /* pixel-exact: no blur */
    glTextureParameteri(t->tex, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTextureParameteri(t->tex, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTextureParameteri(t->tex, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    return true;
}

static void upload_atlas(text_ctx *t)
{
    /* a new size needs new storage: immutable textures cannot be resized */
    glDeleteTextures(1, &t->tex);
    glCreateTextures(GL_TEXTURE_2D, 1, &t->tex);
    glTextureParameteri(t->tex, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(t->tex, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTextureParameteri(t->tex, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTextureParameteri(t->tex, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTextureStorage2D(t->tex, 1, GL_R8, t->aw, t->ah);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTextureSubImage2D(t->tex, 0, 0, 0, t->aw, t->ah, GL_RED, GL_UNSIGNED_BYTE, t->atlas);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    t->atlas_dirty = false;
}

/* ---- lifetime ------------------------------------------------------------ */

static int pick_size(const text_ctx *t, int fb_h)
{
    if (t->d.pixel_size > 0) return t->d.pixel_size;
    /* about 48 rows of text on screen: 15 px at 720p, 22 at 1080p, 45 at 4K */
    int px = (int)lroundf((float)fb_h / 48.f);
    return px < 12 ? 12 : px > 64 ? 64 : px;
}

text_ctx *text_create(const text_desc *d, char *err, size_t errlen)
{
    char dummy[8];
    if (!err) { err = dummy; errlen = sizeof dummy; }
    text_ctx *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (d) t->d = *d;
    if (!load_font(t, err, errlen)) {
        free(t);
        return NULL;
    }
    if (!bake(t, pick_size(t, 720))) {
        snprintf(err, errlen, "text: cannot bake the font atlas");
        text_destroy(t);
        return NULL;
    }
    if (!t->d.no_gl && !gl_init(t, err, errlen)) {
        text_destroy(t);
        return NULL;
    }
    return t;
}

void text_destroy(text_ctx *t)
{
    if (!t) return;
    if (!t->d.no_gl) {
        if (t->prog) glDeleteProgram(t->prog);
        if (t->vao) glDeleteVertexArrays(1, &t->vao);
        if (t->vbo) glDeleteBuffers(1, &t->vbo);
        if (t->tex) glDeleteTextures(1, &t->tex);
    }
    free(t->font_data);
    free(t->atlas);
    free(t->glyphs);
    free(t->glyph_cp);
    free(t->quads);
    free(t);
}

int text_char_width(const text_ctx *t) { return t->advance; }
int text_line_height(const text_ctx *t) { return t->line_h; }
int text_pixel_size(const text_ctx *t) { return t->px; }
int text_quad_count(const text_ctx *t) { return t->nquads; }

void text_rollback(text_ctx *t, int mark)
{
    if (mark >= 0 && mark < t->nquads) t->nquads = mark;
}

bool text_quad_rect(const text_ctx *t, int i, int out[4])
{
    if (i < 0 || i >= t->nquads) return false;
    const text_quad *q = &t->quads[i];
    out[0] = q->x0, out[1] = q->y0, out[2] = q->x1, out[3] = q->y1;
    return true;
}

const unsigned char *text_atlas(const text_ctx *t, int *w, int *h)
{
    if (w) *w = t->aw;
    if (h) *h = t->ah;
    return t->atlas;
}

void text_begin(text_ctx *t, int w, int h)
{
    t->fb_w = w > 0 ? w : 1;
    t->fb_h = h > 0 ? h : 1;
    t->nquads = 0;
    int px = pick_size(t, t->fb_h);
    if (px != t->px && !bake(t, px)) log_warn("text: cannot re-bake the font at %d px; keeping %d px", px, t->px);
}

/* ---- batching ------------------------------------------------------------ */

static text_quad *reserve(text_ctx *t, int n)
{
    if (t->nquads + n > t->capquads) {
        int cap = t->capquads ? t->capquads : 1024;
        while (cap < t->nquads + n) cap *= 2;
        text_quad *q = realloc(t->quads, sizeof *q * (size_t)cap);
        if (!q) return NULL;
        t->quads = q;
        t->capquads = cap;
    }
    return t->quads + t->nquads;
}

static int16_t clamp16(long v) { return (int16_t)(v < -32768 ? -32768 : v > 32767 ? 32767 : v); }

float text_draw_n(text_ctx *t, float x, float y, const char *s, size_t len, uint32_t rgba)
{
    /* whole pixels: the atlas is baked for them */
    long pen = lroundf(x), base = lroundf(y) + t->ascent;
    text_quad *q = reserve(t, (int)(len < 1u << 20 ? len : 1u << 20));
    if (!q) return x;
    uint8_t col[4] = { (uint8_t)(rgba >> 24), (uint8_t)(rgba >> 16), (uint8_t)(rgba >> 8), (uint8_t)rgba };
    int n = 0;
    for (size_t i = 0; i < len && n < (1 << 20);) {
        unsigned cp = (unsigned char)s[i];
        if (cp < 0x80) i++;
        else i += utf8_decode(s + i, len - i, &cp);
        if (cp != ' ') {
            const text_glyph *g = &t->glyphs[glyph_lookup(t, cp)];
            if (g->x1 > g->x0) {
                text_quad *o = &q[n++];
                o->x0 = clamp16(pen + g->x0);
                o->y0 = clamp16(base + g->y0);
                o->x1 = clamp16(pen + g->x1);
                o->y1 = clamp16(base + g->y1);
                o->u0 = g->u0;
                o->v0 = g->v0;
                o->u1 = g->u1;
                o->v1 = g->v1;
                memcpy(o->rgba, col, 4);
            }
        }
        pen += t->advance;
    }
    t->nquads += n;
    return (float)pen;
}

float text_draw(text_ctx *t, float x, float y, const char *utf8, uint32_t rgba)
{
    return text_draw_n(t, x, y, utf8, strlen(utf8), rgba);
}

void text_rect(text_ctx *t, float x, float y, float w, float h, uint32_t rgba)
{
    if (!(w > 0) || !(h > 0)) return;
    text_quad *o = reserve(t, 1);
    if (!o) return;
    o->x0 = clamp16(lroundf(x));
    o->y0 = clamp16(lroundf(y));
    o->x1 = clamp16(lroundf(x + w));
    o->y1 = clamp16(lroundf(y + h));
    if (o->x1 == o->x0) o->x1++; /* a sub-pixel bar still shows */
    if (o->y1 == o->y0) o->y1++;
    o->u0 = o->u1 = t->white_u;
    o->v0 = o->v1 = t->white_v;
    o->rgba[0] = (uint8_t)(rgba >> 24);
    o->rgba[1] = (uint8_t)(rgba >> 16);
    o->rgba[2] = (uint8_t)(rgba >> 8);
    o->rgba[3] = (uint8_t)rgba;
    t->nquads++;
}

void text_end(text_ctx *t)
{
    if (t->d.no_gl || t->nquads == 0) return;
    if (t->atlas_dirty) upload_atlas(t);
    GLsizeiptr bytes = (GLsizeiptr)(sizeof(text_quad) * (size_t)t->nquads);
    if (bytes > t->vbo_size) {
        t->vbo_size = bytes * 2;
        glNamedBufferData(t->vbo, t->vbo_size, NULL, GL_STREAM_DRAW);
    } else {
        /* orphan: the driver hands back fresh storage instead of waiting on last frame's draw */
        glInvalidateBufferData(t->vbo);
    }
    glNamedBufferSubData(t->vbo, 0, bytes, t->quads);

    GLboolean depth = glIsEnabled(GL_DEPTH_TEST), cull = glIsEnabled(GL_CULL_FACE), blend = glIsEnabled(GL_BLEND);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(t->prog);
    glUniform2f(t->u_screen, (float)t->fb_w, (float)t->fb_h);
    glBindTextureUnit(0, t->tex);
    glBindVertexArray(t->vao);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, t->nquads);
    glBindVertexArray(0);
    if (depth) glEnable(GL_DEPTH_TEST);
    if (cull) glEnable(GL_CULL_FACE);
    if (!blend) glDisable(GL_BLEND);
}

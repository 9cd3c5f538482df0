/* text: screen-space text and filled rectangles in one batched draw call.
 * A monospace TTF (DejaVu Sans Mono) is baked with stb_truetype into a
 * single-channel atlas at a pixel size picked from the framebuffer height
 * (re-baked when that changes, so glyphs stay pixel-exact and crisp); each
 * glyph or rectangle is one instance of a 4-vertex strip in a streamed VBO. */
#ifndef STRATA_TEXT_H
#define STRATA_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Colours are 0xRRGGBBAA. */
#define TEXT_RGBA(r, g, b, a) (((uint32_t)(r) << 24) | ((uint32_t)(g) << 16) | ((uint32_t)(b) << 8) | (uint32_t)(a))

typedef struct text_ctx text_ctx;

typedef struct text_desc {
    const char *font_path;  /* tried first; then the usual system locations */
    bool no_gl;             /* CPU only: bake and batch, never touch GL (tests, benches) */
    int pixel_size;         /* 0 = from the framebuffer height at text_begin */
} text_desc;

/* Loads the font and (unless no_gl) shaders/text.vert+frag and buffers; needs a current
 * GL 4.5 context. NULL with the reason in err, e.g. every font path tried:
 * the game then runs without text. */
text_ctx *text_create(const text_desc *d, char *err, size_t errlen);
void text_destroy(text_ctx *t);

/* Starts a frame's batch for a framebuffer of w x h pixels (origin top-left). */
void text_begin(text_ctx *t, int w, int h);
/* Glyph cell size in pixels: every glyph advances char_width (monospace). */
int text_char_width(const text_ctx *t);
int text_line_height(const text_ctx *t);
int text_pixel_size(const text_ctx *t);

/* Draws UTF-8 with the top of the line at y; returns the x after the text.
 * Malformed bytes and glyphs the font lacks draw as a replacement mark. */
float text_draw(text_ctx *t, float x, float y, const char *utf8, uint32_t rgba);
float text_draw_n(text_ctx *t, float x, float y, const char *utf8, size_t len, uint32_t rgba);
void text_rect(text_ctx *t, float x, float y, float w, float h, uint32_t rgba);

/* Uploads the batch and draws it with alpha blending over what is there
 * (depth test and culling off, restored after). One draw call. */
void text_end(text_ctx *t);

/* For tests and benches: instances queued since text_begin, and the atlas. */
int text_quad_count(const text_ctx *t);
/* Drops the instances queued after text_quad_count() returned `mark`: a
 * layout tries a placement and takes it back when it does not fit. */
void text_rollback(text_ctx *t, int mark);
/* Screen rectangle x0 y0 x1 y1 of instance i (a glyph's ink box or a
 * rectangle), for layout tests; false when there is no such instance. */
bool text_quad_rect(const text_ctx *t, int i, int out[4]);
const unsigned char *text_atlas(const text_ctx *t, int *w, int *h);

#endif

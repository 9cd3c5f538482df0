#include "ui/hud.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/bind.h"
#include "ui/cmd.h"
#include "ui/cvar.h"

#define PANEL TEXT_RGBA(10, 12, 18, 180)
#define LABEL TEXT_RGBA(150, 160, 175, 255)
#define VALUE TEXT_RGBA(240, 240, 240, 255)

void hud_register_cvars(void)
{
    static const cvar_desc vars[] = {
        { .name = "hud.debug", .help = "show the debug overlay", .type = CVAR_BOOL, .flags = CVAR_ARCHIVE,
          .def = "0" },
        { .name = "hud.help", .help = "show the list of key bindings", .type = CVAR_BOOL, .def = "0" },
        { .name = "hud.toolbar", .help = "show the tool strip: colours 1-5, fill material, size and shape",
          .type = CVAR_BOOL, .flags = CVAR_ARCHIVE, .def = "1" },
    };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) cvar_register(&vars[i]);
}

static const char *compass(float yaw)
{
    static const char *const names[] = { "N", "NE", "E", "SE", "S", "SW", "W", "NW" };
    float y = fmodf(yaw, 360.f);
    if (y < 0) y += 360.f;
    if (!(y >= 0)) return "?"; /* NaN */
    return names[(int)((y + 22.5f) / 45.f) % 8];
}

static hud_rect draw_debug_at(text_ctx *t, const hud_info *in, float top);

hud_rect hud_draw_debug(text_ctx *t, const hud_info *in, int fb_w, int fb_h)
{
    (void)fb_w, (void)fb_h;
    return draw_debug_at(t, in, 0);
}

/* The debug panel with its top edge at `top` (below an open console). */
static hud_rect draw_debug_at(text_ctx *t, const hud_info *in, float top)
{
    int cw = text_char_width(t), lh = text_line_height(t);
    char lines[8][160];
    int n = 0;
    float last = in->frame_count > 0 && in->frame_ms
                     ? in->frame_ms[(in->frame_head + in->frame_count - 1) % HUD_FRAME_SAMPLES]
                     : 0.f;
    snprintf(lines[n++], sizeof lines[0], "%.0f fps  %.2f ms", (double)in->fps, (double)last);
    snprintf(lines[n++], sizeof lines[0], "pos %.1f %.1f %.1f", in->pos[0], in->pos[1],
             in->pos[2]);
    snprintf(lines[n++], sizeof lines[0], "facing %s  yaw %.1f  pitch %.1f", compass(in->yaw), (double)in->yaw,
             (double)in->pitch);
    snprintf(lines[n++], sizeof lines[0], "biome %s  seed %llu", in->biome ? in->biome : "?",
             (unsigned long long)in->seed);
    snprintf(lines[n++], sizeof lines[0], "chunks %d loaded, %d visible, %d occluded", in->chunks_loaded, in->chunks_visible,
             in->chunks_occluded);
    snprintf(lines[n++], sizeof lines[0], "triangles %ld", in->triangles);
    snprintf(lines[n++], sizeof lines[0], "render %s  queue %d", in->render_mode ? in->render_mode : "?",
             in->queue_len);
    snprintf(lines[n++], sizeof lines[0], "bodies %d  awake %d  voxels %ld", in->bodies, in->bodies_awake,
             in->body_voxels);
    int width = 0;
    for (int i = 0; i < n; i++) {
        int w = (int)strlen(lines[i]);
        if (w > width) width = w;
    }
    int graph_w = HUD_FRAME_SAMPLES, graph_h = 3 * lh;
    /* the graph's labels ("16.7", "67 ms") sit to its right */
    float pw = fmaxf((float)(width * cw), (float)(graph_w + 8 * cw)) + 2.f * (float)cw;
    float ph = (float)(n * lh + graph_h) + 1.5f * (float)lh;
    float x = (float)cw, y = top + (float)(lh / 2);
    text_rect(t, x - (float)cw / 2, y - (float)lh / 4, pw, ph, PANEL);
    for (int i = 0; i < n; i++) {
        /* label word dim, values bright: the eye finds numbers faster */
        const char *sp = strchr(lines[i], ' ');
        size_t k = sp ? (size_t)(sp - lines[i]) : 0;
        float xx = text_draw_n(t, x, y, lines[i], k, i == 0 ? VALUE : LABEL);
        text_draw(t, xx, y, lines[i] + k, VALUE);
        y += (float)lh;
    }
    y += (float)lh / 4;
    hud_draw_frame_graph(t, in, (hud_rect){ x, y, (float)graph_w, (float)graph_h });
    return (hud_rect){ (float)cw - (float)cw / 2, top + (float)(lh / 2) - (float)lh / 4, pw, ph };
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

float hud_graph_scale(const hud_info *in)
{
    float ms[HUD_FRAME_SAMPLES];
    int n = 0;
    for (int i = 0; i < in->frame_count && i < HUD_FRAME_SAMPLES && in->frame_ms; i++) {
        float v = in->frame_ms[(in->frame_head + i) % HUD_FRAME_SAMPLES];
        if (v > 0) ms[n++] = v; /* NaN and empty slots are no frames */
    }
    if (n == 0) return 33.3f;
    /* the 95th percentile, so one stall (a world being made) clips at the
     * top rather than flattening every other bar */
    qsort(ms, (size_t)n, sizeof ms[0], cmp_float);
    float most = ms[(n - 1) * 95 / 100];
    if (most <= 33.3f) return 33.3f;
    /* whole 60 Hz frames, with headroom: the tall bars stay under the top */
    float frames = ceilf(most * 1.15f / 16.667f);
    return fminf(frames * 16.667f, 2000.f);
}

float hud_draw_frame_graph(text_ctx *t, const hud_info *in, hud_rect g)
{
    int cw = text_char_width(t), lh = text_line_height(t);
    float scale = hud_graph_scale(in), base = g.y + g.h;
    text_rect(t, g.x, g.y, g.w, g.h, TEXT_RGBA(0, 0, 0, 120));
    int shown = in->frame_count < (int)g.w ? in->frame_count : (int)g.w;
    for (int i = in->frame_count - shown; i < in->frame_count && in->frame_ms; i++) {
        float ms = in->frame_ms[(in->frame_head + i) % HUD_FRAME_SAMPLES];
        if (!(ms > 0)) continue;
        float hgt = fminf(ms / scale, 1.f) * g.h;
        uint32_t col = ms <= 16.7f ? TEXT_RGBA(90, 220, 120, 230)
                       : ms <= 33.3f ? TEXT_RGBA(240, 200, 80, 230)
                                     : TEXT_RGBA(240, 90, 80, 230);
        text_rect(t, g.x + g.w - (float)(in->frame_count - i), base - hgt, 1, hgt, col);
    }
    /* the 60 and 30 Hz budgets as lines across, labelled beside the graph
     * (a label that would overlap the one above it is left out) */
    static const struct { float ms; const char *label; uint32_t col; } lines[] = {
        { 16.7f, "16.7", TEXT_RGBA(150, 255, 170, 200) },
        { 33.3f, "33.3", TEXT_RGBA(255, 225, 120, 200) },
    };
    char top[32];
    snprintf(top, sizeof top, "%.0f ms", (double)scale);
    text_draw(t, g.x + g.w + (float)cw / 2, g.y - (float)lh / 4, top, LABEL);
    float last = g.y + (float)lh * 0.75f;
    for (int k = 1; k >= 0; k--) {
        float y = base - lines[k].ms / scale * g.h;
        text_rect(t, g.x, roundf(y), g.w, 1, lines[k].col);
        float ty = y - (float)lh / 2;
        if (ty < last || y < g.y + 2) continue;
        text_draw(t, g.x + g.w + (float)cw / 2, ty, lines[k].label, lines[k].col);
        last = ty + (float)lh;
    }
    return scale;
}

/* Appends at most `cols` characters of src to a line, ending in "..." when
 * cut, so text stays inside its panel. */
static void put_clipped(char *out, size_t len, const char *src, int cols)
{
    size_t n = strlen(src);
    if (cols < 0) cols = 0;
    if ((int)n <= cols) snprintf(out, len, "%s", src);
    else if (cols > 3) snprintf(out, len, "%.*s...", cols - 3, src);
    else snprintf(out, len, "%.*s", cols, src);
}

/* What a binding does: its first command's help ('+' held actions by their
 * own entry), or the help of the cvar it sets ("tool.color 3"). */
static const char *binding_help(const char *cmd)
{
    char first[64];
    size_t n = strcspn(cmd, " ;");
    if (n >= sizeof first) n = sizeof first - 1;
    memcpy(first, cmd, n);
    first[n] = 0;
    const cmd_desc *d = cmd_find(first);
    const cvar *v = d ? NULL : cvar_find(first);
    return d && d->help ? d->help : v ? v->d.help : "";
}

/* One entry of the help overlay, in three aligned columns: key, command,
 * help. The help column is left out when fewer than 12 characters remain
 * for it (a narrow window), rather than showing a ragged stub. */
#define HELP_KEY_COLS 10
static void help_line(text_ctx *t, float x, float y, const char *key, const char *cmd, const char *help, int cmd_cols,
                      int cols)
{
    int cw = text_char_width(t);
    char k[64], c[256], h[512];
    put_clipped(k, sizeof k, key, HELP_KEY_COLS);
    text_draw(t, x, y, k, TEXT_RGBA(130, 200, 255, 255));
    int rest = cols - HELP_KEY_COLS - 1;
    float cx = x + (float)((HELP_KEY_COLS + 1) * cw);
    if (!cmd) { /* a fixed key: its description takes the rest */
        put_clipped(h, sizeof h, help, rest);
        text_draw(t, cx, y, h, VALUE);
        return;
    }
    bool with_help = rest - cmd_cols - 1 >= 12;
    put_clipped(c, sizeof c, cmd, with_help ? cmd_cols : rest);
    text_draw(t, cx, y, c, VALUE);
    if (!with_help) return;
    put_clipped(h, sizeof h, help, rest - cmd_cols - 1);
    text_draw(t, cx + (float)((cmd_cols + 1) * cw), y, h, LABEL);
}

hud_rect hud_draw_help_in(text_ctx *t, const hud_key_help *fixed, int nfixed, hud_rect area)
{
    const hud_rect none = { area.x, area.y, 0, 0 };
    int cw = text_char_width(t), lh = text_line_height(t);
    int count = nfixed, cmd_cols = 0;
    for (int k = bind_next(-1); k >= 0; k = bind_next(k)) {
        int n = (int)strlen(bind_get(k));
        if (n > cmd_cols) cmd_cols = n;
        count++;
    }
    if (cmd_cols > 20) cmd_cols = 20;
    /* as many columns as it takes to fit the height, as wide as the area allows */
    int max_rows = (int)(area.h / (float)lh) - 4; /* title, hint, gap, padding */
    if (max_rows < 4 || count == 0) return none;
    int ncols = (count + max_rows - 1) / max_rows;
    int area_cols = (int)(area.w / (float)cw) - 1; /* half a cell of padding each side */
    int cols = area_cols / ncols - 2;                /* characters per column, 2 between columns */
    if (cols > 110) cols = 110;
    if (cols < 24) return none;
    int rows = (count + ncols - 1) / ncols;
    float colw = (float)((cols + 2) * cw);
    float pw = colw * (float)ncols - (float)cw, ph = (float)((rows + 3) * lh) + (float)lh;
    float x0 = area.x + floorf((area.w - pw) / 2), y = area.y + floorf((area.h - ph) / 2);
    hud_rect panel = { x0, y, pw, ph };
    text_rect(t, x0, y, pw, ph, TEXT_RGBA(10, 12, 18, 220));
    x0 += (float)cw / 2;
    y += (float)lh / 2;
    int inner = (int)((pw - (float)cw) / (float)cw);
    char line[256];
    put_clipped(line, sizeof line, "Key bindings", inner);
    text_draw(t, x0, y, line, VALUE);
    y += (float)lh;
    put_clipped(line, sizeof line, "change with: bind KEY \"commands\"   (unbind KEY, bindlist)", inner);
    text_draw(t, x0, y, line, LABEL);
    y += 2.f * (float)lh;
    int i = 0;
    for (; i < nfixed; i++)
        help_line(t, x0 + colw * (float)(i / rows), y + (float)(i % rows * lh), fixed[i].key, NULL, fixed[i].what,
                  cmd_cols, cols);
    for (int k = bind_next(-1); k >= 0; k = bind_next(k), i++)
        help_line(t, x0 + colw * (float)(i / rows), y + (float)(i % rows * lh), bind_key_name(k), bind_get(k),
                  binding_help(bind_get(k)), cmd_cols, cols);
    return panel;
}

void hud_draw_help(text_ctx *t, const hud_key_help *fixed, int nfixed, int fb_w, int fb_h)
{
    hud_draw_help_in(t, fixed, nfixed, (hud_rect){ 0, 0, (float)fb_w, (float)fb_h });
}

/* ---- the tool strip ------------------------------------------------------ */

/* Cell side: two lines of text, so the strip grows with the window's font;
 * the material's icon is a whole multiple of its tile. */
static float toolbar_cell(const text_ctx *t) { return roundf(2.2f * (float)text_line_height(t)); }

hud_rect hud_toolbar_cell(const text_ctx *t, int n, int fb_w, int fb_h)
{
    float s = toolbar_cell(t), gap = floorf(s / 6), lh = (float)text_line_height(t);
    /* five swatches, a wider gap, the material */
    float w = 6 * s + 5 * gap + 2 * gap;
    float x0 = floorf(((float)fb_w - w) / 2), y = (float)fb_h - s - lh - 2 * gap - floorf(lh / 2);
    if (n >= 1 && n <= HUD_TOOL_COLORS) return (hud_rect){ x0 + (float)(n - 1) * (s + gap), y, s, s };
    return (hud_rect){ x0 + 5 * (s + gap) + 2 * gap, y, s, s };
}

static void frame(text_ctx *t, hud_rect r, float width, uint32_t col)
{
    text_rect(t, r.x - width, r.y - width, r.w + 2 * width, width, col);
    text_rect(t, r.x - width, r.y + r.h, r.w + 2 * width, width, col);
    text_rect(t, r.x - width, r.y, width, r.h, col);
    text_rect(t, r.x + r.w, r.y, width, r.h, col);
}

hud_rect hud_draw_toolbar(text_ctx *t, const hud_toolbar *bar, int fb_w, int fb_h)
{
    int cw = text_char_width(t), lh = text_line_height(t);
    hud_rect first = hud_toolbar_cell(t, 1, fb_w, fb_h), icon = hud_toolbar_cell(t, 0, fb_w, fb_h);
    float s = first.w, gap = floorf(s / 6), mark = fmaxf(2.f, floorf(s / 12));
    hud_rect panel = { first.x - gap, first.y - gap, icon.x + icon.w - first.x + 2 * gap,
                       s + (float)lh + 2.5f * gap };
    text_rect(t, panel.x, panel.y, panel.w, panel.h, PANEL);
    for (int n = 1; n <= HUD_TOOL_COLORS; n++) {
        hud_rect r = hud_toolbar_cell(t, n, fb_w, fb_h);
        bool chosen = n == bar->color;
        if (chosen) r.y -= mark; /* raised, as a hotbar's slot in hand */
        const uint8_t *c = bar->palette[n];
        frame(t, r, chosen ? mark : 1.f, chosen ? TEXT_RGBA(255, 255, 255, 255) : TEXT_RGBA(0, 0, 0, 200));
        text_rect(t, r.x, r.y, r.w, r.h, TEXT_RGBA(c[0], c[1], c[2], 255));
        char num[4];
        snprintf(num, sizeof num, "%d", n);
        /* the key's number, shadowed so it reads on yellow and on blue */
        text_draw(t, r.x + 3 + 1, r.y + 2 + 1, num, TEXT_RGBA(0, 0, 0, 200));
        text_draw(t, r.x + 3, r.y + 2, num, TEXT_RGBA(255, 255, 255, 255));
    }
    frame(t, icon, 1.f, TEXT_RGBA(0, 0, 0, 200));
    if (!bar->tile || bar->tile_size <= 0) {
        text_rect(t, icon.x, icon.y, icon.w, icon.h, TEXT_RGBA(128, 128, 128, 255));
    } else { /* the tile's texels as rectangles: the text batch draws it, no second texture */
        text_rect(t, icon.x, icon.y, icon.w, icon.h, TEXT_RGBA(40, 44, 52, 255));
        int n = bar->tile_size;
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                const uint8_t *p = bar->tile + 4 * (y * n + x);
                if (p[3] == 0) continue; /* a cut-out's holes show the cell behind */
                /* whole pixels edge to edge, so the texels tile the cell */
                float x0 = floorf(icon.w * (float)x / (float)n), x1 = floorf(icon.w * (float)(x + 1) / (float)n);
                float y0 = floorf(icon.h * (float)y / (float)n), y1 = floorf(icon.h * (float)(y + 1) / (float)n);
                text_rect(t, icon.x + x0, icon.y + y0, x1 - x0, y1 - y0, TEXT_RGBA(p[0], p[1], p[2], 255));
            }
    }
    /* under the cells: size and shape on the left, the material on the right */
    char left[96], line[96];
    int cols = (int)(panel.w / (float)cw) - 1;
    snprintf(left, sizeof left, "size %d  %s", bar->size, bar->shape ? bar->shape : "");
    const char *mat = bar->material ? bar->material : "";
    int right_cols = (int)strlen(mat);
    float ty = first.y + s + gap * 0.75f;
    if (right_cols + 2 <= cols) {
        text_draw(t, panel.x + panel.w - (float)(cw * right_cols) - gap, ty, mat, VALUE);
        cols -= right_cols + 2;
    }
    put_clipped(line, sizeof line, left, cols);
    text_draw(t, panel.x + gap, ty, line, LABEL);
    return panel;
}

hud_rect hud_draw_progress(text_ctx *t, float fraction, const char *label, int fb_w, int fb_h)
{
    if (!(fraction >= 0)) fraction = 0;
    if (fraction > 1) fraction = 1;
    int cw = text_char_width(t), lh = text_line_height(t);
    float w = fminf((float)fb_w * 0.5f, (float)(60 * cw)), h = (float)lh * 0.6f;
    float x = ((float)fb_w - w) / 2, y = (float)fb_h - 3.f * (float)lh;
    char text[160];
    snprintf(text, sizeof text, "%s %3.0f%%", label ? label : "", (double)(fraction * 100.f));
    text_rect(t, x - 4, y - (float)lh - 6, w + 8, h + (float)lh + 10, TEXT_RGBA(10, 12, 18, 180));
    text_draw(t, x, y - (float)lh - 2, text, VALUE);
    text_rect(t, x, y, w, h, TEXT_RGBA(50, 55, 65, 255));
    text_rect(t, x, y, w * fraction, h, TEXT_RGBA(90, 150, 220, 255));
    return (hud_rect){ x - 4, y - (float)lh - 6, w + 8, h + (float)lh + 10 };
}

hud_layout hud_draw_all(text_ctx *t, const hud_info *debug, const hud_key_help *fixed, int nfixed, bool help,
                        float progress, const char *progress_label, int message_rows, float top, int fb_w, int fb_h,
                        const hud_toolbar *bar)
{
    hud_layout L = { 0 };
    if (!(top > 0)) top = 0;
    int cw = text_char_width(t), lh = text_line_height(t);
    float gap = (float)lh / 4, bottom = (float)fb_h;
    if (bar) {
        L.toolbar = hud_draw_toolbar(t, bar, fb_w, fb_h);
        bottom = L.toolbar.y - gap;
    }
    if (progress >= 0) { /* above the strip: the progress bar's own bottom margin is 3 lines */
        int above = bar ? (int)(bottom + 2.f * (float)lh) : fb_h;
        L.progress = hud_draw_progress(t, progress, progress_label, fb_w, above);
        bottom = L.progress.y - gap;
    }
    int before_debug = text_quad_count(t);
    for (int attempt = 0; attempt < 2; attempt++) {
        /* attempt 1: the help panel did not fit beside the debug panel, which gives way */
        bool with_debug = debug && attempt == 0;
        L.debug = with_debug ? draw_debug_at(t, debug, top) : (hud_rect){ 0, top, 0, 0 };
        float right = L.debug.w > 0 ? L.debug.x + L.debug.w + gap : 0;
        float msg_h = (float)(message_rows * lh);
        L.messages = (hud_rect){ right + (float)cw / 2, top + gap, (float)fb_w - right - (float)cw, msg_h };
        if (L.messages.w < (float)(24 * cw)) /* too narrow beside it: under the debug panel */
            L.messages = (hud_rect){ (float)cw / 2, L.debug.y + L.debug.h + gap, (float)fb_w - (float)cw, msg_h };
        if (message_rows <= 0) L.messages.h = 0;
        if (!help) return L;
        float below = fmaxf(L.debug.y + L.debug.h, L.messages.y + L.messages.h) + gap;
        L.help = hud_draw_help_in(t, fixed, nfixed, (hud_rect){ 0, below, (float)fb_w, bottom - below });
        if (L.help.w > 0) return L;
        if (with_debug) { /* beside the debug panel, under the messages */
            float side_top = L.messages.x > right ? L.messages.y + L.messages.h + gap : below;
            L.help = hud_draw_help_in(t, fixed, nfixed, (hud_rect){ right, side_top, (float)fb_w - right, bottom - side_top });
            if (L.help.w > 0) return L;
        }
        text_rollback(t, before_debug);
        if (!debug) break;
    }
    L.help = (hud_rect){ 0 }; /* too small a window for the help at all */
    return L;
}

#include "ui/hud.h"

#include <math.h>
#include <stdio.h>
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
    float pw = (float)(width * cw > graph_w ? width * cw : graph_w) + 2.f * (float)cw;
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
    /* frame-time graph: one bar per frame, 33 ms full height, 16.7 ms marked */
    y += (float)lh / 4;
    float base = y + (float)graph_h;
    text_rect(t, x, y, (float)graph_w, (float)graph_h, TEXT_RGBA(0, 0, 0, 120));
    for (int i = 0; i < in->frame_count && in->frame_ms; i++) {
        float ms = in->frame_ms[(in->frame_head + i) % HUD_FRAME_SAMPLES];
        if (!(ms > 0)) continue;
        float hgt = fminf(ms / 33.3f, 1.f) * (float)graph_h;
        uint32_t col = ms <= 16.7f ? TEXT_RGBA(90, 220, 120, 230)
                       : ms <= 33.3f ? TEXT_RGBA(240, 200, 80, 230)
                                     : TEXT_RGBA(240, 90, 80, 230);
        text_rect(t, x + (float)(graph_w - in->frame_count + i), base - hgt, 1, hgt, col);
    }
    text_rect(t, x, base - (float)graph_h / 2, (float)graph_w, 1, TEXT_RGBA(255, 255, 255, 90));
    return (hud_rect){ (float)cw - (float)cw / 2, top + (float)(lh / 2) - (float)lh / 4, pw, ph };
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
                        float progress, const char *progress_label, int message_rows, float top, int fb_w, int fb_h)
{
    hud_layout L = { 0 };
    if (!(top > 0)) top = 0;
    int cw = text_char_width(t), lh = text_line_height(t);
    float gap = (float)lh / 4, bottom = (float)fb_h;
    if (progress >= 0) {
        L.progress = hud_draw_progress(t, progress, progress_label, fb_w, fb_h);
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

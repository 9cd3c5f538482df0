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

void hud_draw_debug(text_ctx *t, const hud_info *in, int fb_w, int fb_h)
{
    int cw = text_char_width(t), lh = text_line_height(t);
    char lines[8][160];
    int n = 0;
    float last = in->frame_count > 0 && in->frame_ms
                     ? in->frame_ms[(in->frame_head + in->frame_count - 1) % HUD_FRAME_SAMPLES]
                     : 0.f;
    snprintf(lines[n++], sizeof lines[0], "%.0f fps  %.2f ms", (double)in->fps, (double)last);
    snprintf(lines[n++], sizeof lines[0], "pos %.1f %.1f %.1f", (double)in->pos[0], (double)in->pos[1],
             (double)in->pos[2]);
    snprintf(lines[n++], sizeof lines[0], "facing %s  yaw %.1f  pitch %.1f", compass(in->yaw), (double)in->yaw,
             (double)in->pitch);
    snprintf(lines[n++], sizeof lines[0], "biome %s  seed %llu", in->biome ? in->biome : "?",
             (unsigned long long)in->seed);
    snprintf(lines[n++], sizeof lines[0], "chunks %d loaded, %d visible", in->chunks_loaded, in->chunks_visible);
    snprintf(lines[n++], sizeof lines[0], "triangles %ld", in->triangles);
    snprintf(lines[n++], sizeof lines[0], "render %s  queue %d", in->render_mode ? in->render_mode : "?",
             in->queue_len);
    int width = 0;
    for (int i = 0; i < n; i++) {
        int w = (int)strlen(lines[i]);
        if (w > width) width = w;
    }
    int graph_w = HUD_FRAME_SAMPLES, graph_h = 3 * lh;
    float pw = (float)(width * cw > graph_w ? width * cw : graph_w) + 2.f * (float)cw;
    float ph = (float)(n * lh + graph_h) + 1.5f * (float)lh;
    float x = (float)cw, y = (float)(lh / 2);
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
    (void)fb_w;
    (void)fb_h;
}

/* One line of the help overlay: a key name column, then what it does. */
static void help_line(text_ctx *t, float x, float y, const char *key, const char *what, int cols)
{
    char line[512];
    snprintf(line, sizeof line, "%-10.10s %s", key, what);
    if ((int)strlen(line) > cols) line[cols] = 0;
    float xx = text_draw_n(t, x, y, line, 10, TEXT_RGBA(130, 200, 255, 255));
    text_draw(t, xx, y, line + 10, VALUE);
}

/* What a binding does: its command line, then the help of its first
 * command ('+' held actions by their own entry), or of the cvar it sets
 * ("tool.color 3"). */
static void binding_text(int key, char *out, size_t len)
{
    const char *cmd = bind_get(key);
    char first[64];
    size_t n = strcspn(cmd, " ;");
    if (n >= sizeof first) n = sizeof first - 1;
    memcpy(first, cmd, n);
    first[n] = 0;
    const cmd_desc *d = cmd_find(first);
    const cvar *v = d ? NULL : cvar_find(first);
    const char *help = d && d->help ? d->help : v ? v->d.help : "";
    snprintf(out, len, "%-20.20s %s", cmd, help);
}

void hud_draw_help(text_ctx *t, const hud_key_help *fixed, int nfixed, int fb_w, int fb_h)
{
    int cw = text_char_width(t), lh = text_line_height(t);
    int count = nfixed;
    for (int k = bind_next(-1); k >= 0; k = bind_next(k)) count++;
    /* as many columns as it takes to fit the height, as wide as the screen allows */
    int max_rows = fb_h / lh - 5;
    if (max_rows < 4) return;
    int ncols = (count + max_rows - 1) / max_rows;
    int screen_cols = fb_w / cw - 4;
    if (ncols < 1) ncols = 1;
    int cols = screen_cols / ncols - 2; /* characters per column */
    if (cols > 110) cols = 110;
    if (cols < 24) return;
    int rows = (count + ncols - 1) / ncols;
    float colw = (float)((cols + 2) * cw);
    float pw = colw * (float)ncols + (float)cw, ph = (float)((rows + 3) * lh) + (float)lh;
    float x0 = ((float)fb_w - pw) / 2, y = ((float)fb_h - ph) / 2;
    if (x0 < 0) x0 = 0;
    if (y < 0) y = 0;
    text_rect(t, x0, y, pw, ph, TEXT_RGBA(10, 12, 18, 220));
    x0 += (float)cw;
    y += (float)lh / 2;
    text_draw(t, x0, y, "Key bindings", VALUE);
    y += (float)lh;
    text_draw(t, x0, y, "change with: bind KEY \"commands\"   (unbind KEY, bindlist)", LABEL);
    y += 2.f * (float)lh;
    int i = 0;
    for (; i < nfixed; i++)
        help_line(t, x0 + colw * (float)(i / rows), y + (float)(i % rows * lh), fixed[i].key, fixed[i].what, cols);
    for (int k = bind_next(-1); k >= 0; k = bind_next(k), i++) {
        char what[512];
        binding_text(k, what, sizeof what);
        help_line(t, x0 + colw * (float)(i / rows), y + (float)(i % rows * lh), bind_key_name(k), what, cols);
    }
}

void hud_draw_progress(text_ctx *t, float fraction, const char *label, int fb_w, int fb_h)
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
}

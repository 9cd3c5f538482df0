/* hud: the overlays drawn over the game with the text batch — the tool
 * strip a player reads at a glance (colours, fill material, size, shape),
 * the debug overlay (FPS, frame-time graph, position, chunk and triangle counts...),
 * the help overlay listing every key binding (read from the bind table, so
 * it is never stale) and the world-generation progress bar. The app fills a
 * plain struct each frame; nothing here reaches into game state. */
#ifndef STRATA_HUD_H
#define STRATA_HUD_H

#include <stdbool.h>
#include <stdint.h>

#include "gfx/text.h"

#define HUD_FRAME_SAMPLES 240

typedef struct hud_info {
    float fps;
    /* the last frame times in ms, a ring: frame_ms[(frame_head + i) % HUD_FRAME_SAMPLES]
     * for i in [0, frame_count) runs oldest to newest */
    const float *frame_ms;
    int frame_count, frame_head;
    double pos[3]; /* the player's, exact 10^7 voxels out */
    float yaw, pitch;        /* degrees; yaw 0 = -Z ("N"), 90 = +X ("E") */
    const char *biome;
    uint64_t seed;
    int chunks_loaded, chunks_visible, chunks_occluded;
    long triangles;
    const char *render_mode;
    int queue_len;           /* worker jobs waiting */
    int bodies, bodies_awake; /* voxel bodies, and those still moving */
    long body_voxels;
} hud_info;

/* A panel on screen, in pixels (origin top-left); w == 0: nothing drawn. */
typedef struct hud_rect {
    float x, y, w, h;
} hud_rect;

/* Debug overlay at the top-left; returns its panel, so the caller lays the
 * other overlays out around it. */
hud_rect hud_draw_debug(text_ctx *t, const hud_info *info, int fb_w, int fb_h);
/* The frame-time graph in g: one bar per frame, newest at the right, as
 * tall as the frame over the scale; lines at 16.7 and 33.3 ms, labelled to
 * the right. Returns the scale (ms at the top). */
float hud_draw_frame_graph(text_ctx *t, const hud_info *info, hud_rect g);
/* The graph's scale: 33.3 ms, or whole 60 Hz frames above the slowest
 * frames shown (their 95th percentile, 15 % headroom), so slow frames are
 * bars under the top, not one solid block. */
float hud_graph_scale(const hud_info *info);
/* A key the game reads directly rather than through a binding (movement). */
typedef struct hud_key_help {
    const char *key, *what;
} hud_key_help;

/* Panel centred in `area`: the caller's unbound keys first, then every
 * bound key, its commands and the command's (or cvar's) help in aligned
 * columns; wraps into columns, clips text to the panel. Draws nothing and
 * returns w == 0 when the area is too small for it. */
hud_rect hud_draw_help_in(text_ctx *t, const hud_key_help *fixed, int nfixed, hud_rect area);
/* The same, centred on the whole framebuffer. */
void hud_draw_help(text_ctx *t, const hud_key_help *fixed, int nfixed, int fb_w, int fb_h);
/* The tool strip at the bottom centre, like a hotbar: the five colours
 * (numbered 1-5, the chosen one framed in white and raised), the fill
 * material's texture and name, and the tool's size and shape. Cells scale
 * with the text (so with the window). */
#define HUD_TOOL_COLORS 5
typedef struct hud_toolbar {
    int color;                              /* 1..HUD_TOOL_COLORS */
    uint8_t palette[HUD_TOOL_COLORS + 1][3]; /* RGB of colour n at [n] */
    const uint8_t *tile;                    /* tile x tile RGBA, rows top first; NULL: a plain square */
    int tile_size;
    const char *material, *shape;           /* "stone", "ball" */
    int size;                               /* the tool's grid side in voxels */
} hud_toolbar;
hud_rect hud_draw_toolbar(text_ctx *t, const hud_toolbar *bar, int fb_w, int fb_h);
/* Where hud_draw_toolbar puts colour n's swatch (1-based) and the
 * material's icon (n = 0), for the layout and for tests. */
hud_rect hud_toolbar_cell(const text_ctx *t, int n, int fb_w, int fb_h);

/* Bar at the bottom centre; fraction in [0, 1], label e.g. "generating world". */
hud_rect hud_draw_progress(text_ctx *t, float fraction, const char *label, int fb_w, int fb_h);

/* Lays the overlays out so none covers another and draws them, below `top`
 * (the open console's bottom edge, 0 when closed): the debug panel
 * top-left (when debug), recent messages to its right (the caller draws
 * them into .messages), the help panel (when help) below both, else beside
 * the debug panel, else alone (the debug panel then gives way), the tool
 * strip (bar, when not NULL) at the bottom and the progress bar
 * (progress >= 0) above it. */
typedef struct hud_layout {
    hud_rect debug, messages, help, progress, toolbar;
} hud_layout;
hud_layout hud_draw_all(text_ctx *t, const hud_info *debug, const hud_key_help *fixed, int nfixed, bool help,
                        float progress, const char *progress_label, int message_rows, float top, int fb_w,
                        int fb_h, const hud_toolbar *bar);

/* Registers hud.debug, hud.help and hud.toolbar (bool) for the app to read
 * and for bindings to toggle ("bind F3 \"toggle hud.debug\""). */
void hud_register_cvars(void);

#endif

/* platform: the window or the headless context, and raw input.
 * With a window: GLFW, GL 4.5 core, vsync, raw mouse motion, resizable.
 * Headless: EGL surfaceless (no X at all) rendering into an FBO of the
 * requested size. The renderer draws to platform_framebuffer() either way. */
#ifndef STRATA_PLATFORM_H
#define STRATA_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>

typedef struct platform platform;

typedef struct platform_desc {
    int width, height;  /* 0 = 1280 x 720 */
    bool headless;
    const char *title;
    bool vsync;
} platform_desc;

/* Returns NULL and writes why into err (e.g. "no display: try --headless"). */
platform *platform_create(const platform_desc *d, char *err, size_t errlen);
void platform_destroy(platform *p);

bool platform_headless(const platform *p);
bool platform_should_close(const platform *p);
void platform_request_close(platform *p);
/* Pumps window events into the event queue and the key/mouse state. */
void platform_poll(platform *p);
/* Ends a frame: the window's swap, or headless a flush, with at most two
 * frames left queued in the driver. */
void platform_swap(platform *p);
/* Framebuffer size in pixels; the GL framebuffer to draw into (0 = window). */
void platform_size(const platform *p, int *w, int *h);
unsigned platform_framebuffer(const platform *p);
double platform_time(const platform *p);

/* Events, in order. Key codes are GLFW_KEY_* values; actions GLFW_PRESS,
 * GLFW_RELEASE, GLFW_REPEAT; mods GLFW_MOD_* bits. */
typedef enum platform_event_type {
    PEV_KEY,          /* key, scancode, action, mods */
    PEV_CHAR,         /* codepoint (text input) */
    PEV_MOUSE_BUTTON, /* key = GLFW_MOUSE_BUTTON_*, action, mods */
    PEV_SCROLL,       /* dx, dy */
    PEV_RESIZE,       /* new framebuffer size in key (width) and scancode (height) */
} platform_event_type;

typedef struct platform_event {
    platform_event_type type;
    int key, scancode, action, mods;
    unsigned codepoint;
    double dx, dy;
} platform_event;

/* Pops the next queued event; false when none are left. */
bool platform_next_event(platform *p, platform_event *ev);
bool platform_key_down(const platform *p, int key);
bool platform_mouse_down(const platform *p, int button);
/* Mouse motion since the last call (only while captured). */
void platform_mouse_delta(platform *p, double *dx, double *dy);
void platform_capture_mouse(platform *p, bool capture);
bool platform_mouse_captured(const platform *p);
void platform_set_title(platform *p, const char *title);
/* Resizes the window (no-op headless); the resize arrives as PEV_RESIZE.
 * A resize never reads as mouse motion (the pointer warps with it). */
void platform_set_window_size(platform *p, int width, int height);
/* The pointer in framebuffer pixels (top-left origin); false headless. */
bool platform_cursor_pos(const platform *p, double *x, double *y);
/* Fills the primary monitor at its mode, or goes back to the window's size
 * and place from before; the resize arrives as PEV_RESIZE. No-op headless. */
void platform_set_fullscreen(platform *p, bool on);
/* Clipboard text (UTF-8) or NULL. */
const char *platform_clipboard(platform *p);
/* Name of a GLFW key code ("W", "F1", "GRAVE", ...) and back; see bind. */

/* Directory holding the executable (with trailing '/'), for finding assets. */
const char *platform_exe_dir(void);
/* Finds `rel` (e.g. "shaders/chunk.vert") beside the executable, in its
 * parent (build tree run from source), or under the install prefix's
 * share/strata. Returns a static path or NULL after logging every path tried. */
const char *platform_find_asset(const char *rel);

#endif

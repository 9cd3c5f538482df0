#include "platform/platform.h"

#include <glad/gl.h>
#define EGL_EGLEXT_PROTOTYPES 0
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLFW/glfw3.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/log.h"

#define EVENT_QUEUE 256

/* Headless frames a driver may hold queued (platform_swap). */
#define FRAMES_AHEAD 2

struct platform {
    bool headless;
    int width, height;
    bool close_requested;
    /* window mode */
    GLFWwindow *win;
    double last_mx, last_my, acc_dx, acc_dy;
    bool have_last_mouse;
    bool captured;
    int windowed[4]; /* x y w h of the window before it went fullscreen */
    unsigned char keys[GLFW_KEY_LAST + 1];
    unsigned char buttons[GLFW_MOUSE_BUTTON_LAST + 1];
    platform_event queue[EVENT_QUEUE];
    int qhead, qcount;
    /* headless mode */
    EGLDisplay dpy;
    EGLContext ctx;
    GLuint fbo, color_rb, depth_rb;
    GLsync ahead[FRAMES_AHEAD]; /* the fences of the frames still queued, oldest at `next` */
    int next;
    struct timespec t0;
};

static void push_event(platform *p, const platform_event *ev)
{
    if (p->qcount == EVENT_QUEUE) return; /* a flood of events drops the newest, never blocks */
    p->queue[(p->qhead + p->qcount) % EVENT_QUEUE] = *ev;
    p->qcount++;
}

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    platform *p = glfwGetWindowUserPointer(w);
    if (key >= 0 && key <= GLFW_KEY_LAST) p->keys[key] = action != GLFW_RELEASE;
    push_event(p, &(platform_event){ .type = PEV_KEY, .key = key, .scancode = scancode, .action = action, .mods = mods });
}

static void on_char(GLFWwindow *w, unsigned cp)
{
    platform *p = glfwGetWindowUserPointer(w);
    push_event(p, &(platform_event){ .type = PEV_CHAR, .codepoint = cp });
}

static void on_button(GLFWwindow *w, int button, int action, int mods)
{
    platform *p = glfwGetWindowUserPointer(w);
    if (button >= 0 && button <= GLFW_MOUSE_BUTTON_LAST) p->buttons[button] = action != GLFW_RELEASE;
    push_event(p, &(platform_event){ .type = PEV_MOUSE_BUTTON, .key = button, .action = action, .mods = mods });
}

static void on_scroll(GLFWwindow *w, double dx, double dy)
{
    platform *p = glfwGetWindowUserPointer(w);
    push_event(p, &(platform_event){ .type = PEV_SCROLL, .dx = dx, .dy = dy });
}

static void on_cursor(GLFWwindow *w, double x, double y)
{
    platform *p = glfwGetWindowUserPointer(w);
    if (p->captured && p->have_last_mouse) {
        p->acc_dx += x - p->last_mx;
        p->acc_dy += y - p->last_my;
    }
    p->last_mx = x, p->last_my = y;
    p->have_last_mouse = true;
}

/* The captured pointer is kept at the window's centre; a resize moves the
 * centre, and the warp to it arrives as cursor motion. Motion is measured
 * again from the next position, so a resize never turns the camera. */
static void forget_pointer(platform *p)
{
    p->have_last_mouse = false;
    p->acc_dx = p->acc_dy = 0;
}

static void on_window_size(GLFWwindow *w, int width, int height)
{
    (void)width, (void)height;
    forget_pointer(glfwGetWindowUserPointer(w));
}

static void on_resize(GLFWwindow *w, int width, int height)
{
    platform *p = glfwGetWindowUserPointer(w);
    p->width = width, p->height = height;
    forget_pointer(p);
    push_event(p, &(platform_event){ .type = PEV_RESIZE, .key = width, .scancode = height });
}

static void on_glfw_error(int code, const char *desc) { (void)code; log_warn("glfw: %s", desc); }

static bool create_window(platform *p, const platform_desc *d, char *err, size_t errlen)
{
    const char *disp = getenv("DISPLAY"), *wl = getenv("WAYLAND_DISPLAY");
    if ((!disp || !*disp) && (!wl || !*wl)) {
        snprintf(err, errlen, "no display found (DISPLAY and WAYLAND_DISPLAY are unset): run with --headless "
                              "to render without a window, e.g. strata --headless --exec \"screenshot shot.png\"");
        return false;
    }
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) {
        snprintf(err, errlen, "cannot open the display '%s': run with --headless instead", disp ? disp : wl);
        return false;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
    p->win = glfwCreateWindow(p->width, p->height, d->title ? d->title : "strata", NULL, NULL);
    if (!p->win) {
        glfwTerminate();
        snprintf(err, errlen, "cannot create a GL 4.5 core window (driver too old?): try --headless");
        return false;
    }
    glfwMakeContextCurrent(p->win);
    if (!gladLoadGL((GLADloadfunc)glfwGetProcAddress)) {
        snprintf(err, errlen, "cannot load OpenGL 4.5 functions");
        return false;
    }
    glfwSwapInterval(d->vsync ? 1 : 0);
    glfwSetWindowUserPointer(p->win, p);
    glfwSetKeyCallback(p->win, on_key);
    glfwSetCharCallback(p->win, on_char);
    glfwSetMouseButtonCallback(p->win, on_button);
    glfwSetScrollCallback(p->win, on_scroll);
    glfwSetCursorPosCallback(p->win, on_cursor);
    glfwSetFramebufferSizeCallback(p->win, on_resize);
    glfwSetWindowSizeCallback(p->win, on_window_size);
    glfwGetFramebufferSize(p->win, &p->width, &p->height);
    return true;
}

/* Which EGL display headless rendering uses. Mesa's EGL (llvmpipe here,
 * and Mesa's GPU drivers) and NVIDIA's (580 on the lent H200) offer the
 * surfaceless platform; an EGL without it may offer its GPUs as devices
 * (EGL_EXT_platform_device) or at least a default display. They are
 * tried in that order. STRATA_EGL_PLATFORM=surfaceless|device|default
 * tries only that one, and =auto tries them in order; either way the
 * display found and the GL it gives are logged, so a benchmark says what
 * it ran on. */
typedef enum egl_choice { EGL_TRY_SURFACELESS, EGL_TRY_DEVICE, EGL_TRY_DEFAULT, EGL_TRY_COUNT } egl_choice;
static const char *const egl_choice_names[EGL_TRY_COUNT] = { "surfaceless", "device", "default" };

/* A GL 4.5 core context made current with no surface on dpy, which is
 * initialised here: true, both kept in p. Otherwise the display is let
 * go, and *err holds the error of the call that failed (read before
 * anything else could reset it) unless the display itself would not
 * initialise. */
static bool open_on(platform *p, EGLDisplay dpy, EGLint *err)
{
    EGLint major, minor;
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor)) return false;
    const EGLint attrs[] = { EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                             EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE };
    EGLContext ctx = EGL_NO_CONTEXT;
    if (eglBindAPI(EGL_OPENGL_API)) ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attrs);
    if (ctx != EGL_NO_CONTEXT && eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        p->dpy = dpy, p->ctx = ctx;
        return true;
    }
    *err = eglGetError();
    if (ctx != EGL_NO_CONTEXT) eglDestroyContext(dpy, ctx);
    eglTerminate(dpy);
    return false;
}

/* The first device a context opens on: glvnd lists every vendor's
 * devices, and one (a GPU without GL 4.5, say) may initialise and still
 * give no context where the next would. */
static bool open_device(platform *p, PFNEGLGETPLATFORMDISPLAYEXTPROC get_display, EGLint *err)
{
    PFNEGLQUERYDEVICESEXTPROC query = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    EGLDeviceEXT devs[16];
    EGLint n = 0;
    if (!query || !query(16, devs, &n)) return false;
    for (EGLint i = 0; i < n; i++)
        if (open_on(p, get_display(EGL_PLATFORM_DEVICE_EXT, devs[i], NULL), err)) return true;
    return false;
}

static bool open_platform(platform *p, egl_choice c, EGLint *err)
{
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    switch (c) {
    case EGL_TRY_SURFACELESS:
        return get_display && open_on(p, get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL), err);
    case EGL_TRY_DEVICE: return get_display && open_device(p, get_display, err);
    case EGL_TRY_DEFAULT: return open_on(p, eglGetDisplay(EGL_DEFAULT_DISPLAY), err);
    default: return false;
    }
}

static bool create_headless(platform *p, char *err, size_t errlen)
{
    const char *want = getenv("STRATA_EGL_PLATFORM");
    bool report = want && *want;
    int only = -1;
    if (report && strcmp(want, "auto") != 0) {
        for (int c = 0; c < EGL_TRY_COUNT; c++)
            if (strcmp(want, egl_choice_names[c]) == 0) only = c;
        if (only < 0) {
            snprintf(err, errlen, "STRATA_EGL_PLATFORM '%s' is not auto, surfaceless, device or default", want);
            return false;
        }
    }
    int used = -1;
    EGLint egl_err = EGL_SUCCESS;
    for (int c = only < 0 ? 0 : only; c < (only < 0 ? EGL_TRY_COUNT : only + 1) && used < 0; c++)
        if (open_platform(p, (egl_choice)c, &egl_err)) used = c;
    if (used < 0) {
        if (egl_err != EGL_SUCCESS)
            snprintf(err, errlen, "cannot create a headless GL 4.5 core context (EGL error 0x%x)", egl_err);
        else
            snprintf(err, errlen, "no EGL display for headless GL%s%s (install libegl-mesa0 libgl1-mesa-dri)",
                     only < 0 ? "" : " on platform ", only < 0 ? "" : egl_choice_names[only]);
        return false;
    }
    if (!gladLoadGL((GLADloadfunc)eglGetProcAddress)) {
        snprintf(err, errlen, "cannot load OpenGL 4.5 functions");
        return false;
    }
    if (report) {
        const char *r = (const char *)glGetString(GL_RENDERER), *v = (const char *)glGetString(GL_VERSION);
        log_info("headless GL on EGL %s: %s, %s", egl_choice_names[used], r ? r : "?", v ? v : "?");
    }
    /* The headless "screen" is an FBO of the requested size. */
    glCreateRenderbuffers(1, &p->color_rb);
    glNamedRenderbufferStorage(p->color_rb, GL_RGBA8, p->width, p->height);
    glCreateRenderbuffers(1, &p->depth_rb);
    glNamedRenderbufferStorage(p->depth_rb, GL_DEPTH_COMPONENT24, p->width, p->height);
    glCreateFramebuffers(1, &p->fbo);
    glNamedFramebufferRenderbuffer(p->fbo, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, p->color_rb);
    glNamedFramebufferRenderbuffer(p->fbo, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, p->depth_rb);
    if (glCheckNamedFramebufferStatus(p->fbo, GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        snprintf(err, errlen, "headless framebuffer %dx%d is incomplete", p->width, p->height);
        return false;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, p->fbo);
    return true;
}

platform *platform_create(const platform_desc *d, char *err, size_t errlen)
{
    platform *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->headless = d->headless;
    p->width = d->width > 0 ? d->width : 1280;
    p->height = d->height > 0 ? d->height : 720;
    clock_gettime(CLOCK_MONOTONIC, &p->t0);
    bool ok = d->headless ? create_headless(p, err, errlen) : create_window(p, d, err, errlen);
    if (!ok) {
        platform_destroy(p);
        return NULL;
    }
    return p;
}

void platform_destroy(platform *p)
{
    if (!p) return;
    if (p->win) {
        glfwDestroyWindow(p->win);
        glfwTerminate();
    }
    if (p->dpy != EGL_NO_DISPLAY && p->dpy) {
        if (p->ctx != EGL_NO_CONTEXT && p->ctx) {
            for (int i = 0; i < FRAMES_AHEAD; i++)
                if (p->ahead[i]) glDeleteSync(p->ahead[i]);
            if (p->fbo) glDeleteFramebuffers(1, &p->fbo);
            if (p->color_rb) glDeleteRenderbuffers(1, &p->color_rb);
            if (p->depth_rb) glDeleteRenderbuffers(1, &p->depth_rb);
            eglMakeCurrent(p->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
            eglDestroyContext(p->dpy, p->ctx);
        }
        eglTerminate(p->dpy);
    }
    free(p);
}

bool platform_headless(const platform *p) { return p->headless; }
bool platform_should_close(const platform *p) { return p->close_requested || (p->win && glfwWindowShouldClose(p->win)); }
void platform_request_close(platform *p) { p->close_requested = true; }

void platform_poll(platform *p)
{
    if (p->win) glfwPollEvents();
}

/* A window's swap waits when the driver falls frames behind; a headless
 * frame ends with a flush, which does not, so a driver that falls behind
 * (llvmpipe on a loaded machine) queued frame after frame, each holding
 * its commands and vertex memory: cli_robust's 600 frames grew by 90 MB
 * now and then. At most FRAMES_AHEAD frames stay queued: the oldest one's
 * fence is waited on first. */
void platform_swap(platform *p)
{
    if (p->win) {
        glfwSwapBuffers(p->win);
        return;
    }
    GLsync *oldest = &p->ahead[p->next];
    if (*oldest) {
        glClientWaitSync(*oldest, GL_SYNC_FLUSH_COMMANDS_BIT, GL_TIMEOUT_IGNORED);
        glDeleteSync(*oldest);
    }
    *oldest = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    p->next = (p->next + 1) % FRAMES_AHEAD;
    glFlush();
}

void platform_size(const platform *p, int *w, int *h)
{
    *w = p->width;
    *h = p->height;
}

unsigned platform_framebuffer(const platform *p) { return p->fbo; }

double platform_time(const platform *p)
{
    if (p->win) return glfwGetTime();
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - p->t0.tv_sec) + (double)(t.tv_nsec - p->t0.tv_nsec) * 1e-9;
}

bool platform_next_event(platform *p, platform_event *ev)
{
    if (p->qcount == 0) return false;
    *ev = p->queue[p->qhead];
    p->qhead = (p->qhead + 1) % EVENT_QUEUE;
    p->qcount--;
    return true;
}

bool platform_key_down(const platform *p, int key) { return key >= 0 && key <= GLFW_KEY_LAST && p->keys[key]; }
bool platform_mouse_down(const platform *p, int b) { return b >= 0 && b <= GLFW_MOUSE_BUTTON_LAST && p->buttons[b]; }

void platform_mouse_delta(platform *p, double *dx, double *dy)
{
    *dx = p->acc_dx;
    *dy = p->acc_dy;
    p->acc_dx = p->acc_dy = 0;
}

void platform_capture_mouse(platform *p, bool capture)
{
    p->captured = capture;
    p->have_last_mouse = false;
    p->acc_dx = p->acc_dy = 0;
    if (!p->win) return;
    glfwSetInputMode(p->win, GLFW_CURSOR, capture ? GLFW_CURSOR_DISABLED : GLFW_CURSOR_NORMAL);
    if (glfwRawMouseMotionSupported())
        glfwSetInputMode(p->win, GLFW_RAW_MOUSE_MOTION, capture ? GLFW_TRUE : GLFW_FALSE);
}

bool platform_mouse_captured(const platform *p) { return p->captured; }

void platform_set_window_size(platform *p, int width, int height)
{
    if (p->win) glfwSetWindowSize(p->win, width, height);
}

bool platform_cursor_pos(const platform *p, double *x, double *y)
{
    if (!p->win) return false;
    int ww, wh;
    glfwGetCursorPos(p->win, x, y);
    glfwGetWindowSize(p->win, &ww, &wh);
    /* window coordinates to framebuffer pixels (they differ on HiDPI screens) */
    if (ww > 0 && wh > 0) *x *= (double)p->width / ww, *y *= (double)p->height / wh;
    return true;
}

void platform_set_fullscreen(platform *p, bool on)
{
    if (!p->win || on == (glfwGetWindowMonitor(p->win) != NULL)) return;
    GLFWmonitor *mon = on ? glfwGetPrimaryMonitor() : NULL;
    const GLFWvidmode *mode = mon ? glfwGetVideoMode(mon) : NULL;
    if (on && !mode) {
        log_warn("fullscreen: no monitor to fill");
        return;
    }
    if (on) {
        glfwGetWindowPos(p->win, &p->windowed[0], &p->windowed[1]);
        glfwGetWindowSize(p->win, &p->windowed[2], &p->windowed[3]);
        glfwSetWindowMonitor(p->win, mon, 0, 0, mode->width, mode->height, mode->refreshRate);
    } else {
        int w = p->windowed[2] > 0 ? p->windowed[2] : 1280, h = p->windowed[3] > 0 ? p->windowed[3] : 720;
        glfwSetWindowMonitor(p->win, NULL, p->windowed[0], p->windowed[1], w, h, 0);
    }
}

void platform_set_title(platform *p, const char *title)
{
    if (p->win) glfwSetWindowTitle(p->win, title);
}

const char *platform_clipboard(platform *p) { return p->win ? glfwGetClipboardString(p->win) : NULL; }

const char *platform_exe_dir(void)
{
    static char dir[PATH_MAX];
    if (dir[0]) return dir;
    ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
    if (n <= 0) {
        strcpy(dir, "./");
        return dir;
    }
    dir[n] = 0;
    char *slash = strrchr(dir, '/');
    if (slash) slash[1] = 0;
    return dir;
}

const char *platform_find_asset(const char *rel)
{
    static char found[8][PATH_MAX];
    static int slot;
    const char *fmt[] = { "%s%s", "%s../%s", "%s../share/strata/%s" };
    char tried[3][PATH_MAX];
    for (int i = 0; i < 3; i++) {
        snprintf(tried[i], sizeof tried[i], fmt[i], platform_exe_dir(), rel);
        if (access(tried[i], R_OK) == 0) {
            slot = (slot + 1) & 7;
            snprintf(found[slot], sizeof found[slot], "%s", tried[i]);
            return found[slot];
        }
    }
    log_error("cannot find '%s'; searched: %s, %s, %s", rel, tried[0], tried[1], tried[2]);
    return NULL;
}

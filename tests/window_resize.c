/* Resizing the window never turns the camera: with the pointer captured,
 * shrinking the window to a sliver and back must not read as mouse motion
 * (the pointer warps to the new centre). Runs under Xvfb (tests/CMakeLists). */
#include <GLFW/glfw3.h>
#include <stdio.h>

#include "platform/platform.h"

static int pump(platform *p, int frames, double *sx, double *sy)
{
    int resizes = 0;
    for (int i = 0; i < frames; i++) {
        platform_poll(p);
        platform_event ev;
        while (platform_next_event(p, &ev)) resizes += ev.type == PEV_RESIZE;
        double dx, dy;
        platform_mouse_delta(p, &dx, &dy);
        *sx += dx, *sy += dy;
        platform_swap(p);
    }
    return resizes;
}

int main(void)
{
    char err[512];
    platform *p = platform_create(&(platform_desc){ .width = 640, .height = 400, .title = "resize" }, err, sizeof err);
    if (!p) {
        fprintf(stderr, "window_resize: %s\n", err);
        return 1;
    }
    platform_capture_mouse(p, true);
    double sx = 0, sy = 0;
    pump(p, 10, &sx, &sy);
    sx = sy = 0;
    int resizes = 0;
    const int sizes[][2] = { { 40, 16 }, { 640, 400 }, { 200, 600 }, { 1024, 120 }, { 640, 400 } };
    for (int k = 0; k < 5; k++) {
        platform_set_window_size(p, sizes[k][0], sizes[k][1]);
        resizes += pump(p, 10, &sx, &sy);
    }
    platform_destroy(p);
    printf("resizes=%d motion=%g %g\n", resizes, sx, sy);
    if (resizes == 0) {
        fprintf(stderr, "window_resize: the window never resized (no resize events)\n");
        return 1;
    }
    if (sx != 0 || sy != 0) {
        fprintf(stderr, "window_resize: resizing read as mouse motion %g %g: the camera would turn\n", sx, sy);
        return 1;
    }
    return 0;
}

#include "gfx/screenshot.h"

#include <errno.h>
#include <glad/gl.h>
#include <stb/stb_image_write.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint8_t *screenshot_read(unsigned fb, int w, int h)
{
    size_t row = (size_t)w * 4;
    uint8_t *px = malloc(row * (size_t)h), *tmp = malloc(row);
    if (!px || !tmp) {
        free(px);
        free(tmp);
        return NULL;
    }
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
    if (fb == 0) glReadBuffer(GL_BACK);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px);
    /* GL's origin is bottom-left; images are stored top row first */
    for (int y = 0; y < h / 2; y++) {
        memcpy(tmp, px + row * (size_t)y, row);
        memcpy(px + row * (size_t)y, px + row * (size_t)(h - 1 - y), row);
        memcpy(px + row * (size_t)(h - 1 - y), tmp, row);
    }
    free(tmp);
    for (size_t i = 3; i < row * (size_t)h; i += 4) px[i] = 255; /* a screenshot is opaque */
    return px;
}

bool screenshot_write(const char *path, unsigned fb, int w, int h, char *err, size_t errlen)
{
    uint8_t *px = screenshot_read(fb, w, h);
    if (!px) {
        snprintf(err, errlen, "out of memory reading a %dx%d frame", w, h);
        return false;
    }
    int ok = stbi_write_png(path, w, h, 4, px, w * 4);
    free(px);
    if (!ok) {
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        return false;
    }
    return true;
}

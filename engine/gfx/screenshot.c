#include "gfx/screenshot.h"

#include <errno.h>
#include <glad/gl.h>
#include <stb/stb_image_write.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

typedef struct png_sink {
    FILE *f;
    int error; /* errno of the first failed write, or 0 */
} png_sink;

static void sink_write(void *ctx, void *data, int size)
{
    png_sink *s = ctx;
    if (!s->error && fwrite(data, 1, (size_t)size, s->f) != (size_t)size) s->error = errno ? errno : EIO;
}

bool screenshot_write(const char *path, unsigned fb, int w, int h, char *err, size_t errlen)
{
    uint8_t *px = screenshot_read(fb, w, h);
    if (!px) {
        snprintf(err, errlen, "out of memory reading a %dx%d frame", w, h);
        return false;
    }
    /* stbi_write_png ignores write and close errors (a full disk, /dev/full
     * "succeeded"): write through our own sink and check every step */
    png_sink sink = { fopen(path, "wb"), 0 };
    if (!sink.f) {
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        free(px);
        return false;
    }
    int ok = stbi_write_png_to_func(sink_write, &sink, w, h, 4, px, w * 4);
    free(px);
    if (fflush(sink.f) != 0 && !sink.error) sink.error = errno ? errno : EIO;
    if (fclose(sink.f) != 0 && !sink.error) sink.error = errno ? errno : EIO;
    if (!ok || sink.error) {
        snprintf(err, errlen, "cannot write '%s': %s", path, sink.error ? strerror(sink.error) : "PNG encoding failed");
        struct stat st;
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) remove(path); /* no truncated image left (never a device) */
        return false;
    }
    return true;
}

/* screenshot: reads the current framebuffer back and writes a PNG. */
#ifndef STRATA_SCREENSHOT_H
#define STRATA_SCREENSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Reads fb (0 = window back buffer) of size w x h as RGBA, top row first.
 * Returns a malloc'd buffer or NULL. */
uint8_t *screenshot_read(unsigned fb, int w, int h);
bool screenshot_write(const char *path, unsigned fb, int w, int h, char *err, size_t errlen);

#endif

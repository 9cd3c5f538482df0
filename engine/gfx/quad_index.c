#include "gfx/quad_index.h"

#include <glad/gl.h>
#include <stdint.h>
#include <stdlib.h>

bool quad_index_upload(unsigned ibo, int quads)
{
    uint32_t *idx = malloc(sizeof *idx * 6 * (size_t)quads);
    if (!idx) return false;
    for (int q = 0; q < quads; q++) {
        uint32_t b = (uint32_t)q * 4, *o = idx + 6 * (size_t)q;
        o[0] = b, o[1] = b + 1, o[2] = b + 2, o[3] = b, o[4] = b + 2, o[5] = b + 3;
    }
    glNamedBufferData(ibo, (GLsizeiptr)(sizeof *idx * 6 * (size_t)quads), idx, GL_STATIC_DRAW);
    free(idx);
    return true;
}

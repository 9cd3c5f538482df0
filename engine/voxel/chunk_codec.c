#include "voxel/chunk_codec.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "voxel/material.h"

/* Level 1: chunks are long runs (air, stone, layers), which zstd's fastest
 * level already shrinks 20-100x; higher levels cost time on the writer. */
#define CODEC_LEVEL 1
#define CODEC_HAS_TINT 1u
#define CODEC_HEADER 2

struct chunk_codec {
    ZSTD_CCtx *c;
    ZSTD_DCtx *d;
    uint8_t raw[2 * CHUNK_VOLUME]; /* voxels then tints, the uncompressed payload */
};

chunk_codec *chunk_codec_create(void)
{
    chunk_codec *cc = calloc(1, sizeof *cc);
    if (!cc) return NULL;
    cc->c = ZSTD_createCCtx();
    cc->d = ZSTD_createDCtx();
    if (!cc->c || !cc->d) {
        chunk_codec_destroy(cc);
        return NULL;
    }
    return cc;
}

void chunk_codec_destroy(chunk_codec *cc)
{
    if (!cc) return;
    ZSTD_freeCCtx(cc->c);
    ZSTD_freeDCtx(cc->d);
    free(cc);
}

size_t chunk_codec_bound(void) { return CODEC_HEADER + ZSTD_compressBound(2 * CHUNK_VOLUME); }

static bool any_nonzero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i]) return true;
    return false;
}

size_t chunk_codec_encode(chunk_codec *cc, const chunk *c, void *dst, size_t cap)
{
    if (cap < chunk_codec_bound()) return 0;
    /* an all-zero tint array is no tints: allocation is not data */
    bool tinted = c->tint && any_nonzero(c->tint, CHUNK_VOLUME);
    size_t n = CHUNK_VOLUME;
    memcpy(cc->raw, c->vox, CHUNK_VOLUME);
    if (tinted) {
        memcpy(cc->raw + CHUNK_VOLUME, c->tint, CHUNK_VOLUME);
        n += CHUNK_VOLUME;
    }
    uint8_t *out = dst;
    out[0] = CHUNK_CODEC_VERSION;
    out[1] = tinted ? CODEC_HAS_TINT : 0;
    size_t z = ZSTD_compressCCtx(cc->c, out + CODEC_HEADER, cap - CODEC_HEADER, cc->raw, n, CODEC_LEVEL);
    if (ZSTD_isError(z)) return 0;
    return CODEC_HEADER + z;
}

bool chunk_codec_decode(chunk_codec *cc, const void *blob, size_t len, chunk *out, char *err, size_t errlen)
{
    const uint8_t *in = blob;
    if (len < CODEC_HEADER) {
        snprintf(err, errlen, "chunk record of %zu bytes is too short", len);
        return false;
    }
    if (in[0] != CHUNK_CODEC_VERSION) {
        snprintf(err, errlen, "chunk record has encoding %u (this program reads %d)", in[0], CHUNK_CODEC_VERSION);
        return false;
    }
    if (in[1] & ~CODEC_HAS_TINT) {
        snprintf(err, errlen, "chunk record has unknown flags 0x%02x", in[1]);
        return false;
    }
    bool tinted = in[1] & CODEC_HAS_TINT;
    size_t want = tinted ? 2 * CHUNK_VOLUME : CHUNK_VOLUME;
    /* the frame must say its size, and that size must be exactly one chunk */
    unsigned long long declared = ZSTD_getFrameContentSize(in + CODEC_HEADER, len - CODEC_HEADER);
    if (declared != want) {
        snprintf(err, errlen, "chunk record is damaged (holds %s bytes, a chunk is %zu)",
                 declared == ZSTD_CONTENTSIZE_ERROR || declared == ZSTD_CONTENTSIZE_UNKNOWN ? "an unknown number of"
                                                                                             : "a wrong number of",
                 want);
        return false;
    }
    size_t got = ZSTD_decompressDCtx(cc->d, cc->raw, want, in + CODEC_HEADER, len - CODEC_HEADER);
    if (ZSTD_isError(got) || got != want) {
        snprintf(err, errlen, "chunk record is damaged (%s)", ZSTD_isError(got) ? ZSTD_getErrorName(got) : "short");
        return false;
    }
    for (size_t i = 0; i < CHUNK_VOLUME; i++) {
        if (cc->raw[i] >= MAT_COUNT) {
            snprintf(err, errlen, "chunk record holds material id %u (this program knows %d)", cc->raw[i], MAT_COUNT);
            return false;
        }
        if (tinted && cc->raw[CHUNK_VOLUME + i] >= CHUNK_CODEC_TINTS) {
            snprintf(err, errlen, "chunk record holds tint %u (at most %d)", cc->raw[CHUNK_VOLUME + i],
                     CHUNK_CODEC_TINTS - 1);
            return false;
        }
    }
    if (tinted && !out->tint) {
        out->tint = malloc(CHUNK_VOLUME);
        if (!out->tint) {
            snprintf(err, errlen, "out of memory");
            return false;
        }
    }
    memcpy(out->vox, cc->raw, CHUNK_VOLUME);
    if (tinted) {
        memcpy(out->tint, cc->raw + CHUNK_VOLUME, CHUNK_VOLUME);
    } else {
        free(out->tint);
        out->tint = NULL;
    }
    return true;
}

chunk *chunk_copy(const chunk *c)
{
    chunk *k = chunk_new();
    if (!k) return NULL;
    memcpy(k->vox, c->vox, CHUNK_VOLUME);
    if (c->tint) {
        k->tint = malloc(CHUNK_VOLUME);
        if (!k->tint) {
            free(k);
            return NULL;
        }
        memcpy(k->tint, c->tint, CHUNK_VOLUME);
    }
    return k;
}

void chunk_copy_free(chunk *c)
{
    if (!c) return;
    free(c->tint);
    free(c);
}

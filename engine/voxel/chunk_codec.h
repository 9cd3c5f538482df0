/* chunk_codec: the one serialized form of a chunk, for saves. Materials and
 * tints go through here and nowhere else, so a change to the chunk's storage
 * (tints per face, density, ...) changes one encoder and one decoder.
 * A blob is [version, flags] + one zstd frame; decoding checks every byte. */
#ifndef STRATA_CHUNK_CODEC_H
#define STRATA_CHUNK_CODEC_H

#include <stdbool.h>
#include <stddef.h>

#include "voxel/chunk.h"

#define CHUNK_CODEC_VERSION 1
/* Tint ids a blob may hold (the tool's palette has 8 entries, 0 = none). */
#define CHUNK_CODEC_TINTS 8

typedef struct chunk_codec chunk_codec;

/* One per thread: it holds zstd's (de)compression state between chunks. */
chunk_codec *chunk_codec_create(void);
void chunk_codec_destroy(chunk_codec *cc);

/* Largest blob chunk_codec_encode can produce. */
size_t chunk_codec_bound(void);
/* Writes the blob of c into dst (cap >= chunk_codec_bound()); returns its
 * size, 0 on failure. */
size_t chunk_codec_encode(chunk_codec *cc, const chunk *c, void *dst, size_t cap);
/* Replaces out's voxels and tints with the blob's. On a damaged or foreign
 * blob returns false with why in err and leaves out unchanged. */
bool chunk_codec_decode(chunk_codec *cc, const void *blob, size_t len, chunk *out, char *err, size_t errlen);

/* A private copy of a chunk (voxels and tints) the main thread hands to the
 * save writer; free with chunk_copy_free. NULL when out of memory. */
chunk *chunk_copy(const chunk *c);
void chunk_copy_free(chunk *c);

#endif

/* save_load: a saved slot back into a world, all or nothing (records are
 * copied on the writer, decoded on the workers, and only installed when
 * every one decoded), and the per-chunk fingerprint a slot is checked
 * against. Uses save.c only through its public reads. */
#include "io/save.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "core/jobs.h"
#include "voxel/chunk_codec.h"
#include "voxel/world.h"

typedef struct blob_list {
    world *w;
    int count;
    int *index;
    void **data;
    size_t *len;
} blob_list;

/* On the writer: keeps a copy of each record (compressed: small). */
static bool keep_blob(void *user, int index, const void *blob, size_t len, char *err, size_t errlen)
{
    blob_list *bl = user;
    if (index >= bl->w->chunk_count || bl->count >= bl->w->chunk_count) {
        snprintf(err, errlen, "chunk %d is outside this %dx%dx%d-chunk world", index, bl->w->cx, bl->w->cy, bl->w->cz);
        return false;
    }
    if (bl->count > 0 && bl->index[bl->count - 1] >= index) { /* rows come in index order, once each */
        snprintf(err, errlen, "chunk %d appears out of order", index);
        return false;
    }
    void *copy = malloc(len ? len : 1);
    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    if (len) memcpy(copy, blob, len);
    bl->index[bl->count] = index, bl->data[bl->count] = copy, bl->len[bl->count] = len;
    bl->count++;
    return true;
}

/* Decoding on the workers: each job a range of records, its own codec. */
#define LOAD_JOBS 16
typedef struct decode_job {
    blob_list *bl;
    chunk *staged;
    bool ok[LOAD_JOBS];
    char err[LOAD_JOBS][400];
} decode_job;

static void decode_range(void *arg, int job)
{
    decode_job *d = arg;
    int lo = (int)((long)d->bl->count * job / LOAD_JOBS), hi = (int)((long)d->bl->count * (job + 1) / LOAD_JOBS);
    chunk_codec *cc = lo < hi ? chunk_codec_create() : NULL;
    d->ok[job] = lo >= hi || cc;
    if (!d->ok[job]) snprintf(d->err[job], sizeof d->err[job], "out of memory");
    for (int i = lo; i < hi && d->ok[job]; i++) {
        char why[300];
        if (!chunk_codec_decode(cc, d->bl->data[i], d->bl->len[i], &d->staged[i], why, sizeof why)) {
            snprintf(d->err[job], sizeof d->err[job], "chunk %d: %s", d->bl->index[i], why);
            d->ok[job] = false;
        }
    }
    chunk_codec_destroy(cc);
}

static void decode_serial(decode_job *d)
{
    for (int j = 0; j < LOAD_JOBS; j++) decode_range(d, j);
}

int save_load_chunks(save_file *f, const char *slot, world *w, job_pool *jobs, char *err, size_t errlen)
{
    size_t n = (size_t)w->chunk_count;
    blob_list bl = { .w = w, .index = malloc(sizeof(int) * n), .data = calloc(n, sizeof(void *)),
                     .len = malloc(sizeof(size_t) * n) };
    decode_job d = { .bl = &bl, .staged = calloc(n, sizeof(chunk)) };
    uint8_t *staged_vox = malloc(n * CHUNK_VOLUME);
    for (size_t i = 0; d.staged && staged_vox && i < n; i++) d.staged[i].vox = staged_vox + i * CHUNK_VOLUME;
    bool ok = bl.index && bl.data && bl.len && d.staged && staged_vox;
    if (!ok) snprintf(err, errlen, "out of memory loading %s", save_path(f));
    if (ok) ok = save_read_chunks(f, slot, keep_blob, &bl, err, errlen) >= 0;
    if (ok) {
        /* decode everything first: a bad record must not leave half a world */
        if (jobs) job_parallel_for(jobs, LOAD_JOBS, decode_range, &d);
        else decode_serial(&d);
        for (int j = 0; j < LOAD_JOBS && ok; j++)
            if (!d.ok[j]) {
                snprintf(err, errlen, "%s: slot '%s', %s", save_path(f), slot, d.err[j]);
                ok = false;
            }
    }
    for (int i = 0; i < bl.count; i++) {
        if (ok) {
            chunk *c = &w->chunks[bl.index[i]];
            memcpy(c->vox, d.staged[i].vox, CHUNK_VOLUME);
            free(c->tint);
            c->tint = d.staged[i].tint;
            world_mark_loaded(w, bl.index[i]);
        } else {
            free(d.staged[i].tint);
        }
        free(bl.data[i]);
    }
    free(bl.index), free(bl.data), free(bl.len), free(d.staged), free(staged_vox);
    return ok ? bl.count : -1;
}

typedef struct print_job {
    const world *w;
    uint64_t *h;
} print_job;

uint64_t save_chunk_fingerprint(const chunk *c) { return chunk_fingerprint(c); }

static void print_chunk(void *arg, int i)
{
    print_job *p = arg;
    p->h[i] = save_chunk_fingerprint(&p->w->chunks[i]);
}

uint64_t save_world_fingerprint(const world *w, job_pool *jobs)
{
    uint64_t *h = malloc(sizeof *h * (size_t)w->chunk_count);
    if (!h) return world_hash(w);
    print_job p = { w, h };
    if (jobs) job_parallel_for(jobs, w->chunk_count, print_chunk, &p);
    else
        for (int i = 0; i < w->chunk_count; i++) print_chunk(&p, i);
    uint64_t r = hash_u64(HASH_SEED, ((uint64_t)w->cx << 40) | ((uint64_t)w->cy << 20) | (uint64_t)w->cz);
    r = hash_bytes(r, h, sizeof *h * (size_t)w->chunk_count);
    free(h);
    return r;
}

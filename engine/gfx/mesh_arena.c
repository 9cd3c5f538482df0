#include "gfx/mesh_arena.h"

#include <glad/gl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena_alloc.h"
#include "core/log.h"

/* The buffer made up front: the hills at 256 voxels of view hold a few
 * MiB of quads, a forest about 10; rarely grown. */
#define FIRST_BYTES ((size_t)32 << 20)
/* A ring region: more than a frame's budget needs */
#define REGION_BYTES ((size_t)8 << 20)

typedef struct pending {
    void *data;
    uint32_t units;
    unsigned char *meta;
} pending;

struct mesh_arena {
    size_t unit, meta;
    GLuint buf;
    arena_alloc a;
    int slots;
    arena_range *range; /* per slot: its range (size 0: none) */
    pending *pend;      /* per slot (data NULL: none) */
    int *order;         /* the slots with a pending upload, oldest first */
    int order_n;
    /* the ring */
    GLuint ring;
    unsigned char *map;
    GLsync fence[MESH_ARENA_REGIONS];
    int region;
    size_t region_used;
    int region_state; /* -1 not polled this frame, 0 busy, 1 free */
    size_t budget, landed;
    bool begun, settled; /* a frame's uploads started; a frame ended since the reset */
    int packs;
};

static void clear_slots(mesh_arena *m)
{
    for (int i = 0; i < m->slots; i++) free(m->pend[i].data), free(m->pend[i].meta);
    free(m->range), free(m->pend), free(m->order);
    m->range = NULL, m->pend = NULL, m->order = NULL, m->order_n = 0, m->slots = 0;
}

bool mesh_arena_reset(mesh_arena *m, int slots)
{
    clear_slots(m);
    const uint32_t cap = m->a.capacity;
    arena_release(&m->a);
    m->range = calloc((size_t)slots, sizeof *m->range);
    m->pend = calloc((size_t)slots, sizeof *m->pend);
    m->order = malloc(sizeof *m->order * (size_t)(slots ? slots : 1));
    if (!arena_init(&m->a, cap) || !m->range || !m->pend || !m->order) {
        clear_slots(m);
        return false;
    }
    m->slots = slots;
    m->settled = false;
    return true;
}

mesh_arena *mesh_arena_create(size_t unit, int slots, size_t meta, char *err, size_t errlen)
{
    mesh_arena *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, errlen, "no memory for the mesh arena");
        return NULL;
    }
    m->unit = unit, m->meta = meta;
    while (glGetError() != GL_NO_ERROR) {}
    glCreateBuffers(1, &m->buf);
    glNamedBufferStorage(m->buf, (GLsizeiptr)FIRST_BYTES, NULL, GL_DYNAMIC_STORAGE_BIT);
    const GLbitfield map = GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
    glCreateBuffers(1, &m->ring);
    glNamedBufferStorage(m->ring, (GLsizeiptr)(REGION_BYTES * MESH_ARENA_REGIONS), NULL, map);
    m->map = glMapNamedBufferRange(m->ring, 0, (GLsizeiptr)(REGION_BYTES * MESH_ARENA_REGIONS), map);
    GLenum e = glGetError();
    m->a.capacity = (uint32_t)(FIRST_BYTES / unit);
    if (e != GL_NO_ERROR || !m->map || !mesh_arena_reset(m, slots)) {
        snprintf(err, errlen, "cannot make the mesh arena's buffers (GL error 0x%04x)", e);
        mesh_arena_destroy(m);
        return NULL;
    }
    m->region_state = -1;
    return m;
}

void mesh_arena_destroy(mesh_arena *m)
{
    if (!m) return;
    clear_slots(m);
    arena_release(&m->a);
    for (int r = 0; r < MESH_ARENA_REGIONS; r++)
        if (m->fence[r]) glDeleteSync(m->fence[r]);
    if (m->map) glUnmapNamedBuffer(m->ring);
    if (m->ring) glDeleteBuffers(1, &m->ring);
    if (m->buf) glDeleteBuffers(1, &m->buf);
    free(m);
}

void mesh_arena_set_budget(mesh_arena *m, size_t bytes) { m->budget = bytes; }
unsigned mesh_arena_buffer(const mesh_arena *m) { return m->buf; }

long mesh_arena_first(const mesh_arena *m, int slot)
{
    if (slot < 0 || slot >= m->slots || !m->range[slot].size) return -1;
    return (long)m->range[slot].at;
}

/* A new buffer of `cap` units holding every live range packed from 0:
 * copied GPU-side, the old buffer deleted. False (the old one kept) when
 * GL cannot give it. */
static bool rebuild(mesh_arena *m, uint32_t cap)
{
    arena_range *live = malloc(sizeof *live * (size_t)(m->slots ? m->slots : 1));
    if (!live) return false;
    int n = 0;
    for (int i = 0; i < m->slots; i++)
        if (m->range[i].size) live[n] = m->range[i], live[n++].owner = i;
    while (glGetError() != GL_NO_ERROR) {}
    GLuint buf = 0;
    glCreateBuffers(1, &buf);
    glNamedBufferStorage(buf, (GLsizeiptr)((size_t)cap * m->unit), NULL, GL_DYNAMIC_STORAGE_BIT);
    if (glGetError() != GL_NO_ERROR) {
        glDeleteBuffers(1, &buf);
        free(live);
        return false;
    }
    if (!arena_pack(&m->a, live, n, cap)) {
        glDeleteBuffers(1, &buf);
        free(live);
        return false;
    }
    for (int k = 0; k < n; k++) {
        const arena_range *from = &m->range[live[k].owner];
        glCopyNamedBufferSubData(m->buf, buf, (GLintptr)((size_t)from->at * m->unit),
                                 (GLintptr)((size_t)live[k].at * m->unit), (GLsizeiptr)((size_t)from->size * m->unit));
    }
    for (int k = 0; k < n; k++) m->range[live[k].owner].at = live[k].at;
    glDeleteBuffers(1, &m->buf);
    m->buf = buf;
    m->packs++;
    free(live);
    return true;
}

/* A range of `units` for slot (its old one given back first). */
static bool place(mesh_arena *m, int slot, uint32_t units)
{
    arena_range *r = &m->range[slot];
    if (r->size) arena_give(&m->a, r->at, r->size), r->size = 0;
    if (arena_should_pack(&m->a, units)) (void)rebuild(m, m->a.capacity); /* holes: packed in place */
    uint32_t at;
    if (!arena_take(&m->a, units, &at)) {
        uint64_t cap = (uint64_t)m->a.capacity * 2;
        while (cap < (uint64_t)m->a.used + units) cap *= 2;
        if (cap > UINT32_MAX || (size_t)cap * m->unit > (size_t)PTRDIFF_MAX || !rebuild(m, (uint32_t)cap) ||
            !arena_take(&m->a, units, &at))
            return false;
    }
    *r = (arena_range){ at, units, slot };
    return true;
}

/* Whether this frame's region may be written: its fence, polled once. */
static bool region_free(mesh_arena *m)
{
    if (m->region_state < 0) {
        GLsync f = m->fence[m->region];
        m->region_state = 1;
        if (f) {
            GLenum s = glClientWaitSync(f, GL_SYNC_FLUSH_COMMANDS_BIT, 0); /* a poll: no time given */
            if (s == GL_ALREADY_SIGNALED || s == GL_CONDITION_SATISFIED) glDeleteSync(f), m->fence[m->region] = NULL;
            else m->region_state = 0;
        }
    }
    return m->region_state == 1;
}

/* Into the slot's new range: through the ring when its region has room,
 * else straight into the arena (only while settling, or for a mesh larger
 * than a region). */
static void write(mesh_arena *m, int slot, const void *data, size_t bytes)
{
    const GLintptr dst = (GLintptr)((size_t)m->range[slot].at * m->unit);
    if (region_free(m) && m->region_used + bytes <= REGION_BYTES) {
        const size_t off = (size_t)m->region * REGION_BYTES + m->region_used;
        memcpy(m->map + off, data, bytes);
        glCopyNamedBufferSubData(m->ring, m->buf, (GLintptr)off, dst, (GLsizeiptr)bytes);
        m->region_used += bytes;
    } else {
        glNamedBufferSubData(m->buf, dst, (GLsizeiptr)bytes, data);
    }
    m->landed += bytes;
}

/* Whether a mesh of `bytes` may land this frame. */
static bool may_land(mesh_arena *m, size_t bytes)
{
    if (!m->settled || m->budget == MESH_ARENA_ALL) return true;
    const size_t budget = m->budget && m->budget < REGION_BYTES ? m->budget : REGION_BYTES;
    if (!region_free(m)) return false;
    if (m->landed == 0) return true; /* one mesh past the budget lands alone, else never */
    return m->landed + bytes <= budget && m->region_used + bytes <= REGION_BYTES;
}

static void unqueue(mesh_arena *m, int slot)
{
    pending *p = &m->pend[slot];
    if (!p->data) return;
    free(p->data), free(p->meta);
    *p = (pending){ 0 };
    for (int k = 0; k < m->order_n; k++)
        if (m->order[k] == slot) {
            memmove(m->order + k, m->order + k + 1, sizeof *m->order * (size_t)(m->order_n - k - 1));
            m->order_n--;
            break;
        }
}

void mesh_arena_drop(mesh_arena *m, int slot)
{
    if (slot < 0 || slot >= m->slots) return;
    unqueue(m, slot);
    arena_range *r = &m->range[slot];
    if (r->size) arena_give(&m->a, r->at, r->size), r->size = 0;
}

int mesh_arena_put(mesh_arena *m, int slot, const void *data, uint32_t units, const void *meta)
{
    if (slot < 0 || slot >= m->slots || units == 0) return MESH_ARENA_FAILED;
    unqueue(m, slot); /* a newer mesh replaces the one still waiting */
    const size_t bytes = (size_t)units * m->unit;
    if (may_land(m, bytes)) {
        if (!place(m, slot, units)) {
            log_warn("mesh arena: no GPU memory for %zu more bytes (%zu in use); a chunk is not drawn", bytes,
                     (size_t)m->a.used * m->unit);
            return MESH_ARENA_FAILED;
        }
        write(m, slot, data, bytes);
        return MESH_ARENA_LANDED;
    }
    pending *p = &m->pend[slot];
    p->data = malloc(bytes), p->meta = malloc(m->meta ? m->meta : 1);
    if (!p->data || !p->meta) {
        free(p->data), free(p->meta);
        *p = (pending){ 0 };
        log_warn("mesh arena: no memory to hold back a %zu-byte upload; a chunk is not drawn", bytes);
        mesh_arena_drop(m, slot);
        return MESH_ARENA_FAILED;
    }
    memcpy(p->data, data, bytes);
    memcpy(p->meta, meta, m->meta);
    p->units = units;
    m->order[m->order_n++] = slot;
    return MESH_ARENA_PENDING;
}

void mesh_arena_begin_frame(mesh_arena *m, void (*landed)(void *user, int slot, const void *meta), void *user)
{
    if (m->begun) return;
    m->begun = true;
    if (arena_should_pack(&m->a, 0)) (void)rebuild(m, m->a.capacity); /* many holes: packed, at most once a frame */
    while (m->order_n > 0) {
        const int slot = m->order[0];
        pending *p = &m->pend[slot];
        const size_t bytes = (size_t)p->units * m->unit;
        if (!may_land(m, bytes)) break;
        const bool ok = place(m, slot, p->units);
        if (ok) write(m, slot, p->data, bytes);
        else log_warn("mesh arena: no GPU memory for %zu more bytes; a chunk is not drawn", bytes);
        unsigned char *meta = p->meta;
        p->meta = NULL;
        unqueue(m, slot); /* (frees the data) */
        landed(user, slot, ok ? meta : NULL);
        free(meta);
    }
}

void mesh_arena_end_frame(mesh_arena *m)
{
    if (m->region_used) {
        if (m->fence[m->region]) glDeleteSync(m->fence[m->region]);
        m->fence[m->region] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        m->region = (m->region + 1) % MESH_ARENA_REGIONS;
    }
    m->region_used = 0, m->region_state = -1;
    m->landed = 0;
    m->begun = false, m->settled = true;
}

mesh_arena_stats mesh_arena_get_stats(const mesh_arena *m)
{
    return (mesh_arena_stats){ .bytes = (size_t)m->a.capacity * m->unit,
                               .used = (size_t)m->a.used * m->unit,
                               .fragments = m->a.free_count,
                               .pending = m->order_n,
                               .packs = m->packs,
                               .landed = m->landed };
}

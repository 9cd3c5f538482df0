#include "voxel/world.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "core/log.h"

bool world_size_check(int cx, int cy, int cz, char *err, size_t errlen)
{
    if (cx > 0 && cy > 0 && cz > 0 && (long long)cx * cy * cz <= WORLD_MAX_CHUNKS) return true;
    if (err && errlen)
        snprintf(err, errlen, "world size %dx%dx%d chunks is invalid (each >= 1, at most %d chunks in all)", cx, cy,
                 cz, WORLD_MAX_CHUNKS);
    return false;
}

static void guard_lock(world *w)
{
    if (w->guard) pthread_mutex_lock(w->guard);
}
static void guard_unlock(world *w)
{
    if (w->guard) pthread_mutex_unlock(w->guard);
}

static int wrap(int v, int n)
{
    int r = v % n;
    return r < 0 ? r + n : r;
}

static world *create(int ocx, int ocz, int cx, int cy, int cz, long long max_chunks);

world *world_create(int cx, int cy, int cz) { return create(0, 0, cx, cy, cz, WORLD_MAX_CHUNKS); }

world *world_create_at(int ocx, int ocz, int cx, int cy, int cz)
{
    return create(ocx, ocz, cx, cy, cz, WORLD_MAX_CHUNKS);
}

world *world_create_window(int ocx, int ocz, int cx, int cy, int cz)
{
    return create(ocx, ocz, cx, cy, cz, WORLD_MAX_STREAM_CHUNKS);
}

static world *create(int ocx, int ocz, int cx, int cy, int cz, long long max_chunks)
{
    char err[160];
    if (ocx < -WORLD_COORD_LIMIT / CHUNK_SIZE || ocz < -WORLD_COORD_LIMIT / CHUNK_SIZE ||
        ocx > WORLD_COORD_LIMIT / CHUNK_SIZE - cx || ocz > WORLD_COORD_LIMIT / CHUNK_SIZE - cz) {
        log_error("world origin %d,%d (chunks) is beyond the coordinate limit", ocx, ocz);
        return NULL;
    }
    if (max_chunks > WORLD_MAX_CHUNKS && cx > 0 && cy > 0 && cz > 0 && (long long)cx * cy * cz <= max_chunks) {
        /* a streamed window: its budget was checked by whoever sized it */
    } else if (!world_size_check(cx, cy, cz, err, sizeof err)) {
        log_error("%s", err);
        return NULL;
    }
    world *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->cx = cx, w->cy = cy, w->cz = cz;
    w->sx = cx * CHUNK_SIZE, w->sy = cy * CHUNK_SIZE, w->sz = cz * CHUNK_SIZE;
    w->ocx = ocx, w->ocz = ocz;
    w->slot_x0 = wrap(ocx, cx), w->slot_z0 = wrap(ocz, cz);
    w->chunk_count = cx * cy * cz;
    w->chunks = calloc((size_t)w->chunk_count, sizeof *w->chunks);
    /* one array a chunk, so that arrays can change hands (world_swap_vox) */
    for (int i = 0; w->chunks && i < w->chunk_count; i++)
        if (!(w->chunks[i].vox = calloc(1, CHUNK_VOLUME))) {
            log_error("out of memory for a %dx%dx%d chunk world", cx, cy, cz);
            world_destroy(w);
            return NULL;
        }
    w->spare_cap = w->chunk_count + 256; /* a window's arrays and its jobs' */
    w->spare = malloc(sizeof *w->spare * (size_t)w->spare_cap);
    w->dirty = calloc((size_t)w->chunk_count, 1);
    w->edit = calloc((size_t)w->chunk_count, 1);
    w->col_state = malloc((size_t)cx * (size_t)cz);
    if (w->col_state) memset(w->col_state, WORLD_COL_READY, (size_t)cx * (size_t)cz);
    if (!w->chunks || !w->spare || !w->dirty || !w->edit || !w->col_state) {
        log_error("out of memory for a %dx%dx%d chunk world", cx, cy, cz);
        world_destroy(w);
        return NULL;
    }
    return w;
}

void world_destroy(world *w)
{
    if (!w) return;
    if (w->chunks)
        for (int i = 0; i < w->chunk_count; i++) {
            free(w->chunks[i].tint);
            if (!world_vox_shared(w->chunks[i].vox)) free(w->chunks[i].vox);
        }
    free(w->chunks);
    for (int i = 0; i < w->spare_n; i++) free(w->spare[i]);
    free(w->spare);
    free(w->dirty);
    free(w->edit);
    free(w->col_state);
    free(w);
}

void world_grid_coords(const world_grid *g, int index, int *cx, int *cy, int *cz)
{
    *cx = g->ocx + wrap(index % g->cx - g->slot_x0, g->cx);
    *cz = g->ocz + wrap((index / g->cx) % g->cz - g->slot_z0, g->cz);
    *cy = index / (g->cx * g->cz);
}

void world_chunk_coords(const world *w, int index, int *cx, int *cy, int *cz)
{
    const world_grid g = world_grid_of(w);
    world_grid_coords(&g, index, cx, cy, cz);
}

int world_column_state(const world *w, int cx, int cz)
{
    if (!world_chunk_valid(w, cx, 0, cz)) return WORLD_COL_EMPTY;
    return w->col_state[world_chunk_index(w, cx, 0, cz)];
}

bool world_window_empty(const world *w)
{
    for (int i = 0; i < w->cx * w->cz; i++)
        if (w->col_state[i] != WORLD_COL_EMPTY) return false;
    return true;
}

void world_set_column_state(world *w, int cx, int cz, int state)
{
    if (world_chunk_valid(w, cx, 0, cz)) w->col_state[world_chunk_index(w, cx, 0, cz)] = (uint8_t)state;
}

/* The air of every chunk world_move_release emptied: read, never written
 * (a write there is refused), so one array serves every window. */
static uint8_t shared_air[CHUNK_VOLUME];

bool world_vox_shared(const uint8_t *vox) { return vox == shared_air; }

void world_give_spare(world *w, uint8_t *vox)
{
    if (!vox || world_vox_shared(vox)) return;
    if (w->spare_n < w->spare_cap) w->spare[w->spare_n++] = vox;
    else free(vox); /* more than a window and its jobs ever hold */
}

uint8_t *world_take_spare(world *w)
{
    return w->spare_n > 0 ? w->spare[--w->spare_n] : malloc(CHUNK_VOLUME);
}

void world_swap_vox(world *w, int index, uint8_t **vox)
{
    guard_lock(w); /* a save writer may be reading this chunk */
    uint8_t *old = w->chunks[index].vox;
    w->chunks[index].vox = *vox;
    *vox = old;
    guard_unlock(w);
}

bool world_own_storage(world *w, world *from)
{
    for (int i = 0; i < w->chunk_count; i++) {
        if (!world_vox_shared(w->chunks[i].vox)) continue;
        uint8_t *v = world_take_spare(from);
        if (!v) return false;
        w->chunks[i].vox = v;
    }
    return true;
}

enum { MOVE_KEEP, MOVE_CLEAR, MOVE_RELEASE };

/* Empties the chunks of the column in slot index `slot` (y = 0 index):
 * MOVE_CLEAR writes air, MOVE_RELEASE gives the arrays back (the chunks
 * read the shared air), MOVE_KEEP leaves the bytes. */
static void empty_column(world *w, int slot, int how)
{
    for (int y = 0; y < w->cy; y++) {
        int i = slot + y * w->cx * w->cz;
        chunk *c = &w->chunks[i];
        if (how == MOVE_RELEASE) {
            world_give_spare(w, c->vox);
            c->vox = shared_air;
        } else if (how == MOVE_CLEAR && !world_vox_shared(c->vox)) {
            memset(c->vox, MAT_AIR, CHUNK_VOLUME);
        }
        free(c->tint);
        c->tint = NULL;
        if (w->edit[i] & WORLD_UNSAVED) w->unsaved_count--;
        w->edit[i] = 0;
        if (!w->dirty[i]) w->dirty[i] = 1, w->dirty_count++;
    }
    w->col_state[slot] = WORLD_COL_EMPTY;
}

static int move(world *w, int ocx, int ocz, int how)
{
    if (ocx < -WORLD_COORD_LIMIT / CHUNK_SIZE || ocz < -WORLD_COORD_LIMIT / CHUNK_SIZE ||
        ocx > WORLD_COORD_LIMIT / CHUNK_SIZE - w->cx || ocz > WORLD_COORD_LIMIT / CHUNK_SIZE - w->cz)
        return -1;
    if (ocx == w->ocx && ocz == w->ocz) return 0;
    /* Which columns stay: the old and new windows' overlap. Every slot
     * whose column is not in the new window is emptied; the slot then
     * holds the column of the new window that maps to it. */
    int entered = 0;
    guard_lock(w);
    for (int sz = 0; sz < w->cz; sz++)
        for (int sx = 0; sx < w->cx; sx++) {
            int slot = sx + sz * w->cx;
            int x_old = w->ocx + wrap(sx - w->slot_x0, w->cx), z_old = w->ocz + wrap(sz - w->slot_z0, w->cz);
            bool stays = x_old >= ocx && x_old < ocx + w->cx && z_old >= ocz && z_old < ocz + w->cz;
            if (stays) continue;
            empty_column(w, slot, how);
            entered++;
        }
    w->ocx = ocx, w->ocz = ocz;
    w->slot_x0 = wrap(ocx, w->cx), w->slot_z0 = wrap(ocz, w->cz);
    guard_unlock(w);
    return entered;
}

int world_move(world *w, int ocx, int ocz) { return move(w, ocx, ocz, MOVE_CLEAR); }

int world_move_scratch(world *w, int ocx, int ocz) { return move(w, ocx, ocz, MOVE_KEEP); }

int world_move_release(world *w, int ocx, int ocz) { return move(w, ocx, ocz, MOVE_RELEASE); }

uint8_t world_get_tint(const world *w, int x, int y, int z)
{
    if (!world_in_bounds(w, x, y, z)) return 0;
    const chunk *c = &w->chunks[world_chunk_index(w, x >> CHUNK_BITS, y >> CHUNK_BITS, z >> CHUNK_BITS)];
    return chunk_tint(c, CHUNK_INDEX(x & CHUNK_MASK, y & CHUNK_MASK, z & CHUNK_MASK));
}

void world_mark_dirty(world *w, int cx, int cy, int cz)
{
    if (!world_chunk_valid(w, cx, cy, cz)) return;
    int i = world_chunk_index(w, cx, cy, cz);
    if (!w->dirty[i]) {
        w->dirty[i] = 1;
        w->dirty_count++;
    }
}

void world_mark_all_dirty(world *w)
{
    memset(w->dirty, 1, (size_t)w->chunk_count);
    w->dirty_count = w->chunk_count;
}

/* A voxel on a chunk face is also drawn (or hidden) by the neighbour's mesh. */
static void mark_voxel_dirty(world *w, int x, int y, int z)
{
    int cx = x >> CHUNK_BITS, cy = y >> CHUNK_BITS, cz = z >> CHUNK_BITS;
    int lx = x & CHUNK_MASK, ly = y & CHUNK_MASK, lz = z & CHUNK_MASK;
    world_mark_dirty(w, cx, cy, cz);
    if (lx == 0) world_mark_dirty(w, cx - 1, cy, cz);
    if (lx == CHUNK_MASK) world_mark_dirty(w, cx + 1, cy, cz);
    if (ly == 0) world_mark_dirty(w, cx, cy - 1, cz);
    if (ly == CHUNK_MASK) world_mark_dirty(w, cx, cy + 1, cz);
    if (lz == 0) world_mark_dirty(w, cx, cy, cz - 1);
    if (lz == CHUNK_MASK) world_mark_dirty(w, cx, cy, cz + 1);
}

static void mark_edited(world *w, int index)
{
    if (!(w->edit[index] & WORLD_UNSAVED)) w->unsaved_count++;
    w->edit[index] = WORLD_EDITED | WORLD_UNSAVED;
}


bool world_set(world *w, int x, int y, int z, uint8_t m)
{
    if (!world_in_bounds(w, x, y, z) || m >= MAT_COUNT) return false;
    chunk *c = &w->chunks[world_chunk_index(w, x >> CHUNK_BITS, y >> CHUNK_BITS, z >> CHUNK_BITS)];
    if (world_vox_shared(c->vox)) return m == MAT_AIR; /* a column not there: it is air, and stays so */
    uint8_t *v = &c->vox[CHUNK_INDEX(x & CHUNK_MASK, y & CHUNK_MASK, z & CHUNK_MASK)];
    if (*v == m) return true;
    guard_lock(w);
    *v = m;
    if (c->tint) c->tint[CHUNK_INDEX(x & CHUNK_MASK, y & CHUNK_MASK, z & CHUNK_MASK)] = 0;
    guard_unlock(w);
    mark_edited(w, world_chunk_index(w, x >> CHUNK_BITS, y >> CHUNK_BITS, z >> CHUNK_BITS));
    mark_voxel_dirty(w, x, y, z);
    return true;
}

bool world_set_tint(world *w, int x, int y, int z, uint8_t tint)
{
    if (!world_in_bounds(w, x, y, z)) return false;
    chunk *c = &w->chunks[world_chunk_index(w, x >> CHUNK_BITS, y >> CHUNK_BITS, z >> CHUNK_BITS)];
    int i = CHUNK_INDEX(x & CHUNK_MASK, y & CHUNK_MASK, z & CHUNK_MASK);
    if (world_vox_shared(c->vox)) return false; /* a column not there */
    if (!c->tint) {
        if (tint == 0) return true;
        uint8_t *t = calloc(CHUNK_VOLUME, 1);
        if (!t) return false;
        guard_lock(w);
        c->tint = t;
        guard_unlock(w);
    }
    if (c->tint[i] == tint) return true;
    guard_lock(w);
    c->tint[i] = tint;
    guard_unlock(w);
    mark_edited(w, world_chunk_index(w, x >> CHUNK_BITS, y >> CHUNK_BITS, z >> CHUNK_BITS));
    mark_voxel_dirty(w, x, y, z);
    return true;
}

int world_take_dirty(world *w, int *out, int max)
{
    int n = 0;
    for (int i = 0; i < w->chunk_count && n < max && w->dirty_count > 0; i++) {
        if (w->dirty[i]) {
            w->dirty[i] = 0;
            w->dirty_count--;
            out[n++] = i;
        }
    }
    return n;
}

int world_take_unsaved(world *w, int *out, int max)
{
    int n = 0;
    for (int i = 0; i < w->chunk_count && n < max && w->unsaved_count > 0; i++) {
        if (w->edit[i] & WORLD_UNSAVED) {
            w->edit[i] &= (uint8_t)~WORLD_UNSAVED;
            w->unsaved_count--;
            out[n++] = i;
        }
    }
    return n;
}

void world_mark_edited_unsaved(world *w)
{
    for (int i = 0; i < w->chunk_count; i++)
        if ((w->edit[i] & (WORLD_EDITED | WORLD_UNSAVED)) == WORLD_EDITED) {
            w->edit[i] |= WORLD_UNSAVED;
            w->unsaved_count++;
        }
}

void world_mark_unsaved(world *w, int index)
{
    if (index < 0 || index >= w->chunk_count || (w->edit[index] & WORLD_UNSAVED)) return;
    w->edit[index] |= WORLD_UNSAVED;
    w->unsaved_count++;
}

void world_mark_loaded(world *w, int index)
{
    if (index < 0 || index >= w->chunk_count) return;
    if (w->edit[index] & WORLD_UNSAVED) w->unsaved_count--;
    w->edit[index] = WORLD_EDITED;
    int cx, cy, cz;
    world_chunk_coords(w, index, &cx, &cy, &cz);
    /* its border voxels show in the neighbours' meshes too */
    world_mark_dirty(w, cx, cy, cz);
    world_mark_dirty(w, cx - 1, cy, cz), world_mark_dirty(w, cx + 1, cy, cz);
    world_mark_dirty(w, cx, cy - 1, cz), world_mark_dirty(w, cx, cy + 1, cz);
    world_mark_dirty(w, cx, cy, cz - 1), world_mark_dirty(w, cx, cy, cz + 1);
}

void world_forget_edits(world *w)
{
    memset(w->edit, 0, (size_t)w->chunk_count);
    w->unsaved_count = 0;
}

int world_count_edited(const world *w)
{
    int n = 0;
    for (int i = 0; i < w->chunk_count; i++) n += (w->edit[i] & WORLD_EDITED) != 0;
    return n;
}

void world_clear(world *w)
{
    guard_lock(w); /* tints are freed: a save reading this world waits */
    memset(w->edit, 0, (size_t)w->chunk_count);
    w->unsaved_count = 0;
    for (int i = 0; i < w->chunk_count; i++) {
        /* (even a new window's air: writing it now makes the system hand
         * over its pages here, not one column at a time while the player
         * flies, on the frames that install them) */
        if (!world_vox_shared(w->chunks[i].vox)) memset(w->chunks[i].vox, MAT_AIR, CHUNK_VOLUME);
        free(w->chunks[i].tint);
        w->chunks[i].tint = NULL;
    }
    world_mark_all_dirty(w);
    guard_unlock(w);
}

uint64_t world_hash(const world *w)
{
    uint64_t h = hash_u64(HASH_SEED, ((uint64_t)w->cx << 40) | ((uint64_t)w->cy << 20) | (uint64_t)w->cz);
    /* where the window is matters; the origin window hashes as it always did */
    if (w->ocx || w->ocz) h = hash_u64(h, ((uint64_t)(uint32_t)w->ocx << 32) | (uint32_t)w->ocz);
    /* chunk order is coordinate order (y, z, x), not slot order, so two
     * windows holding the same columns hash alike however they moved */
    for (int n = 0; n < w->chunk_count; n++) {
        int i = world_chunk_index(w, w->ocx + n % w->cx, n / (w->cx * w->cz), w->ocz + (n / w->cx) % w->cz);
        h = world_hash_chunk(h, &w->chunks[i]);
    }
    return h;
}

uint64_t world_hash_chunk(uint64_t h, const chunk *c)
{
    h = hash_bytes(h, c->vox, CHUNK_VOLUME);
    /* an all-zero tint array hashes like none at all: tints are data, allocation is not */
    if (c->tint) {
        bool any = false;
        for (int k = 0; k < CHUNK_VOLUME && !any; k++) any = c->tint[k] != 0;
        if (any) h = hash_bytes(h ^ 0x7469, c->tint, CHUNK_VOLUME);
    }
    return h;
}

void world_count_materials(const world *w, uint64_t counts[MAT_COUNT])
{
    memset(counts, 0, sizeof(uint64_t) * MAT_COUNT);
    for (int i = 0; i < w->chunk_count; i++) {
        const chunk *c = &w->chunks[i];
        if (chunk_is_uniform(c)) {
            counts[c->vox[0] < MAT_COUNT ? c->vox[0] : MAT_NULL] += CHUNK_VOLUME;
            continue;
        }
        uint32_t local[256] = { 0 };
        for (int k = 0; k < CHUNK_VOLUME; k++) local[c->vox[k]]++;
        for (int m = 0; m < 256; m++) counts[m < MAT_COUNT ? m : MAT_NULL] += local[m];
    }
}

uint64_t world_count_tinted(const world *w)
{
    uint64_t n = 0;
    for (int i = 0; i < w->chunk_count; i++) {
        const chunk *c = &w->chunks[i];
        if (!c->tint) continue;
        int cx, cy, cz;
        world_chunk_coords(w, i, &cx, &cy, &cz);
        for (int k = 0; k < CHUNK_VOLUME; k++) {
            if (!c->tint[k]) continue;
            int x = cx * CHUNK_SIZE + (k & CHUNK_MASK), z = cz * CHUNK_SIZE + ((k >> CHUNK_BITS) & CHUNK_MASK),
                y = cy * CHUNK_SIZE + (k >> (2 * CHUNK_BITS));
            for (int f = 0; f < FACE_COUNT; f++)
                n += material_face_visible(world_get(w, x - face_normal[f][0], y - face_normal[f][1], z - face_normal[f][2]),
                                           c->vox[k]);
        }
    }
    return n;
}

size_t world_tint_bytes(const world *w)
{
    size_t n = 0;
    for (int i = 0; i < w->chunk_count; i++) n += w->chunks[i].tint ? CHUNK_VOLUME : 0;
    return n;
}

int world_surface_y(const world *w, int x, int z)
{
    if (!world_in_bounds(w, x, 0, z)) return -1;
    for (int y = w->sy - 1; y >= 0; y--)
        if (material_get(world_get(w, x, y, z))->solid) return y;
    return -1;
}

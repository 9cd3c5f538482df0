/* light_window: the light volume as a window that moves with the world's
 * (light.h, light_move): the columns' slots, the occupancy bits' shift,
 * the stale columns a move leaves and their handing out, and reading a
 * voxel's light. Split from light.c, which holds the trace. */
#include <stdint.h>
#include <string.h>

#include "core/hash.h"
#include "light/light_internal.h"

/* ---- the moving window ------------------------------------------------ */

void light_origin(const light *l, int *x0, int *z0)
{
    *x0 = l->ox, *z0 = l->oz;
}

void light_slot(const light *l, int *kx, int *kz)
{
    *kx = l->kx, *kz = l->kz;
}

/* Window-order bits after a move by (dx, dz) voxels (multiples of 32):
 * the bit of new local (x, y, z) is the old one of (x + dx, y, z + dz), or
 * clear where that left the window. Rows are whole half words, so this
 * moves 32-voxel chunk rows, walking away from the side it reads so the
 * copy can be in place. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* On a little-endian machine half word j is the 4 bytes at byte 4 j: each
 * plane moves as one memmove by dx's half words, then the half words a row
 * took from its neighbour row are cleared (elsewhere, the loop below moves
 * a half word at a time). A
 * streamed window's move shifts two arrays of tens of MB: at memory
 * speed instead of a read-modify-write per half word, which held the
 * frame of every move for tens of ms. */
static void shift_bits(const light *l, uint64_t *bits, int dx, int dz)
{
    const size_t hx = (size_t)(l->sx / CHUNK_SIZE), plane = hx * (size_t)l->sy; /* in half words */
    const int hdx = dx / CHUNK_SIZE;
    const size_t gone = (size_t)(hdx < 0 ? -hdx : hdx); /* half words of a row that leave */
    unsigned char *b = (unsigned char *)bits;
    bool fwd = dz > 0; /* planes in the order that reads each before it is written */
    for (int i = 0; i < l->sz; i++) {
        int z = fwd ? i : l->sz - 1 - i;
        int64_t zs = (int64_t)z + dz;
        unsigned char *dst = b + 4 * (size_t)z * plane;
        if (zs < 0 || zs >= l->sz || gone >= hx) {
            memset(dst, 0, 4 * plane);
            continue;
        }
        const unsigned char *src = b + 4 * (size_t)zs * plane;
        if (hdx >= 0) memmove(dst, src + 4 * gone, 4 * (plane - gone));
        else memmove(dst + 4 * gone, src, 4 * (plane - gone));
        if (gone)
            for (int y = 0; y < l->sy; y++)
                memset(dst + 4 * ((size_t)y * hx + (hdx > 0 ? hx - gone : 0)), 0, 4 * gone);
    }
}
#else
/* Half word j (32 bits) of a bit array: a chunk row of 32 voxels. */
static inline uint32_t half_get(const uint64_t *bits, size_t j) { return (uint32_t)(bits[j >> 1] >> ((j & 1) * 32)); }
static inline void half_set(uint64_t *bits, size_t j, uint32_t v)
{
    int shift = (int)(j & 1) * 32;
    bits[j >> 1] = (bits[j >> 1] & ~(0xffffffffull << shift)) | ((uint64_t)v << shift);
}

static void shift_bits(const light *l, uint64_t *bits, int dx, int dz)
{
    const int hx = l->sx / CHUNK_SIZE; /* half words a row */
    const int hdx = dx / CHUNK_SIZE;
    const size_t row = (size_t)hx, plane = row * (size_t)l->sy;
    /* reading ahead (d > 0) walks forwards, reading behind walks backwards */
    bool fwd = dz > 0 || (dz == 0 && dx > 0);
    for (int i = 0; i < l->sz; i++) {
        int z = fwd ? i : l->sz - 1 - i;
        int64_t zs = (int64_t)z + dz;
        bool zin = zs >= 0 && zs < l->sz;
        for (int yi = 0; yi < l->sy; yi++)
            for (int j = 0; j < hx; j++) {
                int y = fwd ? yi : l->sy - 1 - yi;
                int x = fwd ? j : hx - 1 - j;
                int64_t xs = (int64_t)x + hdx;
                uint32_t v = 0;
                if (zin && xs >= 0 && xs < hx) v = half_get(bits, (size_t)zs * plane + (size_t)y * row + (size_t)xs);
                half_set(bits, (size_t)z * plane + (size_t)y * row + (size_t)x, v);
            }
    }
}
#endif

void light_move(light *l, int x0, int z0)
{
    if (x0 == l->ox && z0 == l->oz) return;
    int64_t dx = (int64_t)x0 - l->ox, dz = (int64_t)z0 - l->oz;
    const bool all = dx >= l->sx || -dx >= l->sx || dz >= l->sz || -dz >= l->sz; /* every column leaves */
    const int ncx = l->sx / CHUNK_SIZE, ncz = l->sz / CHUNK_SIZE;
    if (all) { /* one clear of everything, not one per chunk row */
        memset(l->rg, 0, l->count * 2);
        memset(l->stale, LIGHT_FRESH, (size_t)ncx * (size_t)ncz);
        size_t words = (l->count + 63) / 64;
        memset(l->opaque, 0, words * sizeof *l->opaque);
        memset(l->drawn, 0, words * sizeof *l->drawn);
        light_place(l, x0, z0);
        return;
    }
    /* the columns that enter take the slots of those that leave and have
     * no light until they arrive: their slots are marked, handed out to be
     * drawn dark a few a frame later (light_take_stale), and cleared only
     * when a bake reads them
     * (a window row of columns is 32 x sy x 32 pairs each, scattered over
     * the whole volume: clearing them all here held the frame of every
     * move for several ms) */
    for (int sz = 0; sz < l->sz; sz += CHUNK_SIZE)
        for (int sx = 0; sx < l->sx; sx += CHUNK_SIZE) {
            /* global first voxel of the column in slot (sx, sz), old window */
            int64_t gx = (int64_t)l->ox + wrap_mod(sx - l->kx, l->sx);
            int64_t gz = (int64_t)l->oz + wrap_mod(sz - l->kz, l->sz);
            if (gx >= x0 && gx < (int64_t)x0 + l->sx && gz >= z0 && gz < (int64_t)z0 + l->sz) continue;
            l->stale[(sz / CHUNK_SIZE) * ncx + sx / CHUNK_SIZE] = LIGHT_STALE;
        }
    shift_bits(l, l->opaque, (int)dx, (int)dz);
    shift_bits(l, l->drawn, (int)dx, (int)dz);
    light_place(l, x0, z0);
}

/* Clears the rg pairs of the column in slot (sx, sz) (voxels). */
static void clear_slot(light *l, int sx, int sz)
{
    for (int z = sz; z < sz + CHUNK_SIZE; z++)
        for (int y = 0; y < l->sy; y++) memset(&l->rg[2 * vidx(l, sx, y, z)], 0, 2 * CHUNK_SIZE);
}

void light_flush_box(light *l, const int lo[3], const int hi[3], bool rewritten)
{
    int a[3], b[3];
    clamp_box(l, lo, hi, a, b);
    const int ncx = l->sx / CHUNK_SIZE;
    for (int z = a[2] & ~CHUNK_MASK; z < b[2]; z += CHUNK_SIZE)
        for (int x = a[0] & ~CHUNK_MASK; x < b[0]; x += CHUNK_SIZE) {
            int sx = slot_of(x, l->kx, l->sx), sz = slot_of(z, l->kz, l->sz);
            uint8_t *st = &l->stale[(sz / CHUNK_SIZE) * ncx + sx / CHUNK_SIZE];
            if (*st == LIGHT_FRESH) continue;
            bool whole = x >= a[0] && x + CHUNK_SIZE <= b[0] && z >= a[2] && z + CHUNK_SIZE <= b[2] && a[1] == 0 &&
                         b[1] == l->sy;
            if (rewritten && whole) { /* every pair written, then copied out: nothing to clear or hand out */
                *st = LIGHT_FRESH;
                continue;
            }
            if (*st == LIGHT_STALE || *st == LIGHT_STALE_OUT) clear_slot(l, sx, sz);
            *st = LIGHT_CLEARED;
        }
}

bool light_take_stale(light *l, int px, int pz, int reach, int *cx, int *cz, bool *dark)
{
    const int ncx = l->sx / CHUNK_SIZE, ncz = l->sz / CHUNK_SIZE;
    int best = -1;
    int64_t best_d = 0;
    for (int i = 0; i < ncx * ncz; i++) {
        if (l->stale[i] == LIGHT_FRESH || l->stale[i] == LIGHT_STALE_OUT) continue;
        int sx = (i % ncx) * CHUNK_SIZE, sz = (i / ncx) * CHUNK_SIZE;
        /* the global column that now owns the slot */
        int64_t gx = (int64_t)l->ox + wrap_mod(sx - l->kx, l->sx) + CHUNK_SIZE / 2;
        int64_t gz = (int64_t)l->oz + wrap_mod(sz - l->kz, l->sz) + CHUNK_SIZE / 2;
        int64_t d = (gx - px) * (gx - px) + (gz - pz) * (gz - pz);
        if (best < 0 || d < best_d) best = i, best_d = d;
    }
    /* (a column's centre within reach of the point) */
    if (best < 0 || (reach >= 0 && best_d > (int64_t)(reach + CHUNK_SIZE) * (reach + CHUNK_SIZE))) return false;
    int sx = (best % ncx) * CHUNK_SIZE, sz = (best / ncx) * CHUNK_SIZE;
    /* a column a move left is handed out as dark, its bytes left as they
     * are (clearing them here was a fifth of a flight's main thread, and
     * its own light's landing overwrites them); one a bake cleared is
     * handed out as its bytes, which now hold what the bake wrote */
    *dark = l->stale[best] == LIGHT_STALE;
    l->stale[best] = *dark ? LIGHT_STALE_OUT : LIGHT_FRESH;
    *cx = (int)(((int64_t)l->ox + wrap_mod(sx - l->kx, l->sx)) >> CHUNK_BITS);
    *cz = (int)(((int64_t)l->oz + wrap_mod(sz - l->kz, l->sz)) >> CHUNK_BITS);
    return true;
}

void light_place(light *l, int x0, int z0)
{
    l->ox = x0, l->oz = z0;
    l->kx = wrap_mod(x0, l->sx), l->kz = wrap_mod(z0, l->sz);
}

void light_clear(light *l)
{
    size_t words = (l->count + 63) / 64;
    memset(l->opaque, 0, words * sizeof *l->opaque);
    memset(l->drawn, 0, words * sizeof *l->drawn);
    memset(l->rg, 0, l->count * 2);
    memset(l->stale, LIGHT_FRESH, (size_t)(l->sx / CHUNK_SIZE) * (size_t)(l->sz / CHUNK_SIZE));
}

void light_get(const light *l, int x, int y, int z, uint8_t *sun, uint8_t *sky)
{
    if (y >= l->sy) {
        *sun = *sky = 255;
        return;
    }
    int64_t lx = (int64_t)x - l->ox, lz = (int64_t)z - l->oz;
    if (lx < 0 || y < 0 || lz < 0 || lx >= l->sx || lz >= l->sz) {
        *sun = *sky = 0;
        return;
    }
    size_t i = ridx(l, (int)lx, y, (int)lz);
    int sx = slot_of((int)lx, l->kx, l->sx), sz = slot_of((int)lz, l->kz, l->sz);
    uint8_t st = l->stale[(sz / CHUNK_SIZE) * (l->sx / CHUNK_SIZE) + sx / CHUNK_SIZE];
    if (st == LIGHT_STALE || st == LIGHT_STALE_OUT) {
        *sun = *sky = 0; /* a column that left: not cleared yet */
        return;
    }
    *sun = l->rg[2 * i], *sky = l->rg[2 * i + 1];
}

const uint8_t *light_data(const light *l) { return l->rg; }

uint64_t light_hash(light *l)
{
    light_flush_box(l, NULL, NULL, false);
    return hash_bytes(HASH_SEED, l->rg, l->count * 2);
}

/* light_window: the light volume as a window that moves with the world's
 * (light.h, light_move): the columns' slots, the stale columns a move
 * leaves and their handing out, and reading a voxel's light. Split from
 * light.c, which holds the trace. */
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

void light_move(light *l, int x0, int z0)
{
    if (x0 == l->ox && z0 == l->oz) return;
    int64_t dx = (int64_t)x0 - l->ox, dz = (int64_t)z0 - l->oz;
    const bool all = dx >= l->sx || -dx >= l->sx || dz >= l->sz || -dz >= l->sz; /* every column leaves */
    const int ncx = l->sx / CHUNK_SIZE, ncz = l->sz / CHUNK_SIZE;
    if (all) { /* one clear of everything, not one per chunk row */
        memset(l->rg, 0, l->count * 2);
        memset(l->stale, LIGHT_FRESH, (size_t)ncx * (size_t)ncz);
        light_place(l, x0, z0);
        return;
    }
    /* the columns that enter take the slots of those that leave and have
     * no light until they arrive: their slots are marked (the shaders then
     * read them as holding none, light_fresh_bits), and cleared only when
     * a bake reads them
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
    /* The occupancy bits stay where they are: every bake reads the voxels
     * its walks test first (light_relight reads its box and twice the reach
     * around it), so none reads bits of an older window. Shifting them
     * kept them whole between reads, at a memmove of both arrays (48 MB
     * for a 27-column window) on the frame of every move. */
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
            if (*st == LIGHT_STALE) clear_slot(l, sx, sz);
            *st = LIGHT_CLEARED;
        }
}

int light_fresh_bits(const light *l, uint32_t *bits, int words)
{
    const int n = (l->sx / CHUNK_SIZE) * (l->sz / CHUNK_SIZE);
    if (words * 32 < n) return -1;
    memset(bits, 0, sizeof *bits * (size_t)words);
    for (int i = 0; i < n; i++)
        if (l->stale[i] == LIGHT_FRESH) bits[i >> 5] |= 1u << (i & 31);
    return n;
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
    if (st == LIGHT_STALE) {
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

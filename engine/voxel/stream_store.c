/* stream_store: the table of edited chunks outside the window (stream_store.h). */
#include "voxel/stream_store.h"

#include <stdlib.h>
#include <string.h>

static unsigned store_hash(int cx, int cy, int cz)
{
    uint64_t h = (uint64_t)(uint32_t)cx * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uint32_t)cz * 0xC2B2AE3D27D4EB4Full ^
                 (uint64_t)(uint32_t)cy * 0x165667B19E3779F9ull;
    return (unsigned)(h ^ (h >> 29));
}

stored *store_find(const store *st, int cx, int cy, int cz)
{
    if (!st->cap) return NULL;
    for (unsigned i = store_hash(cx, cy, cz) & (unsigned)(st->cap - 1);; i = (i + 1) & (unsigned)(st->cap - 1)) {
        stored *e = &st->e[i];
        if (!store_live(e) && !e->tomb) return NULL;
        if (store_live(e) && e->cx == cx && e->cy == cy && e->cz == cz) return e;
    }
}

static bool store_grow(store *st)
{
    int cap = st->cap ? st->cap * 2 : 64;
    if (st->live * 2 < st->cap) cap = st->cap; /* only tombstones: rehash in place size */
    stored *e = calloc((size_t)cap, sizeof *e);
    if (!e) return false;
    for (int i = 0; i < st->cap; i++) {
        if (!store_live(&st->e[i])) continue;
        unsigned k = store_hash(st->e[i].cx, st->e[i].cy, st->e[i].cz) & (unsigned)(cap - 1);
        while (store_live(&e[k])) k = (k + 1) & (unsigned)(cap - 1);
        e[k] = st->e[i];
    }
    free(st->e);
    st->e = e, st->cap = cap, st->used = st->live;
    return true;
}

void store_free_chunk(chunk *c)
{
    if (c) free(c->tint);
    free(c);
}

bool store_put(store *st, int cx, int cy, int cz, chunk *c, bool paged, uint8_t flags, uint64_t gen_fp)
{
    stored *old = store_find(st, cx, cy, cz);
    if (old) {
        store_free_chunk(old->c);
        old->c = c, old->paged = paged, old->flags = flags, old->gen_fp = gen_fp;
        return true;
    }
    if ((st->used + 1) * 4 > st->cap * 3 && !store_grow(st)) return false;
    unsigned i = store_hash(cx, cy, cz) & (unsigned)(st->cap - 1);
    while (store_live(&st->e[i])) i = (i + 1) & (unsigned)(st->cap - 1);
    if (!st->e[i].tomb) st->used++;
    st->e[i] = (stored){ cx, cy, cz, c, false, paged, flags, gen_fp };
    st->live++;
    return true;
}

void store_remove(store *st, stored *e)
{
    e->c = NULL, e->paged = false, e->tomb = true;
    st->live--;
}

void store_free(store *st)
{
    for (int i = 0; i < st->cap; i++)
        if (st->e[i].c) store_free_chunk(st->e[i].c);
    free(st->e);
    memset(st, 0, sizeof *st);
}

#include "core/arena_alloc.h"

#include <stdlib.h>
#include <string.h>

bool arena_init(arena_alloc *a, uint32_t capacity)
{
    memset(a, 0, sizeof *a);
    a->free = malloc(sizeof *a->free * 16);
    if (!a->free) return false;
    a->free_cap = 16;
    a->capacity = capacity;
    if (capacity) a->free[a->free_count++] = (arena_range){ 0, capacity, -1 };
    return true;
}

void arena_release(arena_alloc *a)
{
    free(a->free);
    memset(a, 0, sizeof *a);
}

static bool reserve(arena_alloc *a, int n)
{
    if (n <= a->free_cap) return true;
    int cap = a->free_cap * 2 > n ? a->free_cap * 2 : n;
    arena_range *f = realloc(a->free, sizeof *f * (size_t)cap);
    if (!f) return false;
    a->free = f, a->free_cap = cap;
    return true;
}

bool arena_take(arena_alloc *a, uint32_t size, uint32_t *at)
{
    if (size == 0) return false;
    int best = -1;
    for (int i = 0; i < a->free_count; i++)
        if (a->free[i].size >= size && (best < 0 || a->free[i].size < a->free[best].size)) {
            best = i;
            if (a->free[i].size == size) break; /* nothing fits better */
        }
    if (best < 0) return false;
    arena_range *f = &a->free[best];
    *at = f->at;
    if (f->size == size) { /* used up: the list closes over it */
        memmove(f, f + 1, sizeof *f * (size_t)(a->free_count - best - 1));
        a->free_count--;
    } else {
        f->at += size, f->size -= size;
    }
    a->used += size, a->live++;
    return true;
}

void arena_give(arena_alloc *a, uint32_t at, uint32_t size)
{
    if (size == 0) return;
    /* the first free range after it */
    int lo = 0, hi = a->free_count;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (a->free[mid].at < at) lo = mid + 1;
        else hi = mid;
    }
    const bool left = lo > 0 && a->free[lo - 1].at + a->free[lo - 1].size == at;
    const bool right = lo < a->free_count && at + size == a->free[lo].at;
    a->used -= size, a->live--;
    if (left && right) { /* it closes the gap between two: one range */
        a->free[lo - 1].size += size + a->free[lo].size;
        memmove(a->free + lo, a->free + lo + 1, sizeof *a->free * (size_t)(a->free_count - lo - 1));
        a->free_count--;
    } else if (left) {
        a->free[lo - 1].size += size;
    } else if (right) {
        a->free[lo].at = at, a->free[lo].size += size;
    } else {
        if (!reserve(a, a->free_count + 1)) return; /* no memory: the range is lost to the arena until a pack */
        memmove(a->free + lo + 1, a->free + lo, sizeof *a->free * (size_t)(a->free_count - lo));
        a->free[lo] = (arena_range){ at, size, -1 };
        a->free_count++;
    }
}

bool arena_grow(arena_alloc *a, uint32_t capacity)
{
    if (capacity <= a->capacity) return capacity == a->capacity;
    const uint32_t add = capacity - a->capacity;
    arena_range *last = a->free_count ? &a->free[a->free_count - 1] : NULL;
    if (last && last->at + last->size == a->capacity) {
        last->size += add;
    } else {
        if (!reserve(a, a->free_count + 1)) return false;
        a->free[a->free_count++] = (arena_range){ a->capacity, add, -1 };
    }
    a->capacity = capacity;
    return true;
}

uint32_t arena_largest_free(const arena_alloc *a)
{
    uint32_t m = 0;
    for (int i = 0; i < a->free_count; i++) m = a->free[i].size > m ? a->free[i].size : m;
    return m;
}

float arena_fragmentation(const arena_alloc *a)
{
    const uint32_t total = a->capacity - a->used;
    if (total == 0) return 0.f;
    return (float)(total - arena_largest_free(a)) / (float)total;
}

bool arena_should_pack(const arena_alloc *a, uint32_t need)
{
    if (a->free_count > ARENA_MAX_FRAGMENTS) return true;
    return need > 0 && a->capacity - a->used >= need && arena_largest_free(a) < need;
}

static int cmp_at(const void *x, const void *y)
{
    const arena_range *p = x, *q = y;
    return (p->at > q->at) - (p->at < q->at);
}

bool arena_pack(arena_alloc *a, arena_range *live, int n, uint32_t capacity)
{
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) sum += live[i].size;
    if (sum > capacity || !reserve(a, 1)) return false;
    qsort(live, (size_t)n, sizeof *live, cmp_at);
    uint32_t at = 0;
    for (int i = 0; i < n; i++) live[i].at = at, at += live[i].size;
    a->capacity = capacity, a->used = at, a->live = n;
    a->free_count = 0;
    if (at < capacity) a->free[a->free_count++] = (arena_range){ at, capacity - at, -1 };
    return true;
}

#include "region_cache.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct entry {
    int x, z;
    void *value;
    int refs;
    bool ready;        /* false while its first caller computes it */
    uint64_t last_use; /* for LRU among idle entries */
} entry;

struct region_cache {
    pthread_mutex_t lock;
    pthread_cond_t made;
    entry *e;
    int count, cap, capacity;
    uint64_t clock;
    region_make_fn make;
    region_free_fn free_value;
    void *user;
};

region_cache *region_cache_create(int capacity, region_make_fn make, region_free_fn free_value, void *user)
{
    region_cache *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->made, NULL);
    c->capacity = capacity < 1 ? 1 : capacity;
    c->make = make;
    c->free_value = free_value;
    c->user = user;
    return c;
}

void region_cache_destroy(region_cache *c)
{
    if (!c) return;
    for (int i = 0; i < c->count; i++)
        if (c->e[i].value) c->free_value(c->user, c->e[i].value);
    free(c->e);
    pthread_cond_destroy(&c->made);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

void region_cache_reserve(region_cache *c, int n)
{
    pthread_mutex_lock(&c->lock);
    if (n > c->capacity) c->capacity = n;
    pthread_mutex_unlock(&c->lock);
}

static int find(const region_cache *c, int x, int z)
{
    /* linear: caches hold tens to hundreds of plans, each costing far more to make than the scan */
    for (int i = 0; i < c->count; i++)
        if (c->e[i].x == x && c->e[i].z == z) return i;
    return -1;
}

/* Drops idle plans, oldest first, until there is room for one more. */
static void evict(region_cache *c)
{
    while (c->count >= c->capacity) {
        int best = -1;
        for (int i = 0; i < c->count; i++)
            if (c->e[i].ready && c->e[i].refs == 0 && (best < 0 || c->e[i].last_use < c->e[best].last_use)) best = i;
        if (best < 0) return; /* every plan is in use: hold more for a while */
        if (c->e[best].value) c->free_value(c->user, c->e[best].value);
        c->e[best] = c->e[--c->count];
    }
}

void *region_cache_get(region_cache *c, int x, int z) { return region_cache_get_with(c, x, z, NULL); }

void *region_cache_get_with(region_cache *c, int x, int z, void *arg)
{
    pthread_mutex_lock(&c->lock);
    int i = find(c, x, z);
    if (i >= 0) {
        entry *e = &c->e[i];
        e->refs++;
        while (!c->e[i].ready) {
            pthread_cond_wait(&c->made, &c->lock);
            i = find(c, x, z); /* others may have moved it while we slept; our ref keeps it */
        }
        e = &c->e[i];
        e->last_use = ++c->clock;
        void *v = e->value;
        if (!v) e->refs--; /* a failed plan is not held */
        pthread_mutex_unlock(&c->lock);
        return v;
    }
    evict(c);
    if (c->count == c->cap) {
        int cap = c->cap ? c->cap * 2 : 16;
        entry *grown = realloc(c->e, sizeof(entry) * (size_t)cap);
        if (!grown) {
            pthread_mutex_unlock(&c->lock);
            return NULL;
        }
        c->e = grown;
        c->cap = cap;
    }
    c->e[c->count++] = (entry){ x, z, NULL, 1, false, ++c->clock };
    pthread_mutex_unlock(&c->lock);
    void *v = c->make(c->user, arg, x, z);
    pthread_mutex_lock(&c->lock);
    i = find(c, x, z);
    c->e[i].value = v;
    c->e[i].ready = true;
    if (!v) c->e[i].refs--;
    pthread_cond_broadcast(&c->made);
    /* a failed plan is dropped once nobody waits on it, so the next caller tries again */
    if (!v && c->e[i].refs == 0) c->e[i] = c->e[--c->count];
    pthread_mutex_unlock(&c->lock);
    return v;
}

void region_cache_release(region_cache *c, const void *value)
{
    if (!value) return;
    pthread_mutex_lock(&c->lock);
    for (int i = 0; i < c->count; i++)
        if (c->e[i].value == value) {
            c->e[i].refs--;
            break;
        }
    pthread_mutex_unlock(&c->lock);
}

/* region_cache: plans computed lazily per key (a region, a tile, a chunk
 * column) and shared between the workers that generate columns at once.
 * The first caller of a key computes it outside the lock while later
 * callers of the same key wait for it; at most `capacity` idle plans are
 * kept (least recently used go first), so a world streamed forever holds a
 * bounded number. A plan is a pure function of its key, so dropping and
 * recomputing one never changes the world. */
#ifndef STRATA_REGION_CACHE_H
#define STRATA_REGION_CACHE_H

/* Computes the plan of key (x, z); NULL only when out of memory. `arg` is
 * region_cache_get_with's (how to compute, never what). */
typedef void *(*region_make_fn)(void *user, void *arg, int x, int z);
typedef void (*region_free_fn)(void *user, void *value);

typedef struct region_cache region_cache;

region_cache *region_cache_create(int capacity, region_make_fn make, region_free_fn free_value, void *user);
void region_cache_destroy(region_cache *c);
/* Keeps at least n idle plans from now on (a window's worth, see
 * worldgen_stream_prepare). */
void region_cache_reserve(region_cache *c, int n);

/* The plan of (x, z), held until region_cache_release: held plans are
 * never evicted. NULL when it could not be made. */
void *region_cache_get(region_cache *c, int x, int z);
void *region_cache_get_with(region_cache *c, int x, int z, void *arg);
void region_cache_release(region_cache *c, const void *value);

#endif

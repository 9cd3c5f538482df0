/* arena_alloc (core/arena_alloc.h): random sequences of takes and gives
 * over a simulated buffer keep every live range intact (each holds its own
 * pattern, checked after every step, so an overlap shows), every unit is
 * in exactly one live or free range, neighbours freed merge, a take fails
 * only when no free range is large enough, and packing as the owner does
 * (gfx/mesh_arena) keeps the free ranges within ARENA_MAX_FRAGMENTS. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena_alloc.h"
#include "core/rng.h"

enum { LIVE_MAX = 400 };

typedef struct sim {
    arena_alloc a;
    uint32_t *mem; /* the "buffer": unit u of range id holds id * 65536 + (u - at) */
    uint32_t mem_cap;
    arena_range live[LIVE_MAX];
    int n;
    int packs, grows;
} sim;

static void fill(sim *s, const arena_range *r)
{
    for (uint32_t u = 0; u < r->size; u++) s->mem[r->at + u] = (uint32_t)r->owner * 65536u + u;
}

/* Every live range holds its pattern; live and free ranges cover the
 * capacity exactly once; free ranges are sorted and never touch. */
static void check(const sim *s)
{
    const arena_alloc *a = &s->a;
    uint32_t used = 0;
    unsigned char *cover = calloc(a->capacity ? a->capacity : 1, 1);
    assert_non_null(cover);
    for (int i = 0; i < s->n; i++) {
        const arena_range *r = &s->live[i];
        assert_true(r->at + r->size <= a->capacity);
        for (uint32_t u = 0; u < r->size; u++) {
            assert_int_equal(s->mem[r->at + u], (uint32_t)r->owner * 65536u + u);
            assert_int_equal(cover[r->at + u]++, 0);
        }
        used += r->size;
    }
    assert_int_equal(used, a->used);
    assert_int_equal(s->n, a->live);
    for (int i = 0; i < a->free_count; i++) {
        const arena_range *f = &a->free[i];
        assert_true(f->size > 0);
        if (i) assert_true(a->free[i - 1].at + a->free[i - 1].size < f->at); /* merged when touching */
        for (uint32_t u = 0; u < f->size; u++) assert_int_equal(cover[f->at + u]++, 0);
    }
    for (uint32_t u = 0; u < a->capacity; u++) assert_int_equal(cover[u], 1);
    free(cover);
}

/* The owner's packing: every live range moved to its new offset (a fresh
 * buffer, as gfx/mesh_arena copies into a new GL buffer). */
static void pack(sim *s, uint32_t capacity)
{
    uint32_t *mem = calloc(capacity, sizeof *mem);
    assert_non_null(mem);
    arena_range old[LIVE_MAX];
    memcpy(old, s->live, sizeof old);
    for (int i = 0; i < s->n; i++) s->live[i].owner = i; /* index into old for the copy */
    assert_true(arena_pack(&s->a, s->live, s->n, capacity));
    for (int i = 0; i < s->n; i++) {
        const arena_range *o = &old[s->live[i].owner];
        assert_int_equal(s->live[i].size, o->size);
        memcpy(mem + s->live[i].at, s->mem + o->at, sizeof *mem * o->size);
        s->live[i].owner = o->owner;
    }
    free(s->mem);
    s->mem = mem, s->mem_cap = capacity;
    s->packs++;
    assert_true(s->a.free_count <= 1);
}

/* A take as the owner does it: packed when fragmented, grown when full. */
static void take(sim *s, uint32_t size, int owner, bool managed)
{
    uint32_t at;
    if (managed && arena_should_pack(&s->a, size)) pack(s, s->a.capacity);
    if (!arena_take(&s->a, size, &at)) {
        assert_true(arena_largest_free(&s->a) < size); /* fails only when nothing fits */
        if (!managed) return;
        uint32_t cap = s->a.capacity * 2;
        while (cap < s->a.used + size) cap *= 2;
        pack(s, cap);
        s->grows++;
        assert_true(arena_take(&s->a, size, &at));
    }
    s->live[s->n] = (arena_range){ at, size, owner };
    fill(s, &s->live[s->n++]);
}

static void give(sim *s, int i)
{
    arena_give(&s->a, s->live[i].at, s->live[i].size);
    s->live[i] = s->live[--s->n];
}

static void run(uint64_t seed, bool managed, int steps, int *max_fragments, sim *out)
{
    sim s = { 0 };
    const uint32_t cap = 20000;
    assert_true(arena_init(&s.a, cap));
    s.mem = calloc(cap, sizeof *s.mem), s.mem_cap = cap;
    assert_non_null(s.mem);
    rng r = rng_make(seed);
    int owner = 1;
    *max_fragments = 0;
    for (int step = 0; step < steps; step++) {
        bool grow = s.n == 0 || (s.n < LIVE_MAX && rng_next(&r) % 100 < 55);
        if (grow) {
            /* mostly small meshes, now and then a large one */
            uint32_t size = rng_next(&r) % 10 == 0 ? 200 + (uint32_t)(rng_next(&r) % 800)
                                                    : 1 + (uint32_t)(rng_next(&r) % 60);
            take(&s, size, owner++, managed);
        } else {
            give(&s, (int)(rng_next(&r) % (uint64_t)s.n));
        }
        check(&s);
        if (s.a.free_count > *max_fragments) *max_fragments = s.a.free_count;
        /* the owner looks once a frame too (mesh_arena_begin_frame): gives alone make holes */
        if (managed && arena_should_pack(&s.a, 0)) pack(&s, s.a.capacity), check(&s);
    }
    *out = s;
}

static void test_random_intact(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        sim s;
        int frag;
        run(seed, false, 3000, &frag, &s);
        /* without the owner's packing the holes grow many */
        assert_true(frag > ARENA_MAX_FRAGMENTS);
        free(s.mem);
        arena_release(&s.a);
    }
}

static void test_bounded_by_packing(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        sim s;
        int frag;
        run(seed, true, 3000, &frag, &s);
        print_message("seed %d: %d packs, %d grows, at most %d free ranges, fragmentation %.2f\n", (int)seed, s.packs,
                      s.grows, frag, (double)arena_fragmentation(&s.a));
        assert_true(frag <= ARENA_MAX_FRAGMENTS + 1); /* one step past the bound, then a pack */
        assert_true(s.packs > 0);
        free(s.mem);
        arena_release(&s.a);
    }
}

/* Neighbours given back merge into one range, whatever the order. */
static void test_coalesce(void **state)
{
    (void)state;
    arena_alloc a;
    assert_true(arena_init(&a, 1000));
    uint32_t at[10];
    for (int i = 0; i < 10; i++) assert_true(arena_take(&a, 100, &at[i]));
    assert_int_equal(a.free_count, 0);
    uint32_t none;
    assert_false(arena_take(&a, 1, &none));
    static const int order[10] = { 3, 5, 4, 0, 9, 1, 2, 8, 6, 7 };
    for (int i = 0; i < 10; i++) {
        arena_give(&a, at[order[i]], 100);
        if (order[i] == 4) assert_int_equal(a.free_count, 1); /* 3, 5 then 4: one range */
    }
    assert_int_equal(a.free_count, 1);
    assert_int_equal(a.free[0].at, 0);
    assert_int_equal(a.free[0].size, 1000);
    assert_int_equal(a.used, 0);
    assert_true(arena_fragmentation(&a) == 0.f);
    /* two holes of 100 in 1000: 200 free, 100 outside the largest */
    assert_true(arena_take(&a, 1000, &at[0]));
    arena_give(&a, 100, 100);
    arena_give(&a, 500, 100);
    assert_true(arena_fragmentation(&a) == 0.5f);
    assert_true(arena_should_pack(&a, 150)); /* fits in the free space, not in a range */
    assert_false(arena_should_pack(&a, 250));
    assert_true(arena_grow(&a, 1200));
    assert_int_equal(arena_largest_free(&a), 200);
    arena_release(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coalesce),
        cmocka_unit_test(test_random_intact),
        cmocka_unit_test(test_bounded_by_packing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

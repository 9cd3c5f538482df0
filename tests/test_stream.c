/* Streaming (voxel/stream.h) with a synthetic generator: the window follows
 * the centre, columns arrive in any order with the same voxels, edits
 * survive flying away and back, failures retry, memory stays the window's.
 * The edits' store on disk (paging) is test_stream_paging.c's. */
#include "test_support.h"

#include <math.h>
#include <stdatomic.h>
#include <time.h>

#include "core/hash.h"
#include "stream_synth.h"
#include "voxel/stream.h"

/* Every voxel of every ready column equals the generator's. */
static void assert_ready_columns_match(const world *w)
{
    for (int cz = w->ocz; cz < w->ocz + w->cz; cz++)
        for (int cx = w->ocx; cx < w->ocx + w->cx; cx++) {
            if (world_column_state(w, cx, cz) != WORLD_COL_READY) continue;
            for (int y = 0; y < w->sy; y += 3)
                for (int z = cz * 32; z < cz * 32 + 32; z += 5)
                    for (int x = cx * 32; x < cx * 32 + 32; x += 3) assert_int_equal(world_get(w, x, y, z), synth(x, y, z));
        }
}

static void test_window_follows_and_fills(void **state)
{
    (void)state;
    job_pool *jobs = job_pool_create(2);
    world *w = window_for(64, 1);
    assert_int_equal(w->cx, 2 * (3 + 1 + 1) + 1);
    stream *s = stream_create(w, jobs, synth_column, NULL, 0, 1);
    /* a streamed window starts with every column empty */
    assert_false(stream_ready_within(s, 16, 16, 64));
    assert_true(stream_ready_fraction(s, 16, 16, 64) == 0.f);
    stream_wait(s, 16, 16, 64);
    assert_true(stream_ready_within(s, 16, 16, 64));
    assert_true(stream_ready_fraction(s, 16, 16, 64) == 1.f);
    /* half a disc: the columns of x < 0 made empty again count as not ready */
    for (int cz = -3; cz <= 3; cz++)
        for (int cx = -3; cx < 0; cx++) world_set_column_state(w, cx, cz, WORLD_COL_EMPTY);
    float f = stream_ready_fraction(s, 0, 16, 40);
    assert_true(f > 0.3f && f < 0.7f);
    assert_false(stream_ready_within(s, 0, 16, 40));
    assert_true(stream_ready_within(s, 48, 16, 8));
    stream_wait(s, 16, 16, 64);
    assert_true(stream_ready_fraction(s, 0, 16, 40) == 1.f);
    assert_int_equal(w->ocx, -5);
    assert_ready_columns_match(w);
    /* the centre column and its ring are meshable, the window's edge is not */
    assert_true(stream_meshable(w, 0, 0));
    assert_false(stream_meshable(w, w->ocx, 0));
    /* drifting within the hysteresis does not move the window */
    int moves = stream_get_stats(s).moves;
    stream_update(s, 16 + 32, 16);
    assert_int_equal(stream_get_stats(s).moves, moves);
    stream_update(s, 16 + 64, 16);
    assert_int_equal(stream_get_stats(s).moves, moves + 1);
    stream_wait(s, 16 + 64, 16, 64);
    assert_ready_columns_match(w);
    stream_destroy(s);
    world_destroy(w);
    job_pool_destroy(jobs);
}

/* The voxels within `radius` of (x, z), hashed in coordinate order. */
static uint64_t hash_around(const world *w, int x0, int z0, int radius)
{
    uint64_t h = HASH_SEED;
    for (int z = z0 - radius; z < z0 + radius; z++)
        for (int x = x0 - radius; x < x0 + radius; x++)
            for (int y = 0; y < w->sy; y++) h = hash_u64(h, world_get(w, x, y, z));
    return h;
}

/* Pumps stream_update at (x, z) until nothing within the radius is left
 * to make and nothing is in flight. */
static void settle_at(stream *s, double x, double z)
{
    for (int guard = 0; guard < 100000; guard++) {
        stream_update(s, x, z);
        stream_stats st = stream_get_stats(s);
        if (st.wanted_ready == st.wanted && st.in_flight == 0) return;
        struct timespec t = { 0, 200000 };
        nanosleep(&t, NULL);
    }
    fail_msg("the stream never settled at %.0f %.0f", x, z);
}

static bool within(int cx, int cz, double x, double z, int r)
{
    double dx = fmax(fmax(cx * 32.0 - x, x - (cx + 1) * 32.0), 0), dz = fmax(fmax(cz * 32.0 - z, z - (cz + 1) * 32.0), 0);
    return dx * dx + dz * dz <= (double)r * r;
}

/* What stream_set_moving's hook saw: each call's new origin, and the
 * window's own origin and a voxel of a leaving column at that moment. */
typedef struct moving_log {
    world *w;
    int calls, ocx[8], ocz[8], was_ocx[8], leaving_voxel[8];
} moving_log;

static void log_moving(void *ctx, int ocx, int ocz)
{
    moving_log *m = ctx;
    if (m->calls < 8) {
        m->ocx[m->calls] = ocx, m->ocz[m->calls] = ocz, m->was_ocx[m->calls] = m->w->ocx;
        m->leaving_voxel[m->calls] = world_get(m->w, m->w->ocx * 32 + 1, 1, 1);
    }
    m->calls++;
}

/* The hook hears every move, before anything leaves: from stream_update
 * and from the waits, with the origin the window then takes; and not
 * when the centre stays within the hysteresis. */
static void test_moving_hook_before_each_move(void **state)
{
    (void)state;
    job_pool *jobs = job_pool_create(2);
    world *w = window_for(64, 1);
    stream *s = stream_create(w, jobs, synth_column, NULL, 0, 1);
    moving_log m = { .w = w };
    stream_set_moving(s, log_moving, &m);
    stream_wait(s, 16, 16, 64);
    assert_int_equal(m.calls, 1); /* the window was made at 0, 0: centring it is a move */
    m.calls = 0;
    stream_update(s, 16 + 32, 16);
    assert_int_equal(m.calls, 0); /* within the hysteresis */
    const int was = w->ocx;
    /* a voxel of a column about to leave, once it is there (a column
     * still to come takes no write) */
    while (world_column_state(w, was, 0) != WORLD_COL_READY) stream_update(s, 16 + 32, 16);
    assert_true(world_set(w, was * 32 + 1, 1, 1, MAT_GRASS));
    stream_update(s, 16 + 64, 16);
    assert_int_equal(m.calls, 1);
    assert_int_equal(m.was_ocx[0], was);               /* heard before the move */
    assert_int_equal(m.leaving_voxel[0], MAT_GRASS);   /* the leaving column still there */
    assert_int_equal(m.ocx[0], w->ocx);                /* and told where it went */
    assert_int_equal(m.ocz[0], w->ocz);
    stream_wait(s, 16 + 640, 16, 64); /* the wait's own update moves it */
    assert_int_equal(m.calls, 2);
    assert_int_equal(m.ocx[1], w->ocx);
    assert_true(w->ocx > m.ocx[0]);
    stream_set_moving(s, NULL, NULL);
    stream_wait(s, 16, 16, 64);
    assert_int_equal(m.calls, 2);
    stream_destroy(s);
    world_destroy(w);
    job_pool_destroy(jobs);
}

/* The column distance every radius means, against hand-worked values:
 * inside its column a point is at 0; beside it, the gap to the nearest
 * face; off a corner, to the corner; far from the origin, exact. */
static void test_column_distance(void **state)
{
    (void)state;
    assert_true(stream_column_distance2(0, 0, 16, 16) == 0.0);
    assert_true(stream_column_distance2(0, 0, 0, 31.5) == 0.0); /* on a face: inside */
    assert_true(stream_column_distance2(1, 0, 16, 16) == 16.0 * 16.0); /* the face at x 32 */
    assert_true(stream_column_distance2(-1, 0, 16, 16) == 16.0 * 16.0); /* the face at x 0 */
    assert_true(stream_column_distance2(2, 2, 61, 60) == 3.0 * 3.0 + 4.0 * 4.0); /* the corner (64, 64) */
    assert_true(stream_column_distance2(-2, -2, 0, 0) == 32.0 * 32.0 * 2); /* the corner (-32, -32) */
    const int c = 10000000 / 32;
    assert_true(stream_column_distance2(c + 3, c, 10000000.5, 10000000.5) == 95.5 * 95.5); /* c * 32 is 10^7 */
    for (int cz = -4; cz <= 4; cz++)
        for (int cx = -4; cx <= 4; cx++)
            for (int r = 0; r <= 160; r += 16)
                assert_int_equal(stream_column_distance2(cx, cz, 5.25, -7.5) <= (double)r * r, within(cx, cz, 5.25, -7.5, r));
}

/* With a radius, the stream makes the disc around the centre, not the
 * window's corners; what a move leaves behind stays until the window
 * leaves it, and only what enters the disc is made. */
static void test_radius_generates_a_disc(void **state)
{
    (void)state;
    job_pool *jobs = job_pool_create(2);
    world *w = window_for(64, 1);
    stream *s = stream_create(w, jobs, synth_column, NULL, 0, 1);
    const int r = 64 + 32; /* the distance and the margin window_for gave the window */
    stream_set_radius(s, r);
    atomic_store(&g_calls, 0);
    settle_at(s, 16, 16);
    stream_stats st = stream_get_stats(s);
    int ready = 0, empty = 0;
    for (int cz = w->ocz; cz < w->ocz + w->cz; cz++)
        for (int cx = w->ocx; cx < w->ocx + w->cx; cx++) {
            bool is = world_column_state(w, cx, cz) == WORLD_COL_READY;
            assert_int_equal(is, within(cx, cz, 16, 16, r));
            ready += is, empty += !is;
        }
    assert_true(empty > 0 && ready > 20); /* the corners stayed empty */
    assert_int_equal(st.wanted, ready);
    assert_int_equal(st.wanted_ready, ready);
    assert_int_equal(st.ready, ready);
    assert_int_equal(st.resident, w->cx * w->cz);
    assert_int_equal(st.generated, ready);
    assert_int_equal(atomic_load(&g_calls), ready);
    assert_ready_columns_match(w);

    /* three columns east: the window follows (hysteresis 1); the new
     * disc is made, and each column only once */
    const double x1 = 16 + 96;
    settle_at(s, x1, 16);
    st = stream_get_stats(s);
    int kept = 0, made = 0;
    for (int cz = w->ocz; cz < w->ocz + w->cz; cz++)
        for (int cx = w->ocx; cx < w->ocx + w->cx; cx++) {
            bool is = world_column_state(w, cx, cz) == WORLD_COL_READY;
            bool now = within(cx, cz, x1, 16, r), before = within(cx, cz, 16, 16, r);
            if (now) assert_true(is);
            if (!now && !before) assert_false(is);
            kept += is && before && !now;
            made += now && !before;
        }
    assert_true(kept > 0); /* left behind, still in the window: kept, not dropped */
    assert_int_equal(st.generated, ready + made);
    assert_int_equal(atomic_load(&g_calls), ready + made);
    assert_ready_columns_match(w);

    /* a wait for more than the stream makes waits for what it makes, two
     * columns on: the window holds 96 voxels around its centre, the
     * stream makes 80 (a wait for the 96 would never end) */
    const double x2 = x1 + 64;
    stream_set_radius(s, 80);
    stream_wait(s, x2, 16, 1 << 16);
    assert_true(stream_ready_within(s, x2, 16, 80));
    assert_false(stream_ready_within(s, x2, 16, 96));

    /* radius 0: the whole window again */
    stream_set_radius(s, 0);
    settle_at(s, x1, 16);
    st = stream_get_stats(s);
    assert_int_equal(st.ready, st.resident);
    assert_int_equal(st.wanted, st.resident);
    stream_destroy(s);
    world_destroy(w);
    job_pool_destroy(jobs);
}

/* The margin's share: with everything near there or coming, at most one
 * column generates at once; a column missing near lifts the limit; 0 is
 * no limit; a wait never has it. Inline (no pool): the columns an update
 * starts are done, not yet collected, so in_flight after it counts them. */
static void test_margin_jobs_hold_the_margin_only(void **state)
{
    (void)state;
    world *w = window_for(64, 1);
    stream *s = stream_create(w, NULL, synth_column, NULL, 0, 1);
    const int free_jobs = 4; /* 2 * 1 + 2 job slots with no pool */
    stream_set_radius(s, 96);
    stream_set_margin_jobs(s, 1, 40);
    stream_wait(s, 16, 16, 40); /* no limit: four columns a poll */
    assert_true(stream_ready_within(s, 16, 16, 40));
    assert_false(stream_ready_within(s, 16, 16, 96));
    int started = 0, updates = 0;
    while (!stream_ready_within(s, 16, 16, 96) && updates < 1000) {
        stream_update(s, 16, 16);
        int n = stream_get_stats(s).in_flight;
        assert_true(n <= 1); /* nothing near is missing: one at a time */
        started += n, updates++;
    }
    assert_true(stream_ready_within(s, 16, 16, 96));
    assert_true(started > free_jobs); /* so four at once was possible */
    /* a column near the centre goes missing: the next update fills every job */
    for (int cx = -1; cx <= 1; cx++)
        for (int cz = -2; cz <= 2; cz++) world_set_column_state(w, cx, cz, WORLD_COL_EMPTY);
    stream_update(s, 16, 16);
    assert_int_equal(stream_get_stats(s).in_flight, free_jobs);
    /* 0: no limit whatever is missing */
    stream_wait(s, 16, 16, 96);
    stream_set_margin_jobs(s, 0, 40);
    for (int cz = -2; cz <= 2; cz++) world_set_column_state(w, 3, cz, WORLD_COL_EMPTY); /* 80-93 voxels off */
    stream_update(s, 16, 16);
    assert_int_equal(stream_get_stats(s).in_flight, free_jobs);
    stream_wait(s, 16, 16, 96);
    assert_ready_columns_match(w);
    stream_destroy(s);
    world_destroy(w);
}

/* Every column more than 40 voxels from (16, 16) waits while the margin
 * gate is closed: the margin's jobs stay in flight as long as the test
 * wants. */
static atomic_int g_margin_closed;

static bool margin_gated_column(void *ctx, world *col, int cx, int cz)
{
    while (stream_column_distance2(cx, cz, 16, 16) > 40.0 * 40.0 && atomic_load(&g_margin_closed)) {
        struct timespec t = { 0, 200000 };
        nanosleep(&t, NULL);
    }
    return synth_column(ctx, col, cx, cz);
}

/* On a pool, the limit counts what is running: with one margin column
 * held, updates start no other, where without it every job slot fills. */
static void test_margin_jobs_count_what_runs(void **state)
{
    (void)state;
    for (int limit = 1; limit >= 0; limit--) {
        job_pool *jobs = job_pool_create(2);
        world *w = window_for(64, 1);
        stream *s = stream_create(w, jobs, margin_gated_column, NULL, 0, 1);
        stream_set_margin_jobs(s, limit, 40);
        stream_set_radius(s, 40); /* the near disc first, and nothing running after */
        stream_wait(s, 16, 16, 40);
        assert_int_equal(stream_get_stats(s).in_flight, 0);
        atomic_store(&g_margin_closed, 1);
        stream_set_radius(s, 96);
        int most = 0;
        for (int i = 0; i < 20; i++) {
            stream_update(s, 16, 16);
            int n = stream_get_stats(s).in_flight;
            most = n > most ? n : most;
            struct timespec t = { 0, 1000000 };
            nanosleep(&t, NULL);
        }
        assert_int_equal(most, limit ? 1 : 6); /* 2 * 2 + 2 job slots */
        atomic_store(&g_margin_closed, 0);
        stream_wait(s, 16, 16, 96);
        assert_true(stream_ready_within(s, 16, 16, 96));
        assert_ready_columns_match(w);
        stream_destroy(s);
        world_destroy(w);
        job_pool_destroy(jobs);
    }
}

static void test_order_and_workers_do_not_matter(void **state)
{
    (void)state;
    /* two flights to the same place, on 1 and 2 workers, by different
     * paths: the same voxels where both are ready */
    uint64_t h[2];
    for (int t = 0; t < 2; t++) {
        job_pool *jobs = job_pool_create(t + 1);
        world *w = window_for(64, 1);
        stream *s = stream_create(w, jobs, synth_column, NULL, t ? 3 : 1, 1);
        if (t == 0)
            for (int x = 0; x <= 600; x += 40) stream_update(s, x, -x);
        else
            for (int z = 0; z <= 600; z += 70) stream_update(s, -z * 0.5, z);
        stream_wait(s, 300, 300, 80);
        assert_ready_columns_match(w);
        h[t] = hash_around(w, 300, 300, 64);
        stream_destroy(s);
        world_destroy(w);
        job_pool_destroy(jobs);
    }
    assert_true(h[0] == h[1]);
}

static void test_edits_survive_flying_away_and_back(void **state)
{
    (void)state;
    job_pool *jobs = job_pool_create(2);
    world *w = window_for(64, 1);
    stream *s = stream_create(w, jobs, synth_column, NULL, 0, 1);
    stream_wait(s, 0, 0, 64);
    /* a cut and a fill at the origin, and a tint */
    for (int x = -4; x < 4; x++)
        for (int y = 5; y < 15; y++) world_set(w, x, y, 2, MAT_AIR), world_set(w, x, y + 20, 3, MAT_STONE);
    world_set_tint(w, 0, 6, 2, 3);
    int edited = world_count_edited(w);
    assert_true(edited > 0);
    int taken[64]; /* as if saved: they stay edited, no longer unsaved */
    assert_int_equal(world_take_unsaved(w, taken, 64), edited);
    assert_int_equal(w->unsaved_count, 0);
    world_set(w, 3, 4, 2, MAT_AIR); /* one chunk unsaved again */
    size_t bytes0 = stream_window_bytes(w->cx, w->cy);
    /* fly 5 km east, then back */
    for (int x = 0; x <= 5000; x += 50) stream_update(s, x, 0);
    stream_wait(s, 5000, 0, 64);
    stream_stats st = stream_get_stats(s);
    assert_int_equal(st.stored_chunks, edited);
    assert_true(st.stored_bytes < 8 * (sizeof(chunk) + CHUNK_VOLUME) + 4096);
    assert_int_equal(world_get(w, 0, 30, 3), MAT_AIR); /* the fill is outside the window now */
    assert_int_equal(world_count_edited(w), 0);
    for (int x = 5000; x >= 0; x -= 50) stream_update(s, x, 0);
    stream_wait(s, 0, 0, 64);
    for (int x = -4; x < 4; x++)
        for (int y = 5; y < 15; y++) {
            assert_int_equal(world_get(w, x, y, 2), MAT_AIR);
            assert_int_equal(world_get(w, 3, 4, 2), MAT_AIR);
            assert_int_equal(world_get(w, x, y + 20, 3), MAT_STONE);
        }
    assert_int_equal(world_get_tint(w, 0, 6, 2), 3);
    assert_int_equal(stream_get_stats(s).stored_chunks, 0);
    assert_int_equal(world_count_edited(w), edited);
    assert_int_equal(w->unsaved_count, 1);
    /* the world never grew: the window is the memory */
    assert_true(stream_window_bytes(w->cx, w->cy) == bytes0);
    stream_destroy(s);
    world_destroy(w);
    job_pool_destroy(jobs);
}

/* view.distance changed: a stream over a smaller window adopts the big
 * one's columns (none generated again), an edit outside the small window
 * goes to its store with its unsaved flag, and a bigger one after puts it
 * back; an edit the old store held moves with it. */

static void test_adopt_keeps_columns_and_edits(void **state)
{
    (void)state;
    job_pool *jobs = job_pool_create(2);
    world *big = window_for(128, 1), *small = window_for(32, 1), *again = window_for(128, 1);
    stream *s = synth_stream(big, jobs);
    stream_wait(s, 0, 0, 160);
    world_set(big, 2, 5, 2, MAT_AIR);   /* resident in every window below */
    world_set(big, 165, 5, 2, MAT_AIR); /* outside the small one */
    world_set_tint(big, 165, 6, 2, 4);
    for (int x = 0; x <= 2000; x += 50) stream_update(s, x, 0); /* the origin edits into the store... */
    stream_wait(s, 2000, 0, 64);
    world_set(big, 2000, 5, 2, MAT_AIR); /* ...and one here, resident */
    assert_int_equal(stream_get_stats(s).stored_chunks, 2);
    for (int x = 2000; x >= 0; x -= 50) stream_update(s, x, 0);
    stream_wait(s, 0, 0, 160);
    int unsaved = big->unsaved_count + stream_get_stats(s).stored_unsaved;
    assert_int_equal(unsaved, 3);

    stream *t = synth_stream(small, jobs);
    stream_adopt(t, s, 0.5, 0.5); /* waits for s's jobs first */
    long long generated = stream_get_stats(t).generated;
    int calls = atomic_load(&g_calls);
    stream_destroy(s);
    world_destroy(big);
    assert_int_equal(world_column_state(small, 0, 0), WORLD_COL_READY);
    assert_int_equal(world_get(small, 2, 5, 2), MAT_AIR);
    assert_false(world_chunk_valid(small, 165 / CHUNK_SIZE, 0, 0));
    assert_int_equal(stream_get_stats(t).stored_chunks, 2); /* the one at 165 and the one at 2000 */
    assert_int_equal(small->unsaved_count + stream_get_stats(t).stored_unsaved, unsaved);
    int ready = stream_get_stats(t).ready;
    assert_true(ready >= 7 * 7); /* every column within 160 voxels came over ready... */
    while (stream_get_stats(t).ready < small->cx * small->cz) stream_update(t, 0.5, 0.5); /* the whole window */
    int made = stream_get_stats(t).ready - ready; /* ...and only the corners beyond are generated */
    assert_int_equal(atomic_load(&g_calls) - calls, made);
    assert_int_equal(stream_get_stats(t).generated, generated + made); /* counts go on */
    assert_ready_columns_match(small); /* it samples no voxel of the cut */

    stream *u = synth_stream(again, jobs);
    stream_adopt(u, t, 0.5, 0.5);
    stream_destroy(t);
    world_destroy(small);
    stream_wait(u, 0.5, 0.5, 160);
    assert_int_equal(world_get(again, 2, 5, 2), MAT_AIR);
    assert_int_equal(world_get(again, 165, 5, 2), MAT_AIR);
    assert_int_equal(world_get_tint(again, 165, 6, 2), 4);
    assert_int_equal(stream_get_stats(u).stored_chunks, 1); /* 2000 is still away */
    assert_int_equal(again->unsaved_count + stream_get_stats(u).stored_unsaved, unsaved);
    stream_destroy(u);
    world_destroy(again);
    job_pool_destroy(jobs);
}

static void test_failures_retry_never_drop(void **state)
{
    (void)state;
    job_pool *jobs = job_pool_create(2);
    world *w = window_for(32, 0);
    atomic_store(&g_fail_every, 3);
    stream *s = stream_create(w, jobs, synth_column, NULL, 0, 0);
    stream_wait(s, 100, 100, 48);
    atomic_store(&g_fail_every, 0);
    assert_true(stream_ready_within(s, 100, 100, 48));
    assert_true(stream_get_stats(s).retried > 0);
    assert_ready_columns_match(w);
    stream_destroy(s);
    world_destroy(w);
    job_pool_destroy(jobs);
}

static void test_installed_column_marks_its_ring_dirty(void **state)
{
    (void)state;
    world *w = window_for(32, 0);
    stream *s = stream_create(w, NULL, synth_column, NULL, 1, 0); /* no pool: jobs run inline */
    int scratch[4096];
    world_take_dirty(w, scratch, 4096);
    stream_update(s, 16, 16); /* queues (and here runs) the nearest column: (0, 0) */
    world_take_dirty(w, scratch, 4096);
    stream_update(s, 16, 16); /* installs it */
    assert_int_equal(world_column_state(w, 0, 0), WORLD_COL_READY);
    int n = world_take_dirty(w, scratch, 4096);
    assert_int_equal(n, 9 * w->cy);
    for (int i = 0; i < n; i++) {
        int cx, cy, cz;
        world_chunk_coords(w, scratch[i], &cx, &cy, &cz);
        assert_true(cx >= -1 && cx <= 1 && cz >= -1 && cz <= 1);
    }
    stream_destroy(s);
    world_destroy(w);
}

static void test_centre_beyond_the_limit_refused(void **state)
{
    (void)state;
    world *w = window_for(32, 0);
    stream *s = stream_create(w, NULL, synth_column, NULL, 1, 0);
    int ocx = w->ocx;
    assert_false(stream_update(s, 3e9, 0));
    assert_false(stream_update(s, 0, -(double)WORLD_COORD_LIMIT - 10));
    assert_int_equal(w->ocx, ocx);
    assert_true(stream_update(s, 1e7, 1e7));
    assert_int_equal(w->ocx, (int)(1e7 / 32) - w->cx / 2);
    stream_destroy(s);
    world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_window_follows_and_fills),
        cmocka_unit_test(test_column_distance),
        cmocka_unit_test(test_moving_hook_before_each_move),
        cmocka_unit_test(test_radius_generates_a_disc),
        cmocka_unit_test(test_margin_jobs_hold_the_margin_only),
        cmocka_unit_test(test_margin_jobs_count_what_runs),
        cmocka_unit_test(test_order_and_workers_do_not_matter),
        cmocka_unit_test(test_edits_survive_flying_away_and_back),
        cmocka_unit_test(test_adopt_keeps_columns_and_edits),
        cmocka_unit_test(test_failures_retry_never_drop),
        cmocka_unit_test(test_installed_column_marks_its_ring_dirty),
        cmocka_unit_test(test_centre_beyond_the_limit_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

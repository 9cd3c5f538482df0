#include "voxel/stream.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/hash.h"
#include "core/log.h"
#include "core/timer.h"
#include "voxel/stream_store.h"

/* ---- jobs ---- */

enum { JOB_FREE, JOB_RUNNING, JOB_DONE, JOB_FAILED };

typedef struct stream_job {
    stream *s;
    int cx, cz;
    world *col;       /* the job's own one-column window */
    uint64_t fp[64];  /* its chunks' fingerprints as generated (0: not taken) */
    /* paged chunks read back on the worker, after the prints are taken:
     * `read` the layers paged when the job was submitted (0 with no
     * pager), `got` those the pager put over the column, `warn` what it
     * has to say (lines the main thread logs at install: the log is not
     * the workers'), `read_ms` its time */
    stream_page_in_fn pager;
    void *pager_ctx;
    uint32_t read, got;
    double read_ms;
    char warn[2048];
    atomic_int state; /* JOB_*: the worker sets DONE or FAILED last */
} stream_job;

struct stream {
    world *w;
    job_pool *jobs;
    job_group group;
    stream_gen_fn gen;
    void *ctx;
    stream_page_in_fn pager; /* NULL: paged chunks cannot come back (they regenerate) */
    void *pager_ctx;
    /* read-held by stream_read_paged_column's reads through the pager,
     * which run outside the stream's jobs (several at once, as the pager
     * allows), write-held by stream_set_pager while it swaps */
    pthread_rwlock_t pager_lock;
    unsigned paged_version; /* stream_paged_version */
    int hysteresis;
    int radius;      /* voxels: only columns this near the centre are made (0: the whole window) */
    double cx, cz;   /* the centre of the last stream_update */
    stream_moving_fn moving; /* stream_set_moving */
    void *moving_ctx;
    int max_jobs;    /* job slots */
    int active_jobs; /* of those, the ones used (stream_set_workers) */
    int margin_jobs, margin_near; /* stream_set_margin_jobs */
    stream_job *job;
    store st;
    /* per window chunk: its fingerprint as generated, taken on the worker
     * that made it, so a save need not generate the column again */
    uint64_t *fp;
    stream_stats stats;
    int *order; /* scratch: empty columns by distance */
    int *arrived; /* installed columns not yet taken: x, z pairs */
    int arrived_count, arrived_cap;
    float *dist;
};

static void run_job(void *arg)
{
    stream_job *j = arg;
    /* air first, here rather than on the main thread: the arrays came back
     * from the window holding whatever column was there (install) */
    world_clear(j->col);
    bool ok = j->s->gen(j->s->ctx, j->col, j->cx, j->cz);
    for (int y = 0; y < 64; y++) j->fp[y] = ok && y < j->col->cy ? chunk_fingerprint(world_chunk(j->col, j->cx, y, j->cz)) : 0;
    j->got = 0, j->read_ms = 0, j->warn[0] = 0;
    if (ok && j->read) { /* the file's edits over the column here, not on the main thread */
        uint64_t t0 = timer_ns();
        j->got = j->pager(j->pager_ctx, j->col, j->cx, j->cz, j->read, j->warn, sizeof j->warn) & j->read;
        j->read_ms = timer_ms_since(t0);
    }
    atomic_store(&j->state, ok ? JOB_DONE : JOB_FAILED);
}

int stream_window_columns(int distance, int margin, int hysteresis)
{
    if (distance < 0) distance = 0;
    if (margin < 0) margin = 0;
    if (hysteresis < 0) hysteresis = 0;
    /* the centre may sit anywhere in its column: one more each way */
    int reach = (distance + margin + CHUNK_SIZE - 1) / CHUNK_SIZE + 1 + hysteresis;
    return 2 * reach + 1;
}

size_t stream_window_bytes(int columns, int cy)
{
    return (size_t)columns * (size_t)columns * ((size_t)cy * (sizeof(chunk) + CHUNK_VOLUME + 2) + 1);
}

stream *stream_create(world *w, job_pool *jobs, stream_gen_fn gen, void *ctx, int max_in_flight, int hysteresis)
{
    stream *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    pthread_rwlock_init(&s->pager_lock, NULL);
    s->w = w, s->jobs = jobs, s->gen = gen, s->ctx = ctx;
    s->hysteresis = hysteresis < 0 ? 0 : hysteresis;
    s->max_jobs = max_in_flight > 0 ? max_in_flight : 2 * (jobs ? job_pool_threads(jobs) : 1) + 2;
    s->job = calloc((size_t)s->max_jobs, sizeof *s->job);
    s->order = malloc(sizeof(int) * (size_t)w->cx * (size_t)w->cz);
    s->dist = malloc(sizeof(float) * (size_t)w->cx * (size_t)w->cz);
    s->fp = calloc((size_t)w->chunk_count, sizeof *s->fp);
    if (!s->job || !s->order || !s->dist || !s->fp) {
        stream_destroy(s);
        return NULL;
    }
    for (int i = 0; i < s->max_jobs; i++) atomic_init(&s->job[i].state, JOB_FREE);
    s->active_jobs = s->max_jobs;
    /* the stream makes every column: none is ready until it has */
    world_clear(w);
    memset(w->col_state, WORLD_COL_EMPTY, (size_t)w->cx * (size_t)w->cz);
    return s;
}

void stream_destroy(stream *s)
{
    if (!s) return;
    if (s->jobs) job_group_wait(s->jobs, &s->group);
    if (s->job)
        for (int i = 0; i < s->max_jobs; i++) world_destroy(s->job[i].col);
    free(s->job);
    store_free(&s->st);
    free(s->order);
    free(s->dist);
    free(s->fp);
    free(s->arrived);
    pthread_rwlock_destroy(&s->pager_lock);
    free(s);
}

world *stream_world(const stream *s) { return s->w; }

void stream_jobs_joined(stream *s) { s->jobs = NULL; }

bool stream_meshable(const world *w, int cx, int cz)
{
    for (int dz = -1; dz <= 1; dz++)
        for (int dx = -1; dx <= 1; dx++)
            if (world_column_state(w, cx + dx, cz + dz) != WORLD_COL_READY) return false;
    return true;
}

/* The column and its 8 neighbours: their meshes read what just arrived. */
static void mark_column_dirty(world *w, int cx, int cz)
{
    for (int dz = -1; dz <= 1; dz++)
        for (int dx = -1; dx <= 1; dx++)
            for (int y = 0; y < w->cy; y++) world_mark_dirty(w, cx + dx, y, cz + dz);
}

/* Puts a stored edited chunk over the generated one at (cx, cy, cz). A
 * paged one was put into the generated column by the pager already (bit cy
 * of `paged_in`), or is lost to a damaged row and stays generated. */
static void restore_chunk(stream *s, int cx, int cy, int cz, uint32_t paged_in)
{
    stored *e = store_find(&s->st, cx, cy, cz);
    if (!e) return;
    world *w = s->w;
    if (e->paged) {
        if (paged_in >> cy & 1) w->edit[world_chunk_index(w, cx, cy, cz)] = WORLD_EDITED; /* saved: it came from the file */
        store_remove(&s->st, e);
        s->paged_version++;
        return;
    }
    chunk *dst = world_chunk(w, cx, cy, cz);
    memcpy(dst->vox, e->c->vox, CHUNK_VOLUME);
    free(dst->tint);
    dst->tint = e->c->tint; /* ownership moves */
    e->c->tint = NULL;
    int i = world_chunk_index(w, cx, cy, cz);
    if ((e->flags & WORLD_UNSAVED) && !(w->edit[i] & WORLD_UNSAVED)) w->unsaved_count++;
    w->edit[i] = e->flags;
    free(e->c);
    store_remove(&s->st, e);
}

/* The layers of column (cx, cz) whose chunks are paged out. */
static uint32_t paged_layers(const stream *s, int cx, int cz)
{
    uint32_t m = 0;
    for (int y = 0; y < s->w->cy; y++) {
        const stored *e = store_find(&s->st, cx, y, cz);
        if (e && e->paged) m |= 1u << y;
    }
    return m;
}

/* Logs the pager's lines (warnings), main thread. */
static void log_lines(const char *text)
{
    while (*text) {
        const char *nl = strchr(text, '\n');
        int n = nl ? (int)(nl - text) : (int)strlen(text);
        if (n > 0) log_warn("%.*s", n, text);
        text += n + (nl != NULL);
    }
}

/* Paged layers of a column whose edits cannot come back (no pager): they
 * regenerate, and that is said. */
static void warn_no_pager(int cx, int cz)
{
    log_warn("stream: the edits of column %d,%d are in a save file no longer open: it regenerates", cx, cz);
}

/* Reads the paged chunks `want` of column (cx, cz) over `col`, the column
 * as generated, on the calling thread; returns the layers the pager put
 * there. The hash of a column from afar reads this way (main thread). */
static uint32_t page_in(const stream *s, world *col, int cx, int cz, uint32_t want)
{
    if (!want) return 0;
    if (!s->pager) {
        warn_no_pager(cx, cz);
        return 0;
    }
    char warn[2048] = "";
    uint32_t got = s->pager(s->pager_ctx, col, cx, cz, want, warn, sizeof warn) & want;
    log_lines(warn);
    return got;
}

static void install(stream *s, stream_job *j, uint32_t paged)
{
    world *w = s->w;
    uint64_t t0 = paged ? timer_ns() : 0;
    /* the worker put the file's edits over the column before it finished
     * (collect_finished made sure it read every layer paged now): meshing
     * and light read the edited voxels, and nothing saw the generated
     * terrain. A layer it read that is in memory again is overwritten by
     * restore_chunk (memory is newer). */
    log_lines(j->warn);
    if (paged & ~j->read) warn_no_pager(j->cx, j->cz);
    uint32_t paged_in = j->got & paged;
    if (j->read) {
        s->stats.paged_in++;
        s->stats.page_in_ms += j->read_ms;
        if (j->read_ms > s->stats.page_in_ms_max) s->stats.page_in_ms_max = j->read_ms;
    }
    for (int y = 0; y < w->cy; y++) {
        chunk *dst = world_chunk(w, j->cx, y, j->cz), *src = world_chunk(j->col, j->cx, y, j->cz);
        int i = world_chunk_index(w, j->cx, y, j->cz);
        s->fp[i] = y < 64 ? j->fp[y] : 0; /* taken before any page-in */
        /* handed over, not copied: the job's column takes the slot's old
         * array (the shared air of an entered column, mostly) and gets one
         * of its own again when it is next submitted */
        world_swap_vox(w, i, &src->vox);
        free(dst->tint);
        dst->tint = src->tint;
        src->tint = NULL;
        restore_chunk(s, j->cx, y, j->cz, paged_in);
    }
    world_set_column_state(w, j->cx, j->cz, WORLD_COL_READY);
    mark_column_dirty(w, j->cx, j->cz);
    s->stats.generated++;
    if (paged) { /* the main thread's whole cost of a column with paged chunks */
        double ms = timer_ms_since(t0);
        if (ms > s->stats.page_in_main_ms_max) s->stats.page_in_main_ms_max = ms;
    }
    if (s->arrived_count == s->arrived_cap) {
        int cap = s->arrived_cap ? 2 * s->arrived_cap : 64;
        int *a = realloc(s->arrived, sizeof(int) * 2 * (size_t)cap);
        if (!a) return; /* the arrival is not announced; the column is there */
        s->arrived = a, s->arrived_cap = cap;
    }
    s->arrived[2 * s->arrived_count] = j->cx, s->arrived[2 * s->arrived_count + 1] = j->cz;
    s->arrived_count++;
}

static void submit(stream *s, stream_job *j, int cx, int cz)
{
    if (!j->col) j->col = world_create_at(cx, cz, 1, s->w->cy, 1);
    else {
        /* no clear here: the worker clears (run_job), a retry too */
        world_move_scratch(j->col, cx, cz);
        if (!world_own_storage(j->col, s->w)) return; /* arrays for what install handed over */
    }
    if (!j->col) return;
    j->s = s, j->cx = cx, j->cz = cz;
    /* the layers paged now are in the file, committed (a chunk is paged
     * only once the commit that wrote it is on disk), so the worker's read
     * sees them whole; a chunk still in the writer's queue is in memory */
    j->pager = s->pager, j->pager_ctx = s->pager_ctx;
    j->read = s->pager && s->st.live ? paged_layers(s, cx, cz) : 0;
    atomic_store(&j->state, JOB_RUNNING);
    if (s->jobs) job_submit(s->jobs, &s->group, run_job, j);
    else run_job(j);
}

static bool in_flight(const stream *s, int cx, int cz)
{
    for (int i = 0; i < s->max_jobs; i++)
        if (atomic_load(&s->job[i].state) != JOB_FREE && s->job[i].cx == cx && s->job[i].cz == cz) return true;
    return false;
}

/* Whether a layer the job read back has no entry in the store now: its
 * generated voxels are lost under the file's (defensive: only an install
 * of the column removes entries, and it is not installed). */
static bool lost_layers(const stream *s, const stream_job *j)
{
    for (int y = 0; y < s->w->cy && y < 32; y++)
        if ((j->got >> y & 1) && !store_find(&s->st, j->cx, y, j->cz)) return true;
    return false;
}

static void collect_finished(stream *s)
{
    for (int i = 0; i < s->max_jobs; i++) {
        stream_job *j = &s->job[i];
        int st = atomic_load(&j->state);
        if (st != JOB_DONE && st != JOB_FAILED) continue;
        bool wanted = world_chunk_valid(s->w, j->cx, 0, j->cz) &&
                      world_column_state(s->w, j->cx, j->cz) == WORLD_COL_EMPTY;
        if (st == JOB_FAILED && wanted) {
            /* never dropped forever: the same column goes again */
            s->stats.retried++;
            log_warn("stream: generating column %d,%d failed; retrying", j->cx, j->cz);
            submit(s, j, j->cx, j->cz);
            continue;
        }
        uint32_t paged = wanted && s->st.live ? paged_layers(s, j->cx, j->cz) : 0;
        if (wanted && st == JOB_DONE && s->pager && ((paged & ~j->read) || lost_layers(s, j))) {
            /* chunks paged since the job started (a load marked them), or
             * read but gone from the store: the column goes again, so the
             * main thread never reads the file */
            s->stats.page_in_redone++;
            submit(s, j, j->cx, j->cz);
            continue;
        }
        if (wanted) install(s, j, paged);
        else s->stats.dropped++;
        atomic_store(&j->state, JOB_FREE);
    }
}

/* Keeps the edited chunks of the columns outside the window of ncx x ncz
 * columns at (ocx, ocz) the world is about to become (and counts the
 * generated columns it evicts). */
static void store_leaving(stream *s, int ocx, int ocz, int ncx, int ncz)
{
    world *w = s->w;
    for (int sz = 0; sz < w->cz; sz++)
        for (int sx = 0; sx < w->cx; sx++) {
            int cx = w->ocx + sx, cz = w->ocz + sz;
            bool stays = cx >= ocx && cx < ocx + ncx && cz >= ocz && cz < ocz + ncz;
            s->stats.evicted += !stays && world_column_state(w, cx, cz) == WORLD_COL_READY;
        }
    for (int i = 0; i < w->chunk_count; i++) {
        if (!(w->edit[i] & WORLD_EDITED)) continue;
        int cx, cy, cz;
        world_chunk_coords(w, i, &cx, &cy, &cz);
        if (cx >= ocx && cx < ocx + ncx && cz >= ocz && cz < ocz + ncz) continue;
        chunk *c = chunk_new();
        if (!c) {
            log_error("stream: out of memory keeping the edits of chunk %d,%d,%d", cx, cy, cz);
            continue;
        }
        memcpy(c->vox, w->chunks[i].vox, CHUNK_VOLUME);
        c->tint = w->chunks[i].tint; /* ownership moves: world_move would free it */
        w->chunks[i].tint = NULL;
        uint64_t fp = world_column_state(w, cx, cz) == WORLD_COL_READY ? s->fp[i] : 0; /* a slot not ready holds a stale one */
        if (!store_put(&s->st, cx, cy, cz, c, false, w->edit[i], fp)) {
            log_error("stream: out of memory keeping the edits of chunk %d,%d,%d", cx, cy, cz);
            free(c->tint), free(c);
        }
    }
}

static int floor_div(double v)
{
    return (int)floor(v / CHUNK_SIZE);
}

double stream_column_distance2(int cx, int cz, double x, double z)
{
    double dx = fmax(fmax(cx * (double)CHUNK_SIZE - x, x - (cx + 1) * (double)CHUNK_SIZE), 0);
    double dz = fmax(fmax(cz * (double)CHUNK_SIZE - z, z - (cz + 1) * (double)CHUNK_SIZE), 0);
    return dx * dx + dz * dz;
}

/* The k nearest empty columns not in flight within the radius, nearest
 * first, into order[] (an insertion into a sorted list of k: k is a
 * handful of jobs). */
static int nearest_empty(stream *s, double x, double z, int k)
{
    world *w = s->w;
    int n = 0;
    for (int sz = 0; sz < w->cz; sz++)
        for (int sx = 0; sx < w->cx; sx++) {
            int cx = w->ocx + sx, cz = w->ocz + sz;
            if (world_column_state(w, cx, cz) != WORLD_COL_EMPTY || in_flight(s, cx, cz)) continue;
            double d2 = stream_column_distance2(cx, cz, x, z);
            if (s->radius > 0 && d2 > (double)s->radius * s->radius) continue; /* not wanted yet */
            int id = sx + sz * w->cx;
            float d = (float)d2;
            s->dist[id] = d;
            int pos;
            if (n < k) pos = n++;
            else if (d >= s->dist[s->order[k - 1]]) continue;
            else pos = k - 1;
            while (pos > 0 && s->dist[s->order[pos - 1]] > d) {
                s->order[pos] = s->order[pos - 1];
                pos--;
            }
            s->order[pos] = id;
        }
    return n;
}

void stream_adopt(stream *to, stream *from, double x, double z)
{
    /* what is generating now lands in from's window first */
    if (from->jobs) job_group_wait(from->jobs, &from->group);
    collect_finished(from);
    world *fw = from->w, *tw = to->w;
    int limit = WORLD_COORD_LIMIT / CHUNK_SIZE;
    int ocx = floor_div(x) - tw->cx / 2, ocz = floor_div(z) - tw->cz / 2;
    ocx = ocx < -limit ? -limit : ocx > limit - tw->cx ? limit - tw->cx : ocx;
    ocz = ocz < -limit ? -limit : ocz > limit - tw->cz ? limit - tw->cz : ocz;
    world_move_release(tw, ocx, ocz); /* empty: nothing leaves; its arrays to spare, fw's come in */
    /* the edited chunks the new window does not cover, then the old store */
    store_leaving(from, ocx, ocz, tw->cx, tw->cz);
    for (int i = 0; i < from->st.cap; i++) {
        stored *e = &from->st.e[i];
        if (!store_live(e)) continue;
        if (!store_put(&to->st, e->cx, e->cy, e->cz, e->c, e->paged, e->flags, e->gen_fp)) {
            log_error("stream: out of memory keeping the edits of chunk %d,%d,%d", e->cx, e->cy, e->cz);
            store_free_chunk(e->c);
        }
        store_remove(&from->st, e);
    }
    to->paged_version = from->paged_version + 1;
    /* the ready columns both windows cover, as they are (edits and flags) */
    for (int sz = 0; sz < fw->cz; sz++)
        for (int sx = 0; sx < fw->cx; sx++) {
            int cx = fw->ocx + sx, cz = fw->ocz + sz;
            if (world_column_state(fw, cx, cz) != WORLD_COL_READY || !world_chunk_valid(tw, cx, 0, cz)) continue;
            for (int y = 0; y < tw->cy; y++) {
                int fi = world_chunk_index(fw, cx, y, cz), ti = world_chunk_index(tw, cx, y, cz);
                world_swap_vox(tw, ti, &fw->chunks[fi].vox); /* fw is destroyed: its arrays move */
                free(tw->chunks[ti].tint);
                tw->chunks[ti].tint = fw->chunks[fi].tint; /* ownership moves */
                fw->chunks[fi].tint = NULL;
                tw->edit[ti] = fw->edit[fi];
                to->fp[ti] = from->fp[fi];
                tw->unsaved_count += (fw->edit[fi] & WORLD_UNSAVED) != 0;
            }
            world_set_column_state(tw, cx, cz, WORLD_COL_READY);
            mark_column_dirty(tw, cx, cz);
        }
    to->pager = from->pager, to->pager_ctx = from->pager_ctx; /* its paged chunks are the same file's */
    to->stats = from->stats; /* counters go on from where they were */
    to->stats.moves++;
}

/* 1: the window moves to (ocx, ocz); 0: it stays; -1: it would pass the
 * coordinate limit (it stays). */
static int next_origin(const stream *s, double x, double z, int *ocx, int *ocz)
{
    const world *w = s->w;
    int ccx = floor_div(x), ccz = floor_div(z);
    int mid_x = w->ocx + w->cx / 2, mid_z = w->ocz + w->cz / 2;
    if (abs(ccx - mid_x) <= s->hysteresis && abs(ccz - mid_z) <= s->hysteresis) return 0;
    *ocx = ccx - w->cx / 2, *ocz = ccz - w->cz / 2;
    int limit = WORLD_COORD_LIMIT / CHUNK_SIZE;
    return *ocx < -limit || *ocz < -limit || *ocx > limit - w->cx || *ocz > limit - w->cz ? -1 : 1;
}

void stream_set_moving(stream *s, stream_moving_fn fn, void *ctx)
{
    s->moving = fn;
    s->moving_ctx = ctx;
}

bool stream_update(stream *s, double x, double z)
{
    world *w = s->w;
    collect_finished(s);
    s->cx = x, s->cz = z;
    int ocx, ocz, move = next_origin(s, x, z, &ocx, &ocz);
    if (move == 1) {
        if (s->moving) s->moving(s->moving_ctx, ocx, ocz);
        store_leaving(s, ocx, ocz, w->cx, w->cz);
        world_move_release(w, ocx, ocz); /* no clear: the leaving arrays go back to the spare list */
        s->stats.moves++;
    }
    bool ok = move != -1;
    int free_jobs = 0;
    for (int i = 0; i < s->active_jobs; i++) free_jobs += atomic_load(&s->job[i].state) == JOB_FREE;
    if (free_jobs > 0) {
        int n = nearest_empty(s, x, z, free_jobs);
        /* the nearest column not started decides: when it is beyond
         * `near`, so are all of them, and only the margin is wanted */
        if (s->margin_jobs > 0 && n > 0 && s->dist[s->order[0]] > (float)s->margin_near * (float)s->margin_near) {
            int room = s->margin_jobs - (s->active_jobs - free_jobs);
            n = room < 0 ? 0 : n < room ? n : room;
        }
        for (int i = 0, k = 0; i < n && k < s->active_jobs; k++) {
            if (atomic_load(&s->job[k].state) != JOB_FREE) continue;
            int id = s->order[i++];
            submit(s, &s->job[k], w->ocx + id % w->cx, w->ocz + id / w->cx);
        }
    }
    return ok;
}

/* Counts the columns within `radius` of (x, z), and the ready ones among
 * them; stops at the first that is not ready when `all` is asked for. */
static void count_within(const stream *s, double x, double z, int radius, bool all, int *total, int *ready)
{
    const world *w = s->w;
    int x0 = floor_div(x - radius), x1 = floor_div(x + radius), z0 = floor_div(z - radius), z1 = floor_div(z + radius);
    *total = *ready = 0;
    for (int cz = z0; cz <= z1; cz++)
        for (int cx = x0; cx <= x1; cx++) {
            if (stream_column_distance2(cx, cz, x, z) > (double)radius * radius) continue;
            ++*total;
            if (world_column_state(w, cx, cz) == WORLD_COL_READY) ++*ready;
            else if (all) return;
        }
}

bool stream_ready_within(const stream *s, double x, double z, int radius)
{
    int total, ready;
    count_within(s, x, z, radius, true, &total, &ready);
    return ready == total;
}

float stream_ready_fraction(const stream *s, double x, double z, int radius)
{
    int total, ready;
    count_within(s, x, z, radius, false, &total, &ready);
    return total ? (float)ready / (float)total : 1.f;
}

void stream_wait(stream *s, double x, double z, int radius) { stream_wait_each(s, x, z, radius, NULL, NULL); }

void stream_wait_each(stream *s, double x, double z, int radius, void (*between)(void *arg), void *arg)
{
    /* never more than the window can hold around its centre, nor than the
     * stream makes (stream_set_radius): a wait for what is never made
     * would not end */
    int most = (s->w->cx / 2 - 1 - s->hysteresis) * CHUNK_SIZE;
    if (s->radius > 0 && s->radius < most) most = s->radius;
    if (radius > most) radius = most;
    int margin_jobs = s->margin_jobs;
    s->margin_jobs = 0; /* a wait wants everything, and frames wait on it */
    for (;;) {
        if (!stream_update(s, x, z)) break;
        if (stream_ready_within(s, x, z, radius)) break;
        if (between) between(arg);
        struct timespec t = { 0, 500000 };
        nanosleep(&t, NULL);
    }
    s->margin_jobs = margin_jobs;
}

void stream_each_stored(const stream *s, void (*fn)(void *arg, int cx, int cy, int cz, const chunk *c), void *arg)
{
    for (int i = 0; i < s->st.cap; i++)
        if (s->st.e[i].c) fn(arg, s->st.e[i].cx, s->st.e[i].cy, s->st.e[i].cz, s->st.e[i].c);
}

int stream_take_stored_unsaved(stream *s, void (*fn)(void *arg, int cx, int cy, int cz, const chunk *c), void *arg)
{
    int n = 0;
    for (int i = 0; i < s->st.cap; i++) {
        stored *e = &s->st.e[i];
        if (!e->c || !(e->flags & WORLD_UNSAVED)) continue;
        fn(arg, e->cx, e->cy, e->cz, e->c);
        e->flags &= (uint8_t)~WORLD_UNSAVED;
        n++;
    }
    return n;
}

void stream_mark_stored_unsaved(stream *s)
{
    for (int i = 0; i < s->st.cap; i++)
        if (s->st.e[i].c) s->st.e[i].flags |= WORLD_EDITED | WORLD_UNSAVED;
}

bool stream_generate_column(const stream *s, world *column, int cx, int cz)
{
    if (column->cx != 1 || column->cz != 1 || column->ocx != cx || column->ocz != cz || column->cy != s->w->cy)
        return false;
    world_clear(column);
    return s->gen(s->ctx, column, cx, cz);
}

bool stream_store_chunk(stream *s, int cx, int cy, int cz, const uint8_t *vox, const uint8_t *tint)
{
    if (cy < 0 || cy >= s->w->cy) return false;
    chunk *c = chunk_new();
    if (!c) return false;
    memcpy(c->vox, vox, CHUNK_VOLUME);
    if (tint) {
        c->tint = malloc(CHUNK_VOLUME);
        if (!c->tint) return free(c), false;
        memcpy(c->tint, tint, CHUNK_VOLUME);
    }
    if (!store_put(&s->st, cx, cy, cz, c, false, WORLD_EDITED, 0)) return store_free_chunk(c), false;
    if (world_column_state(s->w, cx, cz) == WORLD_COL_READY) {
        restore_chunk(s, cx, cy, cz, 0);
        mark_column_dirty(s->w, cx, cz);
    }
    return true;
}

void stream_set_pager(stream *s, stream_page_in_fn fn, void *ctx)
{
    /* the jobs in flight may be reading through the old one, and so may
     * a stream_read_paged_column */
    if (s->jobs) job_group_wait(s->jobs, &s->group);
    pthread_rwlock_wrlock(&s->pager_lock);
    s->pager = fn, s->pager_ctx = ctx;
    pthread_rwlock_unlock(&s->pager_lock);
}

int stream_page_out_saved(stream *s)
{
    int n = 0;
    for (int i = 0; i < s->st.cap; i++) {
        stored *e = &s->st.e[i];
        if (!e->c || (e->flags & WORLD_UNSAVED)) continue;
        /* its column is generating: the job was given it from memory, so
         * the install restores it from here (the next call pages it) */
        if (in_flight(s, e->cx, e->cz)) continue;
        store_free_chunk(e->c);
        e->c = NULL, e->paged = true;
        n++;
    }
    if (n) s->paged_version++;
    return n;
}

bool stream_mark_paged(stream *s, int cx, int cy, int cz)
{
    if (cy < 0 || cy >= s->w->cy || world_column_state(s->w, cx, cz) == WORLD_COL_READY) return false;
    if (!store_put(&s->st, cx, cy, cz, NULL, true, WORLD_EDITED, 0)) return false;
    s->paged_version++;
    return true;
}

unsigned stream_paged_version(const stream *s) { return s->paged_version; }

uint32_t stream_paged_layers(const stream *s, int cx, int cz) { return s->st.live ? paged_layers(s, cx, cz) : 0; }

static int by_column_pair(const void *a, const void *b)
{
    const int *p = a, *q = b;
    return p[0] != q[0] ? (p[0] > q[0]) - (p[0] < q[0]) : (p[1] > q[1]) - (p[1] < q[1]);
}

int stream_paged_columns(const stream *s, int **cxz)
{
    *cxz = NULL;
    if (!s->st.live) return 0;
    int *p = malloc(sizeof(int) * 2 * (size_t)s->st.live); /* a live entry a chunk at most */
    if (!p) return -1;
    int k = 0;
    for (int i = 0; i < s->st.cap; i++) {
        const stored *e = &s->st.e[i];
        if (e->paged && world_column_state(s->w, e->cx, e->cz) != WORLD_COL_READY) p[2 * k] = e->cx, p[2 * k + 1] = e->cz, k++;
    }
    if (!k) {
        free(p);
        return 0;
    }
    qsort(p, (size_t)k, sizeof(int) * 2, by_column_pair);
    int u = 0; /* one entry a column: its layers are neighbours once sorted */
    for (int i = 0; i < k; i++)
        if (!u || p[2 * i] != p[2 * (u - 1)] || p[2 * i + 1] != p[2 * (u - 1) + 1])
            p[2 * u] = p[2 * i], p[2 * u + 1] = p[2 * i + 1], u++;
    *cxz = p;
    return u;
}

bool stream_read_paged_column(stream *s, world *column, int cx, int cz, uint32_t layers, uint32_t *got, char *warn,
                              size_t warnlen)
{
    *got = 0;
    if (warnlen) warn[0] = 0;
    if (!stream_generate_column(s, column, cx, cz)) return false;
    if (!layers) return true;
    pthread_rwlock_rdlock(&s->pager_lock);
    if (s->pager) *got = s->pager(s->pager_ctx, column, cx, cz, layers, warn, warnlen) & layers;
    pthread_rwlock_unlock(&s->pager_lock);
    return true;
}

uint64_t stream_generated_fingerprint(const stream *s, int cx, int cy, int cz)
{
    if (cy < 0 || cy >= s->w->cy) return 0;
    if (world_column_state(s->w, cx, cz) == WORLD_COL_READY) return s->fp[world_chunk_index(s->w, cx, cy, cz)];
    const stored *e = store_find(&s->st, cx, cy, cz);
    return e ? e->gen_fp : 0;
}

void stream_set_radius(stream *s, int voxels) { s->radius = voxels > 0 ? voxels : 0; }

void stream_set_margin_jobs(stream *s, int jobs, int near)
{
    s->margin_jobs = jobs > 0 ? jobs : 0;
    s->margin_near = near > 0 ? near : 0;
}

void stream_set_workers(stream *s, int workers)
{
    /* slots beyond the limit finish what they run; they get nothing new */
    s->active_jobs = workers > 0 && workers < s->max_jobs ? workers : s->max_jobs;
}

bool stream_hash_column(const stream *s, world *scratch, int cx, int cz, uint64_t *h)
{
    const world *w = s->w;
    *h = hash_u64(*h, ((uint64_t)(uint32_t)cx << 32) | (uint32_t)cz);
    if (world_column_state(w, cx, cz) == WORLD_COL_READY) {
        for (int cy = 0; cy < w->cy; cy++) *h = world_hash_chunk(*h, &w->chunks[world_chunk_index(w, cx, cy, cz)]);
        return true;
    }
    /* not here: what the stream would install, stored edits included */
    world_move(scratch, cx, cz);
    if (!stream_generate_column(s, scratch, cx, cz)) return false;
    page_in(s, scratch, cx, cz, paged_layers(s, cx, cz)); /* the file's chunks over it, as install does */
    for (int cy = 0; cy < w->cy; cy++) {
        const stored *e = store_find(&s->st, cx, cy, cz);
        *h = world_hash_chunk(*h, e && e->c ? e->c : &scratch->chunks[world_chunk_index(scratch, cx, cy, cz)]);
    }
    return true;
}

int stream_take_arrived(stream *s, int *cx, int *cz, int max)
{
    int n = s->arrived_count < max ? s->arrived_count : max;
    if (n <= 0) return 0; /* a stream that adopted its columns may have no list yet: no memmove of NULL */
    for (int i = 0; i < n; i++) cx[i] = s->arrived[2 * i], cz[i] = s->arrived[2 * i + 1];
    memmove(s->arrived, s->arrived + 2 * n, sizeof(int) * 2 * (size_t)(s->arrived_count - n));
    s->arrived_count -= n;
    return n;
}

stream_stats stream_get_stats(const stream *s)
{
    stream_stats t = s->stats;
    const world *w = s->w;
    t.resident = w->cx * w->cz;
    t.ready = 0;
    for (int i = 0; i < w->cx * w->cz; i++) t.ready += w->col_state[i] == WORLD_COL_READY;
    if (s->radius > 0) count_within(s, s->cx, s->cz, s->radius, false, &t.wanted, &t.wanted_ready);
    else t.wanted = t.resident, t.wanted_ready = t.ready;
    t.in_flight = 0;
    for (int i = 0; i < s->max_jobs; i++) t.in_flight += atomic_load(&s->job[i].state) != JOB_FREE;
    t.paged_chunks = 0;
    t.stored_unsaved = 0;
    for (int i = 0; i < s->st.cap; i++) t.paged_chunks += s->st.e[i].paged;
    t.stored_chunks = s->st.live - t.paged_chunks;
    t.stored_bytes = (size_t)t.stored_chunks * (sizeof(chunk) + CHUNK_VOLUME) + (size_t)s->st.cap * sizeof(stored);
    for (int i = 0; i < s->st.cap; i++) {
        if (s->st.e[i].c && s->st.e[i].c->tint) t.stored_bytes += CHUNK_VOLUME;
        t.stored_unsaved += s->st.e[i].c && (s->st.e[i].flags & WORLD_UNSAVED);
    }
    return t;
}

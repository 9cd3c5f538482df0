#include "app_far_edits.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "core/log.h"
#include "core/timer.h"
#include "voxel/material.h"

/* Summaries of paged columns made at once: enough to keep the workers
 * busy beside the stream's own jobs, few enough that their column windows
 * (cy chunks each) stay small. */
#define SUMMARY_JOBS 4
/* How often the paged set is looked at again while the player moves or
 * the set changes, unless a wait asks now: a scan walks the stream's
 * store, and columns read back on arrival change the set every frame. */
#define RESCAN_SECONDS 0.25

typedef struct summary_job {
    stream *st;
    int cx, cz;
    uint32_t layers, got;
    bool busy, ok;
    world *col;
    far_edit e;
    char warn[1024];
    job_group group;
} summary_job;

struct far_edit_set {
    far_edit_changed_fn changed;
    void *arg;
    far_edit *e;
    int count, cap;
    int *index; /* open addressing on (cx, cz): entry + 1, 0 empty */
    int index_cap;
    /* the file's columns still to summarize, farthest first (taken from the end) */
    const stream *seen;
    unsigned seen_version;
    bool scanned;
    double scan_x, scan_z;
    uint64_t scan_t;
    int *pend;
    int npend;
    int read;
    summary_job job[SUMMARY_JOBS];
};

/* ---- the summaries and their index ---- */

static unsigned slot_of(const far_edit_set *s, int cx, int cz)
{
    uint64_t h = hash_u64(HASH_SEED, ((uint64_t)(uint32_t)cx << 32) | (uint32_t)cz);
    return (unsigned)(h & (uint64_t)(s->index_cap - 1));
}

static far_edit *find(const far_edit_set *s, int cx, int cz)
{
    if (!s->index_cap) return NULL;
    for (unsigned i = slot_of(s, cx, cz);; i = (i + 1) & (unsigned)(s->index_cap - 1)) {
        int k = s->index[i];
        if (!k) return NULL;
        if (s->e[k - 1].cx == cx && s->e[k - 1].cz == cz) return &s->e[k - 1];
    }
}

/* Every entry into the index, emptied first (after a removal or a grow:
 * both rare beside lookups). */
static void fill_index(far_edit_set *s)
{
    memset(s->index, 0, sizeof *s->index * (size_t)s->index_cap);
    for (int k = 0; k < s->count; k++) {
        unsigned i = slot_of(s, s->e[k].cx, s->e[k].cz);
        while (s->index[i]) i = (i + 1) & (unsigned)(s->index_cap - 1);
        s->index[i] = k + 1;
    }
}

/* A new entry for (cx, cz), not yet in the set; NULL when there is no memory. */
static far_edit *add(far_edit_set *s, int cx, int cz)
{
    if (s->count == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        far_edit *grown = realloc(s->e, sizeof *grown * (size_t)cap);
        if (!grown) return NULL;
        s->e = grown, s->cap = cap;
    }
    if (2 * (s->count + 1) > s->index_cap) {
        int cap = s->index_cap ? 2 * s->index_cap : 64;
        int *ix = malloc(sizeof *ix * (size_t)cap);
        if (!ix) return NULL;
        free(s->index);
        s->index = ix, s->index_cap = cap;
        fill_index(s);
    }
    far_edit *e = &s->e[s->count++];
    e->cx = cx, e->cz = cz;
    unsigned i = slot_of(s, cx, cz);
    while (s->index[i]) i = (i + 1) & (unsigned)(s->index_cap - 1);
    s->index[i] = s->count;
    return e;
}

static void drop(far_edit_set *s, far_edit *e)
{
    *e = s->e[--s->count];
    fill_index(s);
}

/* Column (cx, cz) of w, from the top down at each voxel column. */
static void summarize(const world *w, int cx, int cz, far_edit *e)
{
    for (int lz = 0; lz < CHUNK_SIZE; lz++)
        for (int lx = 0; lx < CHUNK_SIZE; lx++) {
            int x = cx * CHUNK_SIZE + lx, z = cz * CHUNK_SIZE + lz, y = w->sy - 1;
            while (y > 0 && material_get(world_get(w, x, y, z))->pass == PASS_NONE) y--;
            e->top[lz * CHUNK_SIZE + lx] = (int16_t)y;
            e->mat[lz * CHUNK_SIZE + lx] = world_get(w, x, y, z);
        }
}

far_edit_set *far_edits_create(far_edit_changed_fn changed, void *arg)
{
    far_edit_set *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->changed = changed, s->arg = arg;
    return s;
}

void far_edits_destroy(far_edit_set *s)
{
    if (!s) return;
    for (int i = 0; i < SUMMARY_JOBS; i++) world_destroy(s->job[i].col);
    free(s->e);
    free(s->index);
    free(s->pend);
    free(s);
}

void far_edits_forget(far_edit_set *s, job_pool *jobs, bool all)
{
    if (!s) return;
    for (int i = 0; i < SUMMARY_JOBS; i++) {
        summary_job *j = &s->job[i];
        if (j->busy && jobs) job_group_wait(jobs, &j->group);
        j->busy = false;
    }
    free(s->pend);
    s->pend = NULL, s->npend = 0;
    s->seen = NULL, s->scanned = false;
    if (all) {
        s->count = 0;
        s->read = 0;
        if (s->index) memset(s->index, 0, sizeof *s->index * (size_t)s->index_cap);
    }
}

int far_edits_count(const far_edit_set *s) { return s ? s->count : 0; }
int far_edits_read_count(const far_edit_set *s) { return s ? s->read : 0; }

void far_edits_take(far_edit_set *s, const world *w, int cx, int cz)
{
    if (world_column_state(w, cx, cz) != WORLD_COL_READY) return;
    bool edited = false;
    for (int cy = 0; cy < w->cy && !edited; cy++) edited = w->edit[world_chunk_index(w, cx, cy, cz)] & WORLD_EDITED;
    far_edit *e = find(s, cx, cz);
    if (!edited) {
        if (e) {
            drop(s, e);
            s->changed(s->arg, cx, cz);
        }
        return;
    }
    if (!e) e = add(s, cx, cz);
    if (!e) {
        log_warn("far: no memory for an edited column's summary: the far rings show it unedited");
        return;
    }
    summarize(w, cx, cz, e);
    s->changed(s->arg, cx, cz);
}

void far_edits_copy(const far_edit_set *s, far_edits *out)
{
    out->count = 0;
    out->e = NULL;
    if (!s->count) return;
    out->e = malloc(sizeof(far_edit) * (size_t)s->count);
    if (!out->e) return;
    memcpy(out->e, s->e, sizeof(far_edit) * (size_t)s->count);
    out->count = s->count;
}

/* ---- columns whose edits are in the file ---- */

static void run_summary(void *arg)
{
    summary_job *j = arg;
    j->warn[0] = 0;
    world_move_scratch(j->col, j->cx, j->cz);
    j->ok = stream_read_paged_column(j->st, j->col, j->cx, j->cz, j->layers, &j->got, j->warn, sizeof j->warn);
    if (j->ok) summarize(j->col, j->cx, j->cz, &j->e);
}

static bool in_flight(const far_edit_set *s, int cx, int cz)
{
    for (int i = 0; i < SUMMARY_JOBS; i++)
        if (s->job[i].busy && s->job[i].cx == cx && s->job[i].cz == cz) return true;
    return false;
}

/* A finished job's summary goes in, unless the column came meanwhile (its
 * arrival took one from the window, or found it unedited). */
static void land(far_edit_set *s, summary_job *j)
{
    j->busy = false;
    for (const char *p = j->warn; *p;) {
        const char *nl = strchr(p, '\n');
        int n = nl ? (int)(nl - p) : (int)strlen(p);
        if (n > 0) log_warn("far: %.*s", n, p);
        p += n + (nl != NULL);
    }
    if (!j->ok) return; /* looked for again at the next scan */
    if (find(s, j->cx, j->cz) || world_column_state(stream_world(j->st), j->cx, j->cz) == WORLD_COL_READY) return;
    far_edit *e = add(s, j->cx, j->cz);
    if (!e) {
        log_warn("far: no memory for an edited column's summary: the far rings show it unedited");
        return;
    }
    memcpy(e->top, j->e.top, sizeof e->top);
    memcpy(e->mat, j->e.mat, sizeof e->mat);
    s->read++;
    s->changed(s->arg, j->cx, j->cz);
}

typedef struct candidate {
    double d2; /* its squared distance from the player */
    int cx, cz;
} candidate;

static int farthest_first(const void *a, const void *b)
{
    const double p = ((const candidate *)a)->d2, q = ((const candidate *)b)->d2;
    return (p < q) - (p > q); /* the nearest is taken from the end */
}

/* The paged columns of st within `radius` of (x, z) that lack a summary. */
static void scan(far_edit_set *s, const stream *st, double x, double z, double radius)
{
    int *cxz = NULL;
    int n = stream_paged_columns(st, &cxz);
    if (n < 0) return; /* no memory: the next scan tries again */
    candidate *c = n ? malloc(sizeof *c * (size_t)n) : NULL;
    if (n && !c) {
        free(cxz);
        return;
    }
    int k = 0;
    for (int i = 0; i < n; i++) {
        int cx = cxz[2 * i], cz = cxz[2 * i + 1];
        double d2 = stream_column_distance2(cx, cz, x, z);
        if (find(s, cx, cz) || in_flight(s, cx, cz) || d2 > radius * radius) continue;
        c[k++] = (candidate){ d2, cx, cz };
    }
    if (k > 1) qsort(c, (size_t)k, sizeof *c, farthest_first);
    for (int i = 0; i < k; i++) cxz[2 * i] = c[i].cx, cxz[2 * i + 1] = c[i].cz;
    free(c);
    free(s->pend);
    s->pend = cxz, s->npend = k;
    s->seen_version = stream_paged_version(st);
    s->scanned = true;
    s->scan_x = x, s->scan_z = z;
    s->scan_t = timer_ns();
}

static bool any_busy(const far_edit_set *s)
{
    for (int i = 0; i < SUMMARY_JOBS; i++)
        if (s->job[i].busy) return true;
    return false;
}

/* The paged set changed, or the player moved an eighth of the radius,
 * since the last scan. */
static bool stale(const far_edit_set *s, const stream *st, double x, double z, double radius)
{
    return !s->scanned || s->seen_version != stream_paged_version(st) ||
           fabs(x - s->scan_x) + fabs(z - s->scan_z) > radius / 8.0;
}

void far_edits_saved_step(far_edit_set *s, stream *st, job_pool *jobs, double x, double z, double radius, bool wait)
{
    if (!s) return;
    if (st != s->seen) {
        far_edits_forget(s, jobs, false);
        s->seen = st;
    }
    if (!st) return;
    int slots = jobs ? job_pool_threads(jobs) : 1;
    if (slots > SUMMARY_JOBS) slots = SUMMARY_JOBS;
    for (;;) {
        for (int i = 0; i < SUMMARY_JOBS; i++) {
            summary_job *j = &s->job[i];
            if (j->busy && (!jobs || job_group_done(jobs, &j->group))) land(s, j);
        }
        if (stale(s, st, x, z, radius) && (wait || !s->scanned || timer_ms_since(s->scan_t) > RESCAN_SECONDS * 1000.0))
            scan(s, st, x, z, radius);
        const world *w = stream_world(st);
        for (int i = 0; i < slots; i++) {
            summary_job *j = &s->job[i];
            while (!j->busy && s->npend) {
                s->npend--;
                int cx = s->pend[2 * s->npend], cz = s->pend[2 * s->npend + 1];
                if (find(s, cx, cz) || world_column_state(w, cx, cz) == WORLD_COL_READY) continue;
                if (!j->col) j->col = world_create_at(cx, cz, 1, w->cy, 1);
                if (!j->col) { /* no memory: the column waits in the list */
                    s->npend++;
                    break;
                }
                j->st = st, j->cx = cx, j->cz = cz;
                j->layers = stream_paged_layers(st, cx, cz);
                j->busy = true;
                memset(&j->group, 0, sizeof j->group);
                if (jobs) job_submit(jobs, &j->group, run_summary, j);
                else run_summary(j);
            }
        }
        if (!wait || (!s->npend && !any_busy(s) && !stale(s, st, x, z, radius))) return;
        for (int i = 0; i < SUMMARY_JOBS; i++)
            if (s->job[i].busy && jobs) {
                job_group_wait(jobs, &s->job[i].group);
                break;
            }
    }
}

bool far_edits_saved_done(const far_edit_set *s, const stream *st, double x, double z, double radius)
{
    if (!s || !st) return true;
    return s->seen == st && !s->npend && !any_busy(s) && !stale(s, st, x, z, radius);
}

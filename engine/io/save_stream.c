/* save_stream: a streamed world's edits to and from the file. Chunks are
 * keyed by global chunk coordinates (stream_chunks), and each row carries
 * the fingerprint of its chunk as generated: the stream regenerates the
 * chunk's column with its own generator when the chunk is saved and again
 * when it is loaded, so a row whose terrain the generator no longer makes,
 * like a row that does not decode, is skipped alone and the rest of the
 * world loads. There is no whole generated world to fingerprint. */
#include "io/save.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobs.h"
#include "core/log.h"
#include "io/save_internal.h"
#include "voxel/chunk_codec.h"
#include "voxel/stream.h"

typedef struct entry {
    int cx, cy, cz;
    chunk *c;          /* saving: the copy to write; loading: the decoded chunk (NULL until then) */
    uint64_t gen_hash; /* saving: computed here; loading: the row's (0: none recorded) */
    void *blob;        /* loading: the row's record */
    size_t len;
    char why[160];     /* loading: why the row is skipped ("" when it loads) */
    bool mismatch;     /* loading: decoded, but its terrain is not the generator's now */
    bool known;        /* saving: gen_hash came from the file's fingerprints */
} entry;

typedef struct entries {
    entry *e;
    int count, cap;
} entries;

static entry *entries_add(entries *l, int cx, int cy, int cz)
{
    if (l->count == l->cap) {
        int cap = l->cap ? 2 * l->cap : 64;
        entry *n = realloc(l->e, sizeof *n * (size_t)cap);
        if (!n) return NULL;
        l->e = n, l->cap = cap;
    }
    entry *e = &l->e[l->count++];
    memset(e, 0, sizeof *e);
    e->cx = cx, e->cy = cy, e->cz = cz;
    return e;
}

static int by_column(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->cx != y->cx) return x->cx < y->cx ? -1 : 1;
    if (x->cz != y->cz) return x->cz < y->cz ? -1 : 1;
    return (x->cy > y->cy) - (x->cy < y->cy);
}

/* One job per column: regenerate it once for every entry in it. */
typedef struct column_work {
    const stream *s;
    entry *e;
    int *first; /* entries of column k: [first[k], first[k + 1]) */
    bool load;
} column_work;

/* The entries e0[0..n) of one column against `col`, that column as
 * generated (NULL: its generation failed): saving, their fingerprints;
 * loading, each record decoded and checked (why says what is wrong). */
static void check_column(entry *e0, int n, const world *col, int cy, bool load)
{
    chunk_codec *cc = load ? chunk_codec_create() : NULL;
    for (entry *e = e0; e < e0 + n; e++) {
        bool layer = e->cy >= 0 && e->cy < cy;
        const chunk *gen = col && layer ? world_chunk(col, e->cx, e->cy, e->cz) : NULL;
        if (!load) {
            if (!e->known) e->gen_hash = gen && e->c ? save_chunk_fingerprint(gen) : 0;
            continue;
        }
        if (!layer) {
            snprintf(e->why, sizeof e->why, "layer %d is outside the world's %d", e->cy, cy);
            continue;
        }
        e->c = chunk_new();
        char why[120];
        if (!e->c || !cc) snprintf(e->why, sizeof e->why, "out of memory");
        else if (!chunk_codec_decode(cc, e->blob, e->len, e->c, why, sizeof why))
            snprintf(e->why, sizeof e->why, "%s", why);
        else if (gen && e->gen_hash && save_chunk_fingerprint(gen) != e->gen_hash) {
            snprintf(e->why, sizeof e->why, "the generator now makes other terrain there");
            e->mismatch = true;
        }
    }
    chunk_codec_destroy(cc);
}

static void column_job(void *arg, int k)
{
    column_work *cw = arg;
    entry *e0 = &cw->e[cw->first[k]];
    int n = cw->first[k + 1] - cw->first[k];
    bool all_known = !cw->load;
    for (int i = 0; i < n && all_known; i++) all_known = e0[i].known;
    if (all_known) return; /* saved before: no need to generate it again */
    const world *w = stream_world(cw->s);
    world *col = world_create_at(e0->cx, e0->cz, 1, w->cy, 1);
    /* a generator that fails now (it is retried in play) leaves the chunk
     * unchecked rather than lost: gen_hash 0 means "not recorded" */
    bool generated = col && stream_generate_column(cw->s, col, e0->cx, e0->cz);
    check_column(e0, n, generated ? col : NULL, w->cy, cw->load);
    world_destroy(col);
}

/* Runs column_job over the columns of e[0..n) (sorted by column). */
static void per_column(const stream *s, entry *e, int n, bool load, job_pool *jobs)
{
    int *first = malloc(sizeof(int) * (size_t)(n + 1));
    if (!first) { /* no memory to group them: one entry per job */
        column_work one = { s, NULL, (int[]){ 0, 1 }, load };
        for (int i = 0; i < n; i++) one.e = &e[i], column_job(&one, 0);
        return;
    }
    int cols = 0;
    for (int i = 0; i < n; i++)
        if (i == 0 || e[i].cx != e[i - 1].cx || e[i].cz != e[i - 1].cz) first[cols++] = i;
    first[cols] = n;
    column_work cw = { s, e, first, load };
    if (jobs) job_parallel_for(jobs, cols, column_job, &cw);
    else
        for (int k = 0; k < cols; k++) column_job(&cw, k);
    free(first);
}

/* ---- the fingerprints of chunks saved or loaded (main thread) ---- */

static int fp_order(const void *a, const void *b)
{
    const save_fingerprint *x = a, *y = b;
    if (x->cx != y->cx) return x->cx < y->cx ? -1 : 1;
    if (x->cz != y->cz) return x->cz < y->cz ? -1 : 1;
    return (x->cy > y->cy) - (x->cy < y->cy);
}

void save_fingerprints_begin(save_file *f, const char *slot, bool replace)
{
    if (!replace && strcmp(f->fp_slot, slot) == 0) return;
    f->fp_count = 0;
    snprintf(f->fp_slot, sizeof f->fp_slot, "%s", slot);
}

static const save_fingerprint *fp_find(const save_file *f, int cx, int cy, int cz)
{
    save_fingerprint key = { cx, cz, cy, 0 };
    return f->fp_count ? bsearch(&key, f->fp, (size_t)f->fp_count, sizeof key, fp_order) : NULL;
}

/* Remembers the fingerprints of e[0..n) not yet known (0: none recorded). */
static void fp_add(save_file *f, const entry *e, int n, bool only_new)
{
    int added = 0;
    for (int i = 0; i < n; i++) {
        if ((only_new && e[i].known) || !e[i].gen_hash || e[i].why[0] || fp_find(f, e[i].cx, e[i].cy, e[i].cz)) continue;
        if (f->fp_count + added == f->fp_cap) {
            int cap = f->fp_cap ? 2 * f->fp_cap : 256;
            save_fingerprint *m = realloc(f->fp, sizeof *m * (size_t)cap);
            if (!m) break; /* not remembered: computed again next time */
            f->fp = m, f->fp_cap = cap;
        }
        f->fp[f->fp_count + added++] = (save_fingerprint){ e[i].cx, e[i].cz, e[i].cy, e[i].gen_hash };
    }
    f->fp_count += added;
    if (f->fp_count > 1) qsort(f->fp, (size_t)f->fp_count, sizeof *f->fp, fp_order);
}

/* ---- saving ---- */

static void add_stored(void *arg, int cx, int cy, int cz, const chunk *c)
{
    entry *e = entries_add(arg, cx, cy, cz);
    if (e) e->c = chunk_copy(c); /* NULL (no memory): the save fails and says so */
}

int save_put_stream_unsaved(save_file *f, stream *s, job_pool *jobs)
{
    world *w = stream_world(s);
    entries l = { 0 };
    int *take = malloc(sizeof(int) * (size_t)w->chunk_count);
    int n = take ? world_take_unsaved(w, take, w->chunk_count) : 0;
    for (int i = 0; i < n; i++) {
        int cx, cy, cz;
        world_chunk_coords(w, take[i], &cx, &cy, &cz);
        entry *e = entries_add(&l, cx, cy, cz);
        if (!e) {
            world_mark_unsaved(w, take[i]); /* the next save takes it */
            continue;
        }
        e->c = chunk_copy(&w->chunks[take[i]]);
    }
    free(take);
    stream_take_stored_unsaved(s, add_stored, &l);
    if (l.count > 1) qsort(l.e, (size_t)l.count, sizeof *l.e, by_column);
    for (int i = 0; i < l.count; i++) {
        const save_fingerprint *k = fp_find(f, l.e[i].cx, l.e[i].cy, l.e[i].cz);
        /* the stream took the print when it generated the column: no need
         * to generate it again (the main thread would wait for it). It
         * goes first: a paged row's print is the file's, unchecked until
         * its column came, and may be one the generator no longer makes */
        uint64_t g = stream_generated_fingerprint(s, l.e[i].cx, l.e[i].cy, l.e[i].cz);
        if (!g && k) g = k->gen_hash;
        if (g) l.e[i].known = true, l.e[i].gen_hash = g;
    }
    per_column(s, l.e, l.count, false, jobs);
    fp_add(f, l.e, l.count, true);
    for (int i = 0; i < l.count; i++) save_put_chunk_at(f, l.e[i].cx, l.e[i].cy, l.e[i].cz, l.e[i].gen_hash, l.e[i].c);
    free(l.e);
    return l.count;
}

/* ---- loading ---- */

static bool keep_row(void *user, int cx, int cy, int cz, uint64_t gen_hash, const void *blob, size_t len, char *err,
                     size_t errlen)
{
    entry *e = entries_add(user, cx, cy, cz);
    void *copy = e ? malloc(len ? len : 1) : NULL;
    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    if (len) memcpy(copy, blob, len);
    e->blob = copy, e->len = len, e->gen_hash = gen_hash;
    return true;
}

static void warn_skipped(const save_file *f, const char *slot, const entry *e)
{
    log_warn("save: chunk %d,%d,%d of world '%s' %s: it regenerates (%s: %s)", e->cx, e->cy, e->cz, slot,
             e->mismatch ? "no longer matches its terrain" : "is damaged", save_path(f), e->why);
}

/* Rows decoded and checked at a time: bounds the memory of a large world
 * to this many 32 KiB chunks. */
#define LOAD_BATCH 256

/* The rows of columns not ready leave `l` for the stream's paged set and
 * their fingerprints for f's (as the file has them: checked when the
 * column comes); `l` keeps the rows to decode now. Returns how many were
 * paged. */
static int page_rows(save_file *f, stream *s, entries *l)
{
    const world *w = stream_world(s);
    entries pg = { 0 };
    int kept = 0;
    for (int i = 0; i < l->count; i++) {
        entry *e = &l->e[i];
        bool ready = world_column_state(w, e->cx, e->cz) == WORLD_COL_READY;
        entry *p = ready ? NULL : entries_add(&pg, e->cx, e->cy, e->cz);
        if (!p || !stream_mark_paged(s, e->cx, e->cy, e->cz)) {
            if (p) pg.count--;
            l->e[kept++] = *e; /* kept <= i: never over a row not yet looked at */
            continue;
        }
        p->gen_hash = e->gen_hash;
        free(e->blob);
    }
    l->count = kept;
    fp_add(f, pg.e, pg.count, false);
    free(pg.e);
    return pg.count;
}

int save_load_stream(save_file *f, const char *slot, stream *s, job_pool *jobs, int *skipped, char *err,
                     size_t errlen)
{
    entries l = { 0 };
    int loaded = 0, bad = 0;
    int rows = save_read_stream_chunks(f, slot, keep_row, &l, err, errlen);
    save_fingerprints_begin(f, slot, true);
    if (l.count > 1) qsort(l.e, (size_t)l.count, sizeof *l.e, by_column); /* the file's order, unless it is damaged */
    if (rows >= 0) loaded = page_rows(f, s, &l);
    for (int lo = 0; rows >= 0 && lo < l.count;) {
        int hi = lo + LOAD_BATCH < l.count ? lo + LOAD_BATCH : l.count;
        while (hi < l.count && l.e[hi].cx == l.e[hi - 1].cx && l.e[hi].cz == l.e[hi - 1].cz) hi++; /* whole columns */
        per_column(s, l.e + lo, hi - lo, true, jobs);
        fp_add(f, l.e + lo, hi - lo, false); /* those that loaded, checked */
        for (int i = lo; i < hi; i++) {
            entry *e = &l.e[i];
            if (!e->why[0] && !stream_store_chunk(s, e->cx, e->cy, e->cz, e->c->vox, e->c->tint))
                snprintf(e->why, sizeof e->why, "out of memory");
            if (e->why[0]) {
                warn_skipped(f, slot, e);
                bad++;
            } else {
                loaded++;
            }
            if (e->c) free(e->c->tint);
            free(e->c);
        }
        lo = hi;
    }
    for (int i = 0; i < l.count; i++) free(l.e[i].blob);
    free(l.e);
    if (skipped) *skipped = bad;
    return rows < 0 ? -1 : loaded;
}

/* ---- paging in (any thread: the stream's workers) ---- */

/* Appends one line to `warn` (cut off when it is full). */
static void note(char *warn, size_t warnlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note(char *warn, size_t warnlen, const char *fmt, ...)
{
    size_t n = strlen(warn);
    if (n + 1 >= warnlen) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(warn + n, warnlen - n - 1, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    n += (size_t)k < warnlen - n - 1 ? (size_t)k : warnlen - n - 2;
    warn[n] = '\n', warn[n + 1] = 0;
}

typedef int (*column_read_fn)(void *src, const char *slot, int cx, int cz, save_stream_chunk_fn fn, void *user,
                              char *err, size_t errlen);

static int read_via_writer(void *src, const char *slot, int cx, int cz, save_stream_chunk_fn fn, void *user,
                           char *err, size_t errlen)
{
    return save_read_stream_column(src, slot, cx, cz, fn, user, err, errlen);
}

static int read_via_reader(void *src, const char *slot, int cx, int cz, save_stream_chunk_fn fn, void *user,
                           char *err, size_t errlen)
{
    (void)slot; /* the reader's own */
    return save_reader_column(src, cx, cz, fn, user, err, errlen);
}

/* The rows of column (cx, cz) read by `rd` over `column`: the layers put. */
static uint32_t page_in_rows(const char *path, const char *slot, column_read_fn rd, void *src, world *column, int cx,
                             int cz, uint32_t layers, char *warn, size_t warnlen)
{
    entries l = { 0 };
    char err[1024];
    uint32_t got = 0;
    if (rd(src, slot, cx, cz, keep_row, &l, err, sizeof err) < 0) {
        note(warn, warnlen, "save: the edits of column %d,%d of world '%s' cannot be read: it regenerates (%s)", cx,
             cz, slot, err);
        for (int i = 0; i < l.count; i++) free(l.e[i].blob);
        l.count = 0; /* none is used */
    }
    int n = 0; /* the wanted rows first: they are the ones checked */
    uint32_t rows = 0;
    for (int i = 0; i < l.count; i++) {
        entry t = l.e[i];
        bool want = t.cy >= 0 && t.cy < 32 && (layers >> t.cy & 1);
        if (want) l.e[i] = l.e[n], l.e[n++] = t, rows |= 1u << t.cy;
    }
    check_column(l.e, n, column, column->cy, true);
    for (int i = 0; i < n; i++) {
        entry *e = &l.e[i];
        if (e->why[0]) {
            note(warn, warnlen, "save: chunk %d,%d,%d of world '%s' %s: it regenerates (%s: %s)", e->cx, e->cy, e->cz,
                 slot, e->mismatch ? "no longer matches its terrain" : "is damaged", path, e->why);
        } else {
            chunk *dst = world_chunk(column, cx, e->cy, cz);
            memcpy(dst->vox, e->c->vox, CHUNK_VOLUME);
            free(dst->tint);
            dst->tint = e->c->tint; /* ownership moves */
            e->c->tint = NULL;
            got |= 1u << e->cy;
        }
        if (e->c) free(e->c->tint);
        free(e->c);
    }
    for (int y = 0; y < column->cy; y++)
        if ((layers & ~rows) >> y & 1)
            note(warn, warnlen, "save: chunk %d,%d,%d of world '%s' is not in %s: it regenerates", cx, y, cz, slot,
                 path);
    for (int i = 0; i < l.count; i++) free(l.e[i].blob);
    free(l.e);
    return got;
}

uint32_t save_page_in(save_file *f, const char *slot, world *column, int cx, int cz, uint32_t layers, char *warn,
                      size_t warnlen)
{
    return page_in_rows(save_path(f), slot, read_via_writer, f, column, cx, cz, layers, warn, warnlen);
}

uint32_t save_reader_page_in(save_reader *r, world *column, int cx, int cz, uint32_t layers, char *warn,
                             size_t warnlen)
{
    return page_in_rows(save_path(save_reader_file(r)), save_reader_slot(r), read_via_reader, r, column, cx, cz,
                        layers, warn, warnlen);
}

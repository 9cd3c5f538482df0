#include "app_save.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app_bodies.h"
#include "app_stream.h"
#include "app_internal.h"
#include "app_world.h"
#include "core/hash.h"
#include "core/log.h"
#include "core/timer.h"
#include "io/save.h"
#include "io/save_fs.h"
#include "platform/platform.h"
#include "ui/cmd.h"

typedef struct app_save {
    save_file *file;
    /* the world being played: its slot, inputs and generated hash */
    char slot[64];
    char *inputs;
    uint64_t gen_hash;
    bool replace;   /* the next save drops the slot's old chunks (new inputs) */
    bool full_next; /* a save failed: the next writes every edited chunk */
    char *last_state; /* the player as last committed: an autosave also keeps a move */
    int snap_chunks;
    int page_saves;         /* saves made because edited chunks left the window */
    double page_save_ms_max; /* the longest main-thread share of one */
    uint64_t reported, announce; /* tickets: last reported; 'save' waiting to be announced */
    double autosave_next;
    cvar *autosave;
    bool shutting_down;
    uint64_t left_ticket; /* the save on_world_leaving made (the exit save) */
    int failures; /* worlds asked for and not given (unusable, refused): a headless run exits 1 */
    /* the stream's pager: reads the slot's paged chunks on the workers
     * through connections of its own (save_reader_open); made for the file
     * and slot of the world in play, dropped before either changes */
    save_reader *reader;
    app *app;
} app_save;

static app_save g_save; /* the app has one world file at a time */

/* ---- names and paths ------------------------------------------------------ */

bool app_save_name_ok(const char *name, char *err, size_t errlen)
{
    size_t n = strlen(name);
    if (n == 0 || n > 64) {
        snprintf(err, errlen, "world name must be 1 to 64 characters");
        return false;
    }
    if (name[0] == '.') {
        snprintf(err, errlen, "world name '%s' may not start with '.'", name);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                  c == '_' || c == '.';
        if (!ok) {
            snprintf(err, errlen, "world name '%s' holds '%c' (letters, digits, '-', '_' and '.' only)", name,
                     c == '/' || c == '\\' ? c : '?');
            return false;
        }
    }
    if (strstr(name, "..")) {
        snprintf(err, errlen, "world name '%s' may not contain '..'", name);
        return false;
    }
    return true;
}

static bool worlds_dir(char *out, size_t len)
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/') n = snprintf(out, len, "%s/strata/worlds", xdg); /* relative XDG is invalid */
    else if (home && home[0]) n = snprintf(out, len, "%s/.local/share/strata/worlds", home);
    else return false;
    return n > 0 && (size_t)n < len;
}

bool app_save_world_path(const char *name, char *out, size_t len)
{
    char dir[512];
    if (!worlds_dir(dir, sizeof dir)) return false;
    int n = snprintf(out, len, "%s/%s.strata", dir, name);
    return n > 0 && (size_t)n < len;
}

/* ---- player state as text ------------------------------------------------- */

/* Search boxes a state keeps at most: what the bodies can take back. */
#define STATE_SEARCHES APP_BODIES_SEARCHES_MAX

/* The player, then a line per box the bodies' detach search has still to
 * look at ("search x0 y0 z0 x1 y1 z1": a body a save settled in flight
 * falls on after a load; "fly 1" for a player in flight; older programs
 * read the first two lines only). */
static char *state_text(const app *a)
{
    int box[STATE_SEARCHES][6];
    int n = app_bodies_searches(a, box, STATE_SEARCHES);
    size_t cap = 160 + (size_t)n * 80, len = 0;
    char *buf = malloc(cap);
    if (!buf) return NULL;
    /* 17 digits: the position is a double, exact far from the origin */
    len += (size_t)snprintf(buf, cap, "pos %.17g %.17g %.17g\nlook %.9g %.9g\n", a->pl.pos[0], a->pl.pos[1],
                            a->pl.pos[2], (double)a->pl.yaw, (double)a->pl.pitch);
    if (len < cap) len += (size_t)snprintf(buf + len, cap - len, "fly %d\n", a->cv.fly->b ? 1 : 0);
    for (int k = 0; k < n && len < cap; k++)
        len += (size_t)snprintf(buf + len, cap - len, "search %d %d %d %d %d %d\n", box[k][0], box[k][1], box[k][2],
                                box[k][3], box[k][4], box[k][5]);
    return buf;
}

/* The "search" lines of a state, to the bodies; a line that is not a box
 * a body could have left (numbers inside the 32-bit world, sides up to
 * SEARCH_SIDE_MAX) is skipped with a warning (the rest still load). */
#define SEARCH_SIDE_MAX 512
static void apply_searches(app *a, const char *state, const char *where)
{
    int line = 0;
    for (const char *l = state; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        line++;
        if (strncmp(l, "search ", 7) != 0) continue;
        char buf[160];
        size_t len = strcspn(l, "\n");
        long v[6];
        int end = -1;
        bool ok = len < sizeof buf;
        if (ok) {
            memcpy(buf, l, len), buf[len] = 0; /* one line: sscanf would read on past its end */
            ok = sscanf(buf, "search %ld %ld %ld %ld %ld %ld %n", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &end) == 6 &&
                 end >= 0 && buf[end] == 0;
        }
        for (int i = 0; ok && i < 6; i++) ok = v[i] > -2000000000L && v[i] < 2000000000L; /* before any arithmetic */
        for (int i = 0; ok && i < 3; i++) ok = v[i] < v[i + 3] && v[i + 3] - v[i] <= SEARCH_SIDE_MAX;
        if (!ok) {
            log_warn("%s: player state line %d is not a box to search; skipped", where, line);
            continue;
        }
        const int lo[3] = { (int)v[0], (int)v[1], (int)v[2] }, hi[3] = { (int)v[3], (int)v[4], (int)v[5] };
        app_bodies_search_later(a, lo, hi);
    }
}

/* The "fly N" line: a player saved in flight is in flight after a load
 * (a state without the line keeps walking). */
static void apply_fly(const char *state)
{
    for (const char *l = state; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (strncmp(l, "fly ", 4) == 0 && (l[4] == '0' || l[4] == '1')) {
            cvar_set_by_name("player.fly", l[4] == '1' ? "1" : "0");
            return;
        }
}

static bool apply_state(app *a, const char *state)
{
    double p[3];
    float yaw, pitch;
    if (sscanf(state, "pos %lf %lf %lf look %f %f", &p[0], &p[1], &p[2], &yaw, &pitch) != 5) return false;
    /* where tp may put the player: the 32-bit world a streamed window
     * reaches (further, the window cannot follow and physics refuses) */
    for (int i = 0; i < 3; i++)
        if (!isfinite(p[i]) || fabs(p[i]) > APP_POS_LIMIT) return false;
    if (!isfinite(yaw) || !isfinite(pitch)) return false;
    app_clamp_pos(a, p, "save: the saved position"); /* a y of 1e9 would fall for ever, or never land */
    memcpy(a->pl.pos, p, sizeof p);
    memset(a->pl.vel, 0, sizeof a->pl.vel);
    a->pl.yaw = 0, a->pl.pitch = 0;
    player_look(&a->pl, yaw, pitch);
    return true;
}

/* ---- the file -------------------------------------------------------------- */

/* The stream's pager (on its workers): a chunk paged out comes back from
 * the slot it was committed to, the world's, through the reader. */
static uint32_t page_in(void *ctx, world *column, int cx, int cz, uint32_t layers, char *warn, size_t warnlen)
{
    return save_reader_page_in(ctx, column, cx, cz, layers, warn, warnlen);
}

/* Before the file closes or the slot changes: the stream stops reading
 * through the reader (waiting for the workers reading now), then it goes.
 * Paged chunks whose column comes with no pager regenerate, said. */
static void pager_drop(void)
{
    stream *st = g_save.app ? app_stream(g_save.app) : NULL;
    if (st) stream_set_pager(st, NULL, NULL);
    save_reader_close(g_save.reader);
    g_save.reader = NULL;
}

/* The stream's pager for the world in play: its file's slot. */
static void pager_attach(app *a)
{
    pager_drop();
    if (!g_save.file || !g_save.slot[0] || !app_stream(a)) return;
    g_save.reader = save_reader_open(g_save.file, g_save.slot);
    if (g_save.reader) stream_set_pager(app_stream(a), page_in, g_save.reader);
    else log_warn("save: no memory for the reader of %s: paged edits regenerate", save_path(g_save.file));
}

static void close_file(void)
{
    pager_drop();
    save_close(g_save.file);
    g_save.file = NULL;
}

static void detach(const char *why)
{
    if (!g_save.file) return;
    log_error("%s; saves are off for this session (the file is left as it is)", why);
    g_save.failures++;
    close_file();
    g_save.file = NULL;
    g_save.slot[0] = 0;
}

/* Opens path as the world file. False when what was asked for is not
 * there: the file cannot be used (g_save.file stays NULL), or it was
 * unusable and moved aside (g_save.file is the fresh file in its place).
 * `who` leads the message: in the window only the start of a line shows
 * among the recent messages, so it says what happened first. */
static bool open_file(const char *path, const char *who)
{
    char note[2048], err[1024];
    save_file *f = save_open(path, note, sizeof note, err, sizeof err);
    bool aside = f && save_moved_aside(f);
    if (aside) log_error("%s: %s", who, note);
    else if (note[0]) log_warn("%s", note);
    if (!f) log_error("%s: %s", who, err);
    if (!f || aside) g_save.failures++;
    if (!f) return false;
    if (save_readonly(f))
        log_warn("%s is %s: it loads, but nothing will be saved to it", path, save_readonly_why(f));
    g_save.file = f;
    g_save.slot[0] = 0;
    g_save.full_next = false;
    g_save.reported = g_save.announce = 0;
    return !aside;
}

int app_save_failures(void) { return g_save.failures; }

static bool find_slot(const char *name, save_slot *out)
{
    save_slot *slots = NULL;
    char err[1024];
    int n = save_list_slots(g_save.file, &slots, err, sizeof err);
    if (n < 0) {
        log_error("%s", err);
        return false;
    }
    bool found = false;
    for (int i = 0; i < n; i++) {
        if (!found && strcmp(slots[i].name, name) == 0) {
            *out = slots[i];
            found = true;
        } else {
            save_slot_free(&slots[i]);
        }
    }
    free(slots);
    return found;
}

/* ---- saving ---------------------------------------------------------------- */

/* The workers, unless the app already joined them (shutdown). */
static job_pool *jobs_now(app *a) { return g_save.shutting_down ? NULL : a->jobs; }

/* One save: the world's unsaved chunks go to the writer by reference
 * (microseconds for a thousand), or for a streamed world as copies with
 * their fingerprints (docs/saves.md), then the commit. Returns its ticket. */
static uint64_t snapshot(app *a)
{
    app_save *s = &g_save;
    app_bodies_settle(a); /* falling bodies back into the world first: a file never misses them */
    world *w = a->w;
    stream *st = app_stream(a);
    if (s->full_next) world_mark_edited_unsaved(w);
    if (s->full_next && st) stream_mark_stored_unsaved(st);
    /* Chunks paged out are in the slot only: dropping its rows would lose
     * them. There are some only after a commit of this world's inputs (or
     * a load of them), so the slot is this world's and rewriting every
     * chunk in memory over it (rows replace rows) is the full save. */
    bool paged = st && stream_get_stats(st).paged_chunks > 0;
    save_begin(s->file, s->slot, (s->replace || s->full_next) && !paged);
    s->replace = s->full_next = false;
    /* a streamed world's edits are by coordinates, the window's and the stream's */
    s->snap_chunks = st ? save_put_stream_unsaved(s->file, st, jobs_now(a)) : save_put_unsaved(s->file, w, w->chunk_count);
    char *state = state_text(a);
    save_slot meta = { .inputs = s->inputs, .state = state, .gen_hash = s->gen_hash };
    memcpy(meta.name, s->slot, sizeof meta.name);
    uint64_t t = save_commit(s->file, &meta, true);
    free(s->last_state);
    s->last_state = state;
    return t;
}

/* Unsaved edits, the stream's stored ones included. */
static bool has_unsaved(app *a)
{
    stream *st = app_stream(a);
    return a->w->unsaved_count > 0 || (st && stream_get_stats(st).stored_unsaved > 0);
}

static bool can_save(void) { return g_save.file && !save_readonly(g_save.file) && g_save.slot[0]; }

/* Everything unsaved to the writer now (biome switch, save, exit). */
static uint64_t flush_all(app *a) { return can_save() && a->w ? snapshot(a) : 0; }

/* Outlives the component's state (shutdown clears it): app_run's exit code. */
static bool g_exit_failed;

bool app_save_exit_failed(void) { return g_exit_failed; }

/* The edits into a fresh world file at `path`: everything edited, as the
 * full save after a failure writes it. True once it is on disk. */
static bool save_copy_to(app *a, const char *path, char *err, size_t errlen)
{
    char note[2048];
    save_file *copy = save_open(path, note, sizeof note, err, errlen);
    if (!copy) {
        save_fs_remove(path); /* what a full disk let it begin */
        return false;
    }
    save_file *file = g_save.file;
    g_save.file = copy;
    g_save.full_next = g_save.replace = true;
    uint64_t t = snapshot(a);
    bool ok = save_wait(copy, t, err, errlen);
    g_save.file = file;
    save_release_world(copy, a->w);
    save_close(copy);
    if (!ok) save_fs_remove(path);
    return ok;
}

/* The exit save failed (a full disk): said once, the exit is non-zero, and
 * the edits go to a recovery file, beside the world when there is room
 * there, else in the temporary folder, which is often another disk. */
static void exit_save_failed(app *a, const char *err)
{
    if (g_exit_failed) return;
    g_exit_failed = true;
    log_error("not saved on exit: %s", err);
    if (!a->w || !g_save.slot[0]) return;
    char path[1200], why[1024] = "", name[700];
    const char *tmp = getenv("TMPDIR");
    const char *base = strrchr(save_path(g_save.file), '/');
    base = base ? base + 1 : save_path(g_save.file);
    for (int where = 0; where < 2; where++) {
        if (where == 0) save_fs_aside_name(save_path(g_save.file), "recovered", path, sizeof path);
        else {
            snprintf(name, sizeof name, "%s/%s", tmp && tmp[0] == '/' ? tmp : "/tmp", base);
            save_fs_aside_name(name, "recovered", path, sizeof path);
        }
        if (save_copy_to(a, path, why, sizeof why)) {
            log_error("the edits of this world are kept in %s (play it with --world %s; the world file holds "
                      "the last complete save)", path, path);
            return;
        }
    }
    log_error("the edits could not be kept anywhere either (%s): they are lost", why);
}

static void save_world_leaving(void *self, app *a, world *old)
{
    g_save.left_ticket = flush_all(a);
    /* The exit save: the writer reads the world's chunks where they are
     * while we wait (shutdown waits for it anyway); releasing the world
     * first would copy every queued chunk on this thread. */
    if (a->closing && g_save.file && g_save.left_ticket) {
        char err[1024];
        if (!save_wait(g_save.file, g_save.left_ticket, err, sizeof err)) exit_save_failed(a, err);
    }
    if (g_save.file) save_release_world(g_save.file, old); /* it is about to be destroyed */
}

/* The slot's chunks into the world: all or nothing for a finite one; into
 * the stream for a streamed one, where a damaged row is skipped alone (and
 * said) by save_load_stream. False with err when the file cannot be read. */
static bool load_chunks(app *a, const char *slot, char *err, size_t errlen)
{
    stream *st = app_stream(a);
    if (!st) return save_load_chunks(g_save.file, slot, a->w, a->jobs, err, errlen) >= 0;
    int skipped = 0;
    int n = save_load_stream(g_save.file, slot, st, a->jobs, &skipped, err, errlen);
    if (n >= 0 && skipped) log_warn("save: %d chunk%s of world '%s' regenerated (see above); %d loaded", skipped,
                                    skipped == 1 ? "" : "s", slot, n);
    return n >= 0;
}

static void save_new_world(void *self, app *a, world *w)
{
    app_save *s = &g_save;
    s->app = a;
    /* view.distance resized the streamed window: the slot, its inputs and
     * the edit flags the window carried over stay as they are, and so does
     * the pager (stream_adopt passed it on) */
    if (a->world_resizing) return;
    world_forget_edits(w); /* what generation wrote (the caves pass) is not an edit */
    free(s->inputs);
    s->inputs = app_save_inputs_text(a);
    snprintf(s->slot, sizeof s->slot, "%s", a->world_kind->name);
    pager_attach(a); /* the paged chunks of this slot come back through it */
    s->replace = true; /* a world of new inputs, until the file says otherwise */
    if (!s->file) return;
    /* a streamed world has no whole to fingerprint: each chunk row carries its own */
    s->gen_hash = app_stream(a) ? 0 : save_world_fingerprint(a->w, a->jobs);
    save_slot slot;
    if (!find_slot(s->slot, &slot)) return;
    char err[1024], where[700];
    snprintf(where, sizeof where, "%s (world '%s')", save_path(s->file), slot.name);
    int generator = app_save_inputs_generator(slot.inputs);
    if (generator != WORLDGEN_VERSION) {
        snprintf(err, sizeof err, "%s was made by world generator %d, this program has %d: not loaded", where,
                 generator, WORLDGEN_VERSION);
        detach(err);
    } else if (app_save_same_inputs(slot.inputs, s->inputs)) {
        if (slot.gen_hash && slot.gen_hash != s->gen_hash) {
            snprintf(err, sizeof err, "%s: the generator now makes different terrain from its inputs: not loaded",
                     where);
            detach(err);
        } else if (!load_chunks(a, slot.name, err, sizeof err)) {
            detach(err);
        } else {
            s->replace = false;
            if (!apply_state(a, slot.state)) log_warn("%s: the player's position is unreadable; spawned", where);
            apply_searches(a, slot.state, where);
            apply_fly(slot.state);
        }
    }
    save_slot_free(&slot);
}

bool app_save_restore_kind(app *a, const char *kind)
{
    if (!g_save.file) return true;
    save_slot slot;
    if (!find_slot(kind, &slot)) return true;
    char err[1024], where[700];
    snprintf(where, sizeof where, "%s (world '%s')", save_path(g_save.file), slot.name);
    bool ok = app_save_apply_inputs(slot.inputs, where, err, sizeof err);
    save_slot_free(&slot);
    if (!ok) detach(err);
    return ok;
}

void app_save_start(app *a)
{
    char path[600];
    const char *p = a->desc.world;
    if (!p) {
        /* scripts stay reproducible: headless runs touch no world unless asked */
        if (a->desc.headless || !app_save_world_path("default", path, sizeof path)) return;
        p = path;
    }
    if (!open_file(p, "world not loaded") && !g_save.file) return;
    char cur[64], err[1024];
    if (!save_current_slot(g_save.file, cur, sizeof cur, err, sizeof err)) {
        detach(err);
        return;
    }
    if (cur[0]) app_save_restore_kind(a, cur);
    a->regen_pending = false;
}

static void report_finished(app *a)
{
    app_save *s = &g_save;
    bool failed;
    char err[1024];
    uint64_t t = save_poll(s->file, &failed, err, sizeof err);
    if (t == s->reported) return;
    s->reported = t;
    if (failed) {
        log_error("%s", err);
        s->full_next = true; /* the slot in the file is the last complete save; redo it all */
        s->replace = true;
    } else if (s->announce && t >= s->announce) {
        log_info("saved %s", save_path(s->file));
    }
    if (s->announce && t >= s->announce) s->announce = 0;
}

/* Paging a streamed world: the edited chunks of columns the window left are
 * saved at once, not at the next autosave, and once every commit is on
 * disk (and none failed) the stored chunks those commits took leave memory:
 * the file has them and the pager reads them back when their column comes.
 * So memory holds only edits not yet written, and a kill -9 loses none
 * that were. Waits while bodies fall, as the autosave does. */
static void page_out(app *a, stream *st)
{
    app_save *s = &g_save;
    if (save_pending(s->file) > 0) return; /* a commit in flight may be the one that holds them */
    report_finished(a);                    /* the poll sees every commit: none pending */
    if (s->full_next) return;              /* the last failed: the stored chunks are not in the file */
    stream_page_out_saved(st);
    if (stream_get_stats(st).stored_unsaved == 0 || app_bodies_awake(a) > 0) return;
    uint64_t t0 = timer_ns();
    snapshot(a);
    double ms = timer_ms_since(t0);
    s->page_saves++;
    if (ms > s->page_save_ms_max) s->page_save_ms_max = ms;
}

void app_save_paging_stats(int *saves, double *ms_max)
{
    *saves = g_save.page_saves;
    *ms_max = g_save.page_save_ms_max;
}

static void save_frame(void *self, app *a, double now, float dt)
{
    app_save *s = &g_save;
    if (!s->file || !a->w) return;
    report_finished(a);
    if (!can_save()) return;
    if (app_stream(a)) page_out(a, app_stream(a));
    float every = s->autosave ? s->autosave->f : 0;
    if (every <= 0) return;
    if (s->autosave_next <= 0 || s->autosave_next > now + every) s->autosave_next = now + every;
    if (now < s->autosave_next) return;
    s->autosave_next = now + every;
    if (save_pending(s->file) > 0) return; /* the disk is behind: no backlog */
    if (app_bodies_awake(a) > 0) return;   /* bodies in flight settle within seconds: save what they become */
    char *state = state_text(a);
    bool moved = !state || !s->last_state || strcmp(state, s->last_state) != 0;
    free(state);
    if (has_unsaved(a) || s->full_next || moved) snapshot(a);
}

static void save_shutdown(void *self, app *a)
{
    app_save *s = &g_save;
    s->shutting_down = true; /* the job pool is gone: fingerprints are computed here */
    s->app = NULL; /* and no worker reads through the pager: the stream need not wait (its pool is freed) */
    if (s->file && save_readonly(s->file) && a->w && has_unsaved(a))
        log_warn("%s is %s: the edits of this session are not saved", save_path(s->file),
                 save_readonly_why(s->file));
    if (s->file) {
        /* The exit save was made as the app let go of the world, before
         * anything shut down (on_world_leaving): bodies still falling were
         * settled into it with their component there to say which boxes to
         * search after a load. Saving again now, without it, would write a
         * state that forgets them. Only an edit since needs another. */
        uint64_t t = g_exit_failed ? 0 : a->w && has_unsaved(a) ? flush_all(a) : s->left_ticket;
        char err[1024];
        if (t && !save_wait(s->file, t, err, sizeof err)) exit_save_failed(a, err);
        close_file();
    }
    free(s->inputs);
    free(s->last_state);
    memset(s, 0, sizeof *s);
}

/* ---- commands -------------------------------------------------------------- */

static int c_save(void *u, int argc, char **argv)
{
    app *a = u;
    if (argc != 1) {
        log_error("usage: save (writes the world to its file)");
        return 1;
    }
    if (!g_save.file) {
        log_error("save: no world file (start with --world FILE, or 'world new NAME')");
        return 1;
    }
    if (save_readonly(g_save.file)) {
        log_error("save: %s is %s: nothing was saved", save_path(g_save.file), save_readonly_why(g_save.file));
        return 1;
    }
    app_sync_world(a);
    uint64_t t0 = timer_ns();
    uint64_t t = flush_all(a);
    double queue_ms = timer_ms_since(t0); /* the main thread's share (and a streamed world's fingerprints) */
    int chunks = g_save.snap_chunks;
    if (!platform_headless(a->plat)) { /* the window keeps playing; the frame reports it */
        g_save.announce = t;
        return 0;
    }
    char err[1024];
    if (!save_wait(g_save.file, t, err, sizeof err)) {
        log_error("%s", err);
        g_save.full_next = g_save.replace = true;
        return 1;
    }
    log_out("saved=%s", save_path(g_save.file));
    log_out("saved_chunks=%d", chunks);
    log_out("save_queue_ms=%.2f", queue_ms);
    log_out("save_ms=%.1f", timer_ms_since(t0));
    return 0;
}

/* 'load' wants a saved world: a file with none (new, or in the place of an
 * unusable one) has nothing to go back to. Says so when it has none. */
static bool holds_save(save_file *f)
{
    char cur[64], err[1024];
    if (!save_current_slot(f, cur, sizeof cur, err, sizeof err)) return true; /* the load itself says what is wrong */
    if (!cur[0]) log_error("load: %s holds no saved world yet: nothing was loaded", save_path(f));
    return cur[0] != 0;
}

/* Makes `path` the world file and the world its current slot (or, with a
 * new file, the cvars' world). The old file gets the world's edits first.
 * `loading` (the command load) wants a saved world there: a missing one,
 * an unusable one (moved aside, a new world starts in its place) or a file
 * with nothing saved in it is a failure, said on stderr and in the window. */
static int switch_file(app *a, const char *path, bool loading)
{
    app_sync_world(a);
    if (loading && access(path, F_OK) != 0) {
        log_error("load: no world at %s (see 'worlds')", path);
        return 1;
    }
    if (g_save.file) {
        uint64_t t = flush_all(a);
        char err[1024];
        if (t && !save_wait(g_save.file, t, err, sizeof err)) log_error("%s", err);
        close_file();
    }
    g_save.slot[0] = 0; /* the world in memory belongs to no file now */
    bool as_asked = open_file(path, loading ? "load" : "world");
    if (!g_save.file) return 1;
    char cur[64], err[1024];
    if (!save_current_slot(g_save.file, cur, sizeof cur, err, sizeof err)) {
        detach(err);
        return 1;
    }
    if (loading && as_asked && !cur[0]) as_asked = holds_save(g_save.file); /* false, and said */
    if (cur[0] && !app_save_restore_kind(a, cur)) return 1;
    if (!app_regenerate(a)) return 1;
    if (!g_save.file) return 1; /* refused while installing (logged) */
    return as_asked ? 0 : 1;
}

static int c_load(void *u, int argc, char **argv)
{
    app *a = u;
    char path[600], err[256];
    if (argc > 2) {
        log_error("usage: load [NAME] (no NAME: back to the last save of this world)");
        return 1;
    }
    if (argc == 2) {
        if (!app_save_name_ok(argv[1], err, sizeof err)) {
            log_error("load: %s", err);
            return 1;
        }
        if (!app_save_world_path(argv[1], path, sizeof path)) {
            log_error("load: no data folder (set XDG_DATA_HOME or HOME)");
            return 1;
        }
    } else {
        if (!g_save.file) {
            log_error("load: no world file (start with --world FILE, or 'load NAME')");
            return 1;
        }
        /* nothing saved to go back to: the world in play stays */
        if (!holds_save(g_save.file)) return 1;
        snprintf(path, sizeof path, "%s", save_path(g_save.file));
        /* back to the file as it is on disk: what was not saved is dropped */
        close_file(); /* finishes queued writes first */
    }
    int rc = switch_file(a, path, true);
    if (rc == 0) {
        log_out("loaded=%s", path);
        log_out("world_hash=%016llx", (unsigned long long)app_world_hash(a));
    }
    return rc;
}

static int c_world(void *u, int argc, char **argv)
{
    app *a = u;
    char path[600], err[256];
    if (argc != 3 || strcmp(argv[1], "new") != 0) {
        log_error("usage: world new NAME (a new world file from the current settings)");
        return 1;
    }
    if (!app_save_name_ok(argv[2], err, sizeof err)) {
        log_error("world: %s", err);
        return 1;
    }
    if (!app_save_world_path(argv[2], path, sizeof path)) {
        log_error("world: no data folder (set XDG_DATA_HOME or HOME)");
        return 1;
    }
    if (access(path, F_OK) == 0) {
        log_error("world: '%s' exists (%s): 'load %s' opens it", argv[2], path, argv[2]);
        return 1;
    }
    if (switch_file(a, path, false) != 0) return 1;
    uint64_t t = flush_all(a); /* the new world is on disk from the start */
    if (t && !save_wait(g_save.file, t, err, sizeof err)) {
        log_error("%s", err);
        return 1;
    }
    log_out("world=%s", path);
    return 0;
}

static int c_worlds(void *u, int argc, char **argv)
{
    char dir[512];
    if (!worlds_dir(dir, sizeof dir)) {
        log_error("worlds: no data folder (set XDG_DATA_HOME or HOME)");
        return 1;
    }
    DIR *d = opendir(dir);
    int count = 0;
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            size_t n = strlen(e->d_name);
            if (n < 8 || strcmp(e->d_name + n - 7, ".strata") != 0 || e->d_name[0] == '.') continue;
            char p[1200], wal[1300];
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            snprintf(wal, sizeof wal, "%s-wal", p);
            struct stat sb, sw;
            if (stat(p, &sb) != 0 || !S_ISREG(sb.st_mode)) continue;
            long long size = (long long)sb.st_size;
            time_t played = sb.st_mtime;
            if (stat(wal, &sw) == 0) {
                size += (long long)sw.st_size;
                if (sw.st_mtime > played) played = sw.st_mtime;
            }
            struct tm tm;
            char when[32];
            gmtime_r(&played, &tm);
            strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
            bool current = g_save.file && strcmp(save_path(g_save.file), p) == 0;
            log_out("world=%.*s size_bytes=%lld last_played=%s%s", (int)(n - 7), e->d_name, size, when,
                    current ? " current=1" : "");
            count++;
        }
        closedir(d);
    }
    log_out("worlds=%d", count);
    return 0;
}

static void *save_init(app *a)
{
    cvar_desc d = { "save.autosave", "seconds between autosaves of the world's edits (0 = off)", CVAR_FLOAT,
                    CVAR_ARCHIVE, "30", 0, 3600 };
    g_save.autosave = cvar_register(&d);
    const cmd_desc table[] = {
        { "save", "", "write the world's edits, player and inputs to its file (--world)", c_save, a },
        { "load", "[NAME]", "open world NAME (no NAME: back to the last save)", c_load, a },
        { "world", "new NAME", "start a new world file NAME from the current settings", c_world, a },
        { "worlds", "", "list the saved worlds with size and last played", c_worlds, a },
    };
    cmd_register_table(table, (int)(sizeof table / sizeof table[0]));
    app_save_script_register(a);
    return &g_save;
}

const component app_save_component = {
    .name = "save",
    .init = save_init,
    .on_world_leaving = save_world_leaving,
    .on_new_world = save_new_world,
    .on_frame = save_frame,
    .shutdown = save_shutdown,
};

/* app_tool: the cutting tool in the running game (seed 003). The tool
 * module owns the shape, the octrees and the edits; this component gives it
 * the player's view, turns the held buttons (+cut, +fill) into edits every
 * frame, announces each edit's box (app_world_edited) and draws the
 * preview of what the next edit takes or adds (tool.preview). */
#include "app_tool.h"

#include "app_stream.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app_world.h"
#include "core/log.h"
#include "gfx/ghost.h"
#include "gfx/preview.h"
#include "play/tool.h"
#include "ui/cmd.h"

/* A held fill adds a layer this often: fast enough to build, slow enough
 * to aim. A held cut needs no timer: it eats forward every frame. */
#define APP_FILL_REPEAT_S 0.2

typedef struct tool_comp {
    app *a;
    tool tool;
    octree_pose pose;
    bool ready;        /* tool_init succeeded */
    bool cutting;      /* +cut held: cut every frame (tunnelling) */
    bool filling;      /* +fill held: fill now and then */
    bool fill_shown;   /* the last button was +fill: the preview shows what a fill adds */
    double fill_next;  /* when a held fill fills again */
    ghost_renderer *ghost;  /* draws the tool's shape where it is */
    unsigned ghost_version; /* the tool shape_version the ghost holds */
    preview_renderer *preview; /* tints the surface of the voxels a cut takes */
    ghost_renderer *fill_ghost; /* the voxels a fill adds, as a solid */
    tool_mask mask;             /* this frame's previewed voxels */
    cvar *preview_mode;         /* tool.preview */
} tool_comp;

/* tool.preview's values, in order */
enum { SHOW_TINT, SHOW_WIRE, SHOW_OFF };
static const char *const k_preview_names[] = { "tint", "wire", "off", NULL };
_Static_assert(TOOL_MASK_SOLID == PREVIEW_SOLID && TOOL_MASK_IN == PREVIEW_MARKED,
               "the tool's masks are uploaded to the preview as they are");

static tool_comp *state(const app *a) { return component_state(&a->comps, app_tool_component.name); }

/* The view as it is this frame (never waits for a world being generated). */
static void current_view(app *a, tool_view *out)
{
    memset(out, 0, sizeof *out);
    out->w = a->w;
    player_eye(&a->pl, out->eye);
    out->yaw = a->pl.yaw;
    out->pitch = a->pl.pitch;
    out->has_body = true; /* fills never bury the player */
    player_bounds(&a->pl, out->body.lo, out->body.hi);
}

/* For the commands (cut, fill, tool.info): they act on the world the
 * settings describe, so a pending regeneration happens first. */
static bool tool_view_now(void *user, tool_view *out)
{
    app *a = user;
    app_sync_world(a);
    current_view(a, out);
    return a->w != NULL;
}

static void tool_edited(void *user, const int lo[3], const int hi[3])
{
    tool_comp *t = user;
    app_world_edited(t->a, lo, hi, &app_tool_component);
}

const octree *app_occupancy(const app *a)
{
    const tool_comp *t = state(a);
    return t && t->ready && a->w ? tool_terrain_of(&t->tool, a->w) : NULL;
}

const octree *app_occupancy_now(app *a)
{
    tool_comp *t = state(a);
    if (!t || !t->ready || !a->w) return NULL;
    double eye[3];
    player_eye(&a->pl, eye);
    return tool_terrain_at(&t->tool, a->w, eye);
}

tool *app_tool(const app *a)
{
    tool_comp *t = state(a);
    return t && t->ready ? &t->tool : NULL;
}

static void tool_frame(void *self, app *a, double now, float dt)
{
    tool_comp *t = self;
    if (!t->ready || !a->w) return;
    tool_view v;
    current_view(a, &v);
    tool_place(&t->tool, &v, &t->pose);
    if (t->cutting) tool_cut(&t->tool, a->w, &t->pose);
    if (t->filling && now >= t->fill_next) {
        tool_fill(&t->tool, a->w, &t->pose, t->tool.material, &v.body);
        t->fill_next = now + APP_FILL_REPEAT_S;
    }
}

/* How strongly the preview tints what a cut takes: enough to tell the
 * tool's colour on every material and in shade. The outline is the colour
 * made lighter and opaque, so it reads over the tint and the terrain. */
#define APP_PREVIEW_FILL_ALPHA 0.55f
#define APP_PREVIEW_OUTLINE_LIGHTEN 0.45f
#define APP_FILL_GHOST_ALPHA 0.6f
#define APP_WIRE_ALPHA 0.9f

/* The voxels a fill adds float in the air: their near faces, tinted,
 * where nothing hides them (as they will show once added). */
static void draw_fill_preview(tool_comp *t, const frame_draw *f, const float rgba[4])
{
    const tool_mask *m = &t->mask;
    shape sh = { .sx = m->size[0], .sy = m->size[1], .sz = m->size[2], .vox = m->v, .count = m->count };
    if (!ghost_set_shape(t->fill_ghost, &sh)) return;
    octree_pose pose;
    const double centre[3] = { m->lo[0] + 0.5 * m->size[0], m->lo[1] + 0.5 * m->size[1], m->lo[2] + 0.5 * m->size[2] };
    octree_pose_identity(&pose, (const float[3]){ 0, 0, 0 });
    octree_pose_place(&pose, centre);
    ghost_draw_style(t->fill_ghost, f->cam, &pose, rgba, f->s->framebuffer, f->s->width, f->s->height, GHOST_FRONT);
}

static void draw_cut_preview(tool_comp *t, app *a, const frame_draw *f, const float *c)
{
    if (!preview_set_mask(t->preview, t->mask.lo, t->mask.size, t->mask.v)) return;
    const float k = APP_PREVIEW_OUTLINE_LIGHTEN;
    preview_style st = {
        .fill = { c[0], c[1], c[2], APP_PREVIEW_FILL_ALPHA },
        .outline = { c[0] + (1 - c[0]) * k, c[1] + (1 - c[1]) * k, c[2] + (1 - c[2]) * k, 1.f },
        .outline_px = f->s->height > 1080 ? 3.f : 2.f,
        /* smooth and enhanced surfaces lie off the voxels' faces */
        .soft = a->render_mode && strcmp(a->render_mode, "blocks") != 0,
    };
    preview_draw(t->preview, f->cam, &st, f->s->framebuffer, f->s->width, f->s->height);
}

/* The preview says what the button will do: the surface of the voxels a
 * cut there removes is tinted in the tool's colour (after a fill, until the
 * next cut: the voxels a fill there adds); when it would change nothing
 * (the tool in the sky), nothing is drawn. tool.preview wire draws the
 * tool's outline instead, while it touches terrain or would cut some. */
static void tool_draw(void *self, app *a, const frame_draw *f)
{
    tool_comp *t = self;
    if (!t->ghost || !t->ready || !a->w || !a->cv.tool_visible->b) return;
    int mode = t->preview_mode ? t->preview_mode->i : SHOW_TINT;
    if (mode == SHOW_OFF) return;
    /* placed again here so headless screenshots show it too: one ray pick */
    tool_view v;
    current_view(a, &v);
    bool touching = tool_place(&t->tool, &v, &t->pose);
    const float *c = app_tint_palette[t->tool.color];
    if (mode == SHOW_WIRE || !t->preview || !t->fill_ghost) {
        if (!touching && !tool_preview_cut(&t->tool, a->w, &t->pose, &t->mask)) return; /* none in the sky */
        if (t->ghost_version != t->tool.shape_version) {
            ghost_set_shape(t->ghost, &t->tool.shape);
            t->ghost_version = t->tool.shape_version;
        }
        const float rgba[4] = { c[0], c[1], c[2], APP_WIRE_ALPHA };
        ghost_draw_style(t->ghost, f->cam, &t->pose, rgba, f->s->framebuffer, f->s->width, f->s->height, GHOST_WIRE);
    } else if (t->fill_shown) {
        if (tool_preview_fill(&t->tool, a->w, &t->pose, &v.body, &t->mask))
            draw_fill_preview(t, f, (const float[4]){ c[0], c[1], c[2], APP_FILL_GHOST_ALPHA });
    } else if (tool_preview_cut(&t->tool, a->w, &t->pose, &t->mask)) {
        draw_cut_preview(t, a, f, c);
    }
}

/* Voxels around the eye the tool's tree covers in a streamed world. */
#define APP_TOOL_STREAM_RADIUS 128

static void tool_new_world(void *self, app *a, world *w)
{
    tool_comp *t = self;
    if (!t->ready) return;
    if (app_stream(a)) {
        /* a window of hundreds of columns that moves: a tree of the
         * columns around the eye instead, rebuilt as the player travels */
        float r = 2.f * t->tool.reach;
        t->tool.terrain_radius = r > APP_TOOL_STREAM_RADIUS ? (int)ceilf(r) : APP_TOOL_STREAM_RADIUS;
        tool_release_world(&t->tool); /* bound on the first pick, around the eye */
        return;
    }
    t->tool.terrain_radius = 0;
    if (!tool_bind_world(&t->tool, w)) log_warn("no memory for the tool's octree: cuts are off");
}

/* Others' edits (grammars, loads): the octree re-reads the box. The tool's
 * own cuts and fills keep it exact as they go. */
static void tool_on_edit(void *self, app *a, const world_edit *e)
{
    tool_comp *t = self;
    if (t->ready && e->source != &app_tool_component && t->tool.terrain_of == a->w)
        tool_world_edited(&t->tool, a->w, e->lo, e->hi);
}

/* Held actions, Quake style: the binding runs "+cut" on press and "-cut" on
 * release. Typed in the console they work the same way. */
static int c_cut_down(void *u, int argc, char **argv)
{
    ((tool_comp *)u)->cutting = true;
    ((tool_comp *)u)->fill_shown = false;
    return 0;
}

static int c_cut_up(void *u, int argc, char **argv)
{
    ((tool_comp *)u)->cutting = false;
    return 0;
}

static int c_fill_down(void *u, int argc, char **argv)
{
    tool_comp *t = u;
    t->filling = true;
    t->fill_shown = true;
    t->fill_next = 0; /* the press itself fills at once */
    return 0;
}

static int c_fill_up(void *u, int argc, char **argv)
{
    ((tool_comp *)u)->filling = false;
    return 0;
}

static void *tool_init_comp(app *a)
{
    tool_comp *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->a = a;
    char err[256];
    t->ready = tool_init(&t->tool, err, sizeof err);
    if (!t->ready) {
        log_error("cutting tool: %s", err);
        return t;
    }
    tool_register(&t->tool, tool_view_now, a);
    t->tool.edited = tool_edited;
    t->tool.edited_user = t;
    const cmd_desc table[] = {
        { "+cut", "", "start cutting with the tool every frame (held: left mouse button)", c_cut_down, t },
        { "-cut", "", "stop cutting", c_cut_up, t },
        { "+fill", "", "fill the tool's shape with tool.material, again while held (right mouse button)", c_fill_down, t },
        { "-fill", "", "stop filling", c_fill_up, t },
    };
    cmd_register_table(table, (int)(sizeof table / sizeof table[0]));
    t->preview_mode = cvar_register(&(cvar_desc){
        "tool.preview",
        "what shows where the tool will act: tint (the voxels a cut takes, tinted; after +fill: the voxels a fill adds), "
        "wire (the tool's outline) or off; nothing shows where the edit would change nothing (the sky)",
        CVAR_ENUM, CVAR_ARCHIVE, "tint", 0, 0, k_preview_names });
    return t;
}

static bool tool_gfx_init(void *self, app *a)
{
    tool_comp *t = self;
    char err[1024];
    if (!t) return false;
    t->ghost = ghost_create(err, sizeof err);
    if (!t->ghost) log_warn("the cutting tool will not be drawn: %s", err); /* cutting still works */
    t->preview = preview_create(err, sizeof err);
    if (!t->preview) log_warn("the tool's tinted preview is off (the wire shows instead): %s", err);
    t->fill_ghost = ghost_create(err, sizeof err);
    return t->ghost != NULL;
}

static void tool_shutdown(void *self, app *a)
{
    tool_comp *t = self;
    if (!t) return;
    if (t->ready) tool_free(&t->tool);
    ghost_destroy(t->ghost);
    ghost_destroy(t->fill_ghost);
    preview_destroy(t->preview);
    tool_mask_free(&t->mask);
    free(t);
}

const component app_tool_component = {
    .name = "tool",
    .init = tool_init_comp,
    .gfx_init = tool_gfx_init,
    .on_new_world = tool_new_world,
    .on_edit = tool_on_edit,
    .on_frame = tool_frame,
    .draw = tool_draw,
    .shutdown = tool_shutdown,
    .pauses = true, /* a held cut does not eat on behind the menu */
};

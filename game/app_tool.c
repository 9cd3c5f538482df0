/* app_tool: the cutting tool in the running game (seed 003). The tool
 * module owns the shape, the octrees and the edits; this file gives it the
 * player's view, turns the held buttons (+cut, +fill) into edits every
 * frame, and keeps the player's collision on the tool's terrain octree.
 * Edits mark only the touched chunks dirty; app_render re-meshes and
 * uploads them in the same frame. */
#include <math.h>
#include <string.h>

#include "app_internal.h"
#include "core/log.h"
#include "ui/cmd.h"

/* A held fill adds a layer this often: fast enough to build, slow enough
 * to aim. A held cut needs no timer: it eats forward every frame. */
#define APP_FILL_REPEAT_S 0.2

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
bool app_tool_view(void *user, tool_view *out)
{
    app *a = user;
    app_sync_world(a);
    current_view(a, out);
    return a->w != NULL;
}

const octree *app_occupancy(const app *a)
{
    return a->tool_ready && a->w && a->tool.terrain_of == a->w ? tool_terrain(&a->tool) : NULL;
}

void app_tool_update(app *a, double now)
{
    if (!a->tool_ready || !a->w) return;
    tool_view v;
    current_view(a, &v);
    tool_place(&a->tool, &v, &a->tool_pose);
    if (a->cutting) tool_cut(&a->tool, a->w, &a->tool_pose);
    if (a->filling && now >= a->fill_next) {
        tool_fill(&a->tool, a->w, &a->tool_pose, a->tool.material, &v.body);
        a->fill_next = now + APP_FILL_REPEAT_S;
    }
}

/* How opaque the ghost's near side is: enough to read the shape, little
 * enough to see the terrain it is about to cut through it. Floating in the
 * air (the view ray met nothing within reach) it is fainter: it would cut
 * nothing there, and it should not hide the view. */
#define APP_GHOST_ALPHA 0.3f
#define APP_GHOST_ALPHA_FLOATING 0.15f

void app_draw_tool(app *a, const camera *cam, unsigned framebuffer, int width, int height)
{
    if (!a->ghost || !a->tool_ready || !a->w || !a->cv.tool_visible->b) return;
    if (a->ghost_version != a->tool.shape_version) {
        ghost_set_shape(a->ghost, &a->tool.shape);
        a->ghost_version = a->tool.shape_version;
    }
    /* placed again here so headless screenshots show it too: one ray pick */
    tool_view v;
    current_view(a, &v);
    bool touching = tool_place(&a->tool, &v, &a->tool_pose);
    const float *c = app_tint_palette[a->tool.color];
    const float rgba[4] = { c[0], c[1], c[2], touching ? APP_GHOST_ALPHA : APP_GHOST_ALPHA_FLOATING };
    ghost_draw(a->ghost, cam, &a->tool_pose, rgba, framebuffer, width, height);
}

/* Held actions, Quake style: the binding runs "+cut" on press and "-cut" on
 * release. Typed in the console they work the same way. */
static int c_cut_down(void *u, int argc, char **argv)
{
    app *a = u;
    a->cutting = true;
    return 0;
}

static int c_cut_up(void *u, int argc, char **argv)
{
    app *a = u;
    a->cutting = false;
    return 0;
}

static int c_fill_down(void *u, int argc, char **argv)
{
    app *a = u;
    a->filling = true;
    a->fill_next = 0; /* the press itself fills at once */
    return 0;
}

static int c_fill_up(void *u, int argc, char **argv)
{
    app *a = u;
    a->filling = false;
    return 0;
}

void app_register_tool(app *a)
{
    char err[256];
    a->tool_ready = tool_init(&a->tool, err, sizeof err);
    if (!a->tool_ready) {
        log_error("cutting tool: %s", err);
        return;
    }
    tool_register(&a->tool, app_tool_view, a);
    const cmd_desc table[] = {
        { "+cut", "", "start cutting with the tool every frame (held: left mouse button)", c_cut_down, a },
        { "-cut", "", "stop cutting", c_cut_up, a },
        { "+fill", "", "fill the tool's shape with tool.material, again while held (right mouse button)", c_fill_down, a },
        { "-fill", "", "stop filling", c_fill_up, a },
    };
    cmd_register_table(table, (int)(sizeof table / sizeof table[0]));
}

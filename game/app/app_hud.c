#include "app_hud.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_tool.h"
#include "core/log.h"
#include "gfx/atlas.h"
#include "platform/platform.h"
#include "play/tool.h"
#include "voxel/material.h"

typedef struct hud_comp {
    atlas_image atlas; /* pixels NULL: not loaded, the strip shows a plain square */
    char shape[48];
} hud_comp;

static hud_comp *state(const app *a) { return component_state(&a->comps, app_hud_component.name); }

static void *hud_init(app *a)
{
    (void)a;
    return calloc(1, sizeof(hud_comp));
}

static bool hud_gfx_init(void *self, app *a)
{
    hud_comp *s = self;
    char err[512];
    const char *path = platform_find_asset("assets/atlas.png");
    if (s && path && !atlas_load(path, &s->atlas, err, sizeof err)) log_warn("tool strip: %s", err);
    return true; /* without the atlas the strip still shows colours */
}

static void hud_shutdown(void *self, app *a)
{
    hud_comp *s = self;
    if (!s) return;
    atlas_free(&s->atlas);
    free(s);
}

const component app_hud_component = {
    .name = "hud",
    .init = hud_init,
    .gfx_init = hud_gfx_init,
    .shutdown = hud_shutdown,
};

/* The name a player knows the shape by: the default formula is the ball, a
 * voxelized mesh goes by its file, any other formula by itself. */
static void shape_name(const tool *t, char *out, size_t len)
{
    const char *name = t->formula, *slash = strrchr(t->mesh, '/');
    if (t->mesh[0]) name = slash ? slash + 1 : t->mesh;
    else if (strcmp(t->formula, TOOL_DEFAULT_SHAPE) == 0) name = "ball";
    size_t n = strlen(name); /* the strip clips it further to its width */
    if (n >= len) n = len - 1;
    memcpy(out, name, n);
    out[n] = 0;
}

bool app_hud_toolbar(app *a, hud_toolbar *out)
{
    hud_comp *s = state(a);
    const tool *t = app_tool(a);
    cvar *show = cvar_find("hud.toolbar");
    if (!s || !t || (show && !show->b)) return false;
    memset(out, 0, sizeof *out);
    out->color = t->color;
    for (int n = 1; n <= HUD_TOOL_COLORS; n++)
        for (int k = 0; k < 3; k++) /* the tints the world draws a cut's faces in */
            out->palette[n][k] = (uint8_t)lroundf(fminf(fmaxf(app_tint_palette[n][k], 0.f), 1.f) * 255.f);
    int m = t->material < MAT_COUNT ? t->material : 0;
    out->material = material_table[m].name;
    out->tile = s->atlas.pixels ? atlas_layer(&s->atlas, material_table[m].tile[FACE_FRONT]) : NULL;
    out->tile_size = ATLAS_TILE;
    out->size = t->size;
    shape_name(t, s->shape, sizeof s->shape);
    out->shape = s->shape;
    return true;
}

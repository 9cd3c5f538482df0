#include "app_plain.h"

#include <stdlib.h>

#include "app_internal.h"
#include "app_light.h"
#include "app_stream.h"
#include "core/log.h"
#include "gfx/plain.h"

typedef struct app_plain {
    plain_renderer *r;
} app_plain;

static void *plain_init(app *a)
{
    (void)a;
    return calloc(1, sizeof(app_plain));
}

static bool plain_gfx_init(void *self, app *a)
{
    (void)a;
    app_plain *p = self;
    if (!p) return false;
    char err[1024];
    p->r = plain_create(err, sizeof err);
    if (!p->r) log_warn("the ground beyond the world's edge will not be drawn: %s", err);
    return p->r != NULL;
}

static void plain_draw_hook(void *self, app *a, const frame_draw *f)
{
    app_plain *p = self;
    if (!p || !p->r || !a->w || !f->s->atlas) return;
    /* A finite world's own bedrock layer is the floor over its footprint
     * (at the render origin, 0 for every finite world). A streamed world
     * has no footprint: the plain lies under all of it, hidden by its
     * bedrock where columns are generated and the floor where they are
     * still to come, as beyond the window. */
    bool streamed = app_stream(a) != NULL || app_light_world_hidden(a); /* none of it drawn yet */
    plain_draw(p->r, f->cam, f->s, f->s->atlas, material_get(MAT_BEDROCK)->tile[FACE_TOP], streamed ? 0 : a->w->sx,
               streamed ? 0 : a->w->sz);
}

static void plain_shutdown(void *self, app *a)
{
    (void)a;
    app_plain *p = self;
    if (!p) return;
    plain_destroy(p->r);
    free(p);
}

const component app_plain_component = {
    .name = "plain",
    .init = plain_init,
    .gfx_init = plain_gfx_init,
    .draw = plain_draw_hook,
    .shutdown = plain_shutdown,
};

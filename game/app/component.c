#include "component.h"

#include <string.h>

#include "core/log.h"
#include "core/timer.h"

bool component_add(component_table *t, const component *c)
{
    if (!c || !c->name) return false;
    for (int i = 0; i < t->count; i++)
        if (t->c[i] == c || strcmp(t->c[i]->name, c->name) == 0) {
            log_error("component '%s' is already in the table", c->name);
            return false;
        }
    if (t->count == COMPONENT_MAX) {
        log_error("component table full: '%s' left out", c->name);
        return false;
    }
    t->c[t->count] = c;
    t->self[t->count] = NULL;
    t->drawable[t->count] = false;
    t->count++;
    return true;
}

void *component_state(const component_table *t, const char *name)
{
    for (int i = 0; i < t->count; i++)
        if (strcmp(t->c[i]->name, name) == 0) return t->self[i];
    return NULL;
}

void component_init_all(component_table *t, app *a)
{
    for (int i = 0; i < t->count; i++)
        if (t->c[i]->init) t->self[i] = t->c[i]->init(a);
}

void component_gfx_init_all(component_table *t, app *a)
{
    for (int i = 0; i < t->count; i++)
        t->drawable[i] = !t->c[i]->gfx_init || t->c[i]->gfx_init(t->self[i], a);
}

void component_world_leaving_all(component_table *t, app *a, world *old)
{
    for (int i = 0; i < t->count; i++)
        if (t->c[i]->on_world_leaving) t->c[i]->on_world_leaving(t->self[i], a, old);
}

void component_window_moving_all(component_table *t, app *a, const int lo[2], const int hi[2])
{
    for (int i = 0; i < t->count; i++)
        if (t->c[i]->on_window_moving) t->c[i]->on_window_moving(t->self[i], a, lo, hi);
}

void component_new_world_all(component_table *t, app *a, world *w)
{
    for (int i = 0; i < t->count; i++)
        if (t->c[i]->on_new_world) t->c[i]->on_new_world(t->self[i], a, w);
}

void component_edit_all(component_table *t, app *a, const world_edit *e)
{
    for (int i = 0; i < t->count; i++)
        if (t->c[i]->on_edit) t->c[i]->on_edit(t->self[i], a, e);
}

void component_frame_all(component_table *t, app *a, double now, float dt)
{
    for (int i = 0; i < t->count; i++) {
        if (!t->c[i]->on_frame || (t->paused && t->c[i]->pauses)) continue;
        uint64_t t0 = timer_ns(), c0 = timer_thread_cpu_ns();
        t->c[i]->on_frame(t->self[i], a, now, dt);
        t->frame_ms[i] = (float)timer_ms_since(t0);
        t->frame_cpu_ms[i] = (float)timer_cpu_ms_since(c0);
    }
}

void component_draw_first_all(component_table *t, app *a, const frame_draw *f)
{
    for (int i = 0; i < t->count; i++)
        if (t->c[i]->draw_first && t->drawable[i]) t->c[i]->draw_first(t->self[i], a, f);
}

void component_draw_all(component_table *t, app *a, const frame_draw *f)
{
    for (int i = 0; i < t->count; i++)
        if (t->c[i]->draw && t->drawable[i]) t->c[i]->draw(t->self[i], a, f);
}

void component_shutdown_all(component_table *t, app *a)
{
    for (int i = t->count - 1; i >= 0; i--) {
        if (t->c[i]->shutdown) t->c[i]->shutdown(t->self[i], a);
        t->self[i] = NULL;
    }
    t->count = 0;
}

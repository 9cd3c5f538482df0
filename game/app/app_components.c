/* app_components: the list of the app's components, in the order their
 * hooks run (init, new world, edit, frame, draw; shutdown in reverse). A
 * new subsystem adds its line here and keeps everything else in its own
 * file. */
#include "app_bodies.h"
#include "app_grammar.h"
#include "app_hud.h"
#include "app_internal.h"
#include "app_emit.h"
#include "app_enhance.h"
#include "app_far.h"
#include "app_light.h"
#include "app_menu.h"
#include "app_move.h"
#include "app_plain.h"
#include "app_render.h"
#include "app_save.h"
#include "app_smooth.h"
#include "app_sound.h"
#include "app_stream.h"
#include "app_tool.h"
#include "app_voxelize.h"

void app_add_components(app *a)
{
    static const component *const list[] = {
        &app_stream_component, /* first: a streamed world's spawn ground is there before anyone looks */
        &app_save_component,   /* a saved world's edits are in before anyone meshes or lights it */
        &app_render_component, /* a new world is meshed before others look at it */
        &app_far_component,    /* the far rings behind the near field, before the sky fills the rest */
        &app_sky_component,   /* fills what the world left empty, before anything blends over it */
        &app_plain_component, /* draws before the tool's ghost, which blends over it */
        &app_tool_component,
        &app_move_component,
        &app_bodies_component, /* after the tool: what a cut leaves loose falls the same frame */
        &app_light_component,
        &app_emit_component,
        &app_enhance_component,
        &app_smooth_component,
        &app_voxelize_component,
        &app_caves_component,
        &app_hud_component,
        &app_menu_component,
        &app_sound_component, /* last: hears the frame's steps and landings once everything moved */
    };
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++) component_add(&a->comps, list[i]);
}

/* app_move: held movement actions. A binding runs "+forward" on press and
 * "-forward" on release (ui/bind.h); typed or scripted, they hold until
 * the "-" command, so `+forward; frames 60; -forward` walks a second. */
#include "app_move.h"

#include <stdlib.h>
#include <string.h>

#include "ui/cmd.h"

enum { MOVE_FORWARD, MOVE_BACK, MOVE_LEFT, MOVE_RIGHT, MOVE_JUMP, MOVE_SPRINT, MOVE_DOWN, MOVE_COUNT };

typedef struct move_comp move_comp;

/* One command of an action's pair: which action, pressed or released. */
typedef struct move_action {
    move_comp *m;
    int which;
    bool down;
} move_action;

struct move_comp {
    bool held[MOVE_COUNT];
    move_action act[MOVE_COUNT * 2];
};

static int c_action(void *u, int argc, char **argv)
{
    (void)argc, (void)argv;
    const move_action *act = u;
    act->m->held[act->which] = act->down;
    return 0;
}

void app_move_input(const app *a, player_input *in)
{
    memset(in, 0, sizeof *in);
    const move_comp *m = component_state(&a->comps, app_move_component.name);
    if (!m) return;
    const bool *h = m->held;
    in->forward = (float)h[MOVE_FORWARD] - (float)h[MOVE_BACK];
    in->strafe = (float)h[MOVE_RIGHT] - (float)h[MOVE_LEFT];
    in->jump = in->fly_up = h[MOVE_JUMP];
    in->fly_down = h[MOVE_DOWN];
    in->sprint = h[MOVE_SPRINT];
}

static void on_autostep(cvar *c, void *user) { ((app *)user)->pl.autostep = c->b; }

static void *move_init(app *a)
{
    move_comp *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    /* pressed, released; in the enum's order */
    static const char *const k[MOVE_COUNT * 2][2] = {
        { "+forward", "walk forward while held (W)" }, { "-forward", "stop walking forward" },
        { "+back", "walk backward while held (S)" },   { "-back", "stop walking backward" },
        { "+left", "step left while held (A)" },       { "-left", "stop stepping left" },
        { "+right", "step right while held (D)" },     { "-right", "stop stepping right" },
        { "+jump", "jump (again on landing); fly up while held (SPACE)" }, { "-jump", "stop jumping or rising" },
        { "+sprint", "sprint forward; fly fast while held (CTRL)" },       { "-sprint", "stop sprinting" },
        { "+down", "fly down while held (SHIFT)" },    { "-down", "stop flying down" },
    };
    cmd_desc table[MOVE_COUNT * 2];
    for (int i = 0; i < MOVE_COUNT * 2; i++) {
        m->act[i] = (move_action){ m, i / 2, i % 2 == 0 };
        table[i] = (cmd_desc){ k[i][0], "", k[i][1], c_action, &m->act[i] };
    }
    cmd_register_table(table, MOVE_COUNT * 2);
    cvar *c = cvar_register(&(cvar_desc){ "player.autostep",
                                          "walking into a one-voxel rise steps up onto it (never into a ceiling)",
                                          CVAR_BOOL, CVAR_ARCHIVE, "1", 0, 0, NULL, on_autostep, a });
    if (c) on_autostep(c, a);
    return m;
}

static void move_shutdown(void *self, app *a)
{
    (void)a;
    free(self);
}

const component app_move_component = {
    .name = "move",
    .init = move_init,
    .shutdown = move_shutdown,
};

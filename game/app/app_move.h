/* app_move: the player's movement as held actions (+forward, +back, +left,
 * +right, +jump, +sprint, +down), Quake style, so keys are bindings and a
 * script walks as a player does; and player.autostep. */
#ifndef STRATA_APP_MOVE_H
#define STRATA_APP_MOVE_H

#include "app_internal.h"

extern const component app_move_component;

/* This frame's input from the held actions (all zero when none is held). */
void app_move_input(const app *a, player_input *in);

#endif

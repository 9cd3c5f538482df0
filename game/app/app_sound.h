/* app_sound: the game's sounds as the component "sound". It hears the same
 * hooks as every subsystem (an edit's box: a cut or a fill; each frame: the
 * player's feet, the bodies landing) and plays the synthesised bank
 * (app_sound_bank.c) around the camera. docs/sound.md. */
#ifndef STRATA_APP_SOUND_H
#define STRATA_APP_SOUND_H

#include "component.h"

/* cvars sound.enable, sound.volume, sound.log; command `sound`. */
extern const component app_sound_component;

/* Plays a sound of the interface ("click", "select": the menu) at the
 * player, not placed in the world. False when it is not played: sound off,
 * no device, or no such sound. */
bool app_sound_ui(struct app *a, const char *name);

#endif

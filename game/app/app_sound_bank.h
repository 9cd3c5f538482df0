/* app_sound_bank: every sound of the game as a synth recipe, by name. The
 * world's sounds come per material class (the enhancement classes of the
 * material table: rock, soil, sand, wood, leaves, bog), so a cut into sand
 * hisses and a step on wood knocks. */
#ifndef STRATA_APP_SOUND_BANK_H
#define STRATA_APP_SOUND_BANK_H

#include <stdint.h>

#include "audio/synth.h"

typedef enum sound_id {
    SOUND_CUT,                             /* + class: SOUND_CUT + SOUND_CLASS_SAND */
    SOUND_STEP = SOUND_CUT + 6,            /* + class */
    SOUND_FILL = SOUND_STEP + 6,
    SOUND_IMPACT, /* a body landing */
    SOUND_CRASH,  /* a felled tree landing */
    SOUND_CLICK,  /* the menu: moving between items */
    SOUND_SELECT, /* the menu: choosing one */
    SOUND_COUNT
} sound_id;

/* The six classes, in the order of the per-class sounds. */
typedef enum sound_class {
    SOUND_CLASS_ROCK, SOUND_CLASS_SOIL, SOUND_CLASS_SAND, SOUND_CLASS_WOOD, SOUND_CLASS_LEAVES, SOUND_CLASS_BOG
} sound_class;

/* The class a material sounds like (anything unnamed: rock). */
sound_class sound_class_of(uint8_t mat);
/* Name ("cut.sand", "crash", "click") and recipe of each sound. */
const char *sound_name(sound_id id);
const synth_desc *sound_recipe(sound_id id);
/* The id of a name, or -1. */
int sound_find(const char *name);

#endif

#include "app_sound_bank.h"

#include <string.h>

#include "voxel/material.h"

/* Fields: duration attack decay level | noise band0 band1 q | tone tone0
 * tone1 tone_decay | crackle crackle_rate | seed. Every attack is a few
 * milliseconds: the sound is heard in the frame of its event. Cuts are
 * bright and gritty, steps the same colours shorter and softer, the
 * landings low (a sine falling in pitch under noise), the menu's pure tones. */
static const struct {
    const char *name;
    synth_desc d;
} k_bank[SOUND_COUNT] = {
    [SOUND_CUT + SOUND_CLASS_ROCK] = { "cut.rock", { 0.22f, 0.002f, 0.06f, 0.8f, 1, 2600, 1100, 1.5f, 0.3f, 180, 90, 0.04f, 0.8f, 400, 11 } },
    [SOUND_CUT + SOUND_CLASS_SOIL] = { "cut.soil", { 0.20f, 0.003f, 0.07f, 0.75f, 1, 700, 300, 1, 0.5f, 110, 60, 0, 0.3f, 150, 12 } },
    [SOUND_CUT + SOUND_CLASS_SAND] = { "cut.sand", { 0.25f, 0.004f, 0.09f, 0.7f, 1, 4000, 2400, 0.8f, 0, 0, 0, 0, 0.2f, 600, 13 } },
    [SOUND_CUT + SOUND_CLASS_WOOD] = { "cut.wood", { 0.25f, 0.002f, 0.06f, 0.8f, 0.6f, 1200, 700, 3, 0.6f, 300, 200, 0.08f, 1, 200, 14 } },
    [SOUND_CUT + SOUND_CLASS_LEAVES] = { "cut.leaves", { 0.30f, 0.005f, 0.10f, 0.6f, 1, 5000, 3000, 0.7f, 0, 0, 0, 0, 0.6f, 900, 15 } },
    [SOUND_CUT + SOUND_CLASS_BOG] = { "cut.bog", { 0.30f, 0.005f, 0.10f, 0.7f, 0.7f, 400, 250, 4, 0.5f, 90, 140, 0, 0.1f, 50, 16 } },
    [SOUND_STEP + SOUND_CLASS_ROCK] = { "step.rock", { 0.10f, 0.002f, 0.025f, 0.5f, 1, 2200, 1500, 1.2f, 0.3f, 150, 100, 0.02f, 0.6f, 300, 21 } },
    [SOUND_STEP + SOUND_CLASS_SOIL] = { "step.soil", { 0.12f, 0.003f, 0.03f, 0.5f, 1, 500, 250, 1, 0.6f, 90, 60, 0.03f, 0.2f, 100, 22 } },
    [SOUND_STEP + SOUND_CLASS_SAND] = { "step.sand", { 0.14f, 0.006f, 0.04f, 0.45f, 1, 3500, 2000, 0.8f, 0.2f, 80, 60, 0.03f, 0.3f, 500, 23 } },
    [SOUND_STEP + SOUND_CLASS_WOOD] = { "step.wood", { 0.12f, 0.002f, 0.03f, 0.5f, 0.4f, 900, 600, 4, 0.8f, 220, 180, 0.04f, 0.2f, 80, 24 } },
    [SOUND_STEP + SOUND_CLASS_LEAVES] = { "step.leaves", { 0.16f, 0.004f, 0.05f, 0.4f, 1, 4500, 2500, 0.7f, 0, 0, 0, 0, 0.6f, 800, 25 } },
    [SOUND_STEP + SOUND_CLASS_BOG] = { "step.bog", { 0.18f, 0.006f, 0.06f, 0.5f, 0.6f, 350, 220, 5, 0.6f, 80, 130, 0, 0, 0, 26 } },
    [SOUND_FILL] = { "fill", { 0.20f, 0.002f, 0.06f, 0.75f, 0.4f, 600, 300, 1, 0.8f, 140, 70, 0.06f, 0.1f, 80, 31 } },
    [SOUND_IMPACT] = { "impact", { 0.50f, 0.002f, 0.12f, 0.9f, 0.6f, 500, 150, 1, 1, 70, 40, 0.15f, 0.4f, 100, 32 } },
    [SOUND_CRASH] = { "crash", { 1.60f, 0.003f, 0.45f, 0.95f, 1, 1800, 250, 0.9f, 0.8f, 60, 35, 0.40f, 1, 60, 33 } },
    [SOUND_CLICK] = { "click", { 0.03f, 0.001f, 0.008f, 0.5f, 0.2f, 4000, 4000, 1, 1, 2000, 1800, 0, 0, 0, 41 } },
    [SOUND_SELECT] = { "select", { 0.08f, 0.002f, 0.03f, 0.5f, 0, 0, 0, 0, 1, 900, 1300, 0, 0, 0, 42 } },
};

sound_class sound_class_of(uint8_t mat)
{
    switch (material_get(mat)->enhance.cls) {
    case ECLASS_SOIL: return SOUND_CLASS_SOIL;
    case ECLASS_SAND: return SOUND_CLASS_SAND;
    case ECLASS_WOOD: return SOUND_CLASS_WOOD;
    case ECLASS_LEAVES: return SOUND_CLASS_LEAVES;
    case ECLASS_BOG: return SOUND_CLASS_BOG;
    default: return SOUND_CLASS_ROCK;
    }
}

const char *sound_name(sound_id id) { return id >= 0 && id < SOUND_COUNT ? k_bank[id].name : NULL; }

const synth_desc *sound_recipe(sound_id id) { return id >= 0 && id < SOUND_COUNT ? &k_bank[id].d : NULL; }

int sound_find(const char *name)
{
    for (int i = 0; i < SOUND_COUNT; i++)
        if (strcmp(k_bank[i].name, name) == 0) return i;
    return -1;
}

/* synth: the game's sounds made from numbers, no recordings. A sound is a
 * recipe (band-passed noise, a swept sine, random crackle, one envelope)
 * rendered into mono float samples at any rate, the same samples for the
 * same recipe and seed. Pure CPU: testable without an audio device. */
#ifndef STRATA_SYNTH_H
#define STRATA_SYNTH_H

#include <stddef.h>
#include <stdint.h>

typedef struct synth_desc {
    float duration; /* seconds */
    float attack;   /* seconds to full level (short: the onset is the event) */
    float decay;    /* seconds: exponential time constant after the attack */
    float level;    /* peak of the result, 0..1 (its loudness next to the others) */
    /* noise through a band-pass whose centre slides from band0 to band1 Hz */
    float noise, band0, band1, q;
    /* a sine sliding from tone0 to tone1 Hz, decaying with tone_decay (0: decay) */
    float tone, tone0, tone1, tone_decay;
    /* clicks at random times, crackle_rate a second: grit, snapping wood */
    float crackle, crackle_rate;
    uint32_t seed;
} synth_desc;

/* Samples the sound takes at `rate` Hz. */
size_t synth_length(const synth_desc *d, int rate);
/* Renders the sound into out[0 .. synth_length) (max: out's size; fewer
 * are written if it is shorter), scaled so its peak is d->level. Returns
 * the samples written. */
size_t synth_render(const synth_desc *d, int rate, float *out, size_t max);

#endif

/* audio: the sound device (OpenAL Soft): buffers of mono samples, a pool of
 * voices placed around a listener at the origin, and the device's sample
 * clock. Positions are relative to the listener (the caller subtracts the
 * camera), so no float ever holds a far coordinate. No device is not an
 * error the game stops for: audio_open says why, and the caller stays silent. */
#ifndef STRATA_AUDIO_H
#define STRATA_AUDIO_H

#include <stdbool.h>
#include <stddef.h>

typedef struct audio audio;

typedef struct audio_desc {
    /* inverse distance, clamped: full gain within ref_distance, half at
     * twice it (rolloff 1), no quieter past max_distance (voxels) */
    float ref_distance, max_distance, rolloff;
    int voices; /* sounds at once (0: 32); the oldest gives way */
} audio_desc;

/* NULL with the reason in err when no device or context opens. */
audio *audio_open(const audio_desc *d, char *err, size_t errlen);
void audio_close(audio *au);
/* The device's output rate (Hz): sounds made at it play unresampled. */
int audio_rate(const audio *au);
/* A sound of n mono samples in [-1, 1] at `rate` Hz: its id, or -1 (no memory). */
int audio_add(audio *au, const float *samples, size_t n, int rate);

typedef struct audio_voice {
    int sound;
    float pos[3];  /* from the listener, voxels; with `relative` the listener's own axes */
    bool relative; /* fixed to the listener (the player's own feet, the menu) */
    float gain;    /* 0..1 before distance */
    float pitch;   /* 1: as made; 0 is taken as 1 */
} audio_voice;
/* Starts a sound now. False when it cannot (no such sound, no voice). */
bool audio_play(audio *au, const audio_voice *v);
/* The listener's facing and overall gain (sound.volume). */
void audio_listener(audio *au, const float forward[3], const float up[3], float gain);
void audio_stop_all(audio *au);
/* Sounds playing now. */
int audio_playing(audio *au);
/* Milliseconds of output the device has made since it opened: a sound
 * started now begins there in the output (a recording's timeline). -1
 * when the device keeps no clock. */
double audio_clock_ms(audio *au);

#endif

#include "audio.h"

#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alext.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AUDIO_MAX_VOICES 64
#define AUDIO_MAX_SOUNDS 64

struct audio {
    ALCdevice *dev;
    ALCcontext *ctx;
    LPALCGETINTEGER64VSOFT get_int64; /* ALC_SOFT_device_clock, or NULL */
    int rate;
    ALuint buffers[AUDIO_MAX_SOUNDS];
    int sound_count;
    ALuint sources[AUDIO_MAX_VOICES];
    unsigned started[AUDIO_MAX_VOICES]; /* when each voice last started: the oldest gives way */
    unsigned serial;
    int voices;
};

audio *audio_open(const audio_desc *d, char *err, size_t errlen)
{
    audio *au = calloc(1, sizeof *au);
    if (!au) {
        snprintf(err, errlen, "no memory");
        return NULL;
    }
    au->dev = alcOpenDevice(NULL);
    if (!au->dev) {
        snprintf(err, errlen, "no audio device opens (OpenAL Soft: set ALSOFT_DRIVERS to choose one)");
        free(au);
        return NULL;
    }
    au->ctx = alcCreateContext(au->dev, NULL);
    if (!au->ctx || !alcMakeContextCurrent(au->ctx)) {
        snprintf(err, errlen, "the audio device '%s' gives no context",
                 alcGetString(au->dev, ALC_DEVICE_SPECIFIER));
        audio_close(au);
        return NULL;
    }
    ALCint rate = 0;
    alcGetIntegerv(au->dev, ALC_FREQUENCY, 1, &rate);
    au->rate = rate > 0 ? rate : 44100;
    if (alcIsExtensionPresent(au->dev, "ALC_SOFT_device_clock")) {
        /* a data pointer to a function pointer: ISO C allows only a copy of the bits */
        void *fn = alcGetProcAddress(au->dev, "alcGetInteger64vSOFT");
        if (fn && sizeof fn == sizeof au->get_int64) memcpy(&au->get_int64, &fn, sizeof fn);
    }
    alDistanceModel(AL_INVERSE_DISTANCE_CLAMPED);
    au->voices = d->voices > 0 && d->voices <= AUDIO_MAX_VOICES ? d->voices : 32;
    alGetError();
    alGenSources(au->voices, au->sources);
    if (alGetError() != AL_NO_ERROR) {
        snprintf(err, errlen, "the audio device gives no voices");
        au->voices = 0;
        audio_close(au);
        return NULL;
    }
    for (int i = 0; i < au->voices; i++) {
        alSourcef(au->sources[i], AL_REFERENCE_DISTANCE, d->ref_distance > 0 ? d->ref_distance : 1.f);
        alSourcef(au->sources[i], AL_MAX_DISTANCE, d->max_distance > 0 ? d->max_distance : 1000.f);
        alSourcef(au->sources[i], AL_ROLLOFF_FACTOR, d->rolloff >= 0 ? d->rolloff : 1.f);
    }
    alListener3f(AL_POSITION, 0, 0, 0);
    return au;
}

void audio_close(audio *au)
{
    if (!au) return;
    if (au->ctx) {
        alcMakeContextCurrent(au->ctx);
        if (au->voices) {
            alSourceStopv(au->voices, au->sources);
            alDeleteSources(au->voices, au->sources);
        }
        if (au->sound_count) alDeleteBuffers(au->sound_count, au->buffers);
        alcMakeContextCurrent(NULL);
        alcDestroyContext(au->ctx);
    }
    if (au->dev) alcCloseDevice(au->dev);
    free(au);
}

int audio_rate(const audio *au) { return au->rate; }

int audio_add(audio *au, const float *samples, size_t n, int rate)
{
    if (au->sound_count == AUDIO_MAX_SOUNDS || !n || n > (size_t)INT32_MAX / 2) return -1;
    int16_t *pcm = malloc(n * sizeof *pcm); /* 16-bit mono: what every OpenAL plays */
    if (!pcm) return -1;
    for (size_t i = 0; i < n; i++) {
        float s = samples[i] < -1.f ? -1.f : samples[i] > 1.f ? 1.f : samples[i];
        pcm[i] = (int16_t)lrintf(s * 32767.f);
    }
    ALuint b = 0;
    alGetError();
    alGenBuffers(1, &b);
    alBufferData(b, AL_FORMAT_MONO16, pcm, (ALsizei)(n * sizeof *pcm), rate);
    free(pcm);
    if (alGetError() != AL_NO_ERROR) {
        alDeleteBuffers(1, &b);
        return -1;
    }
    au->buffers[au->sound_count] = b;
    return au->sound_count++;
}

/* A voice that has finished, else the one started longest ago. */
static int free_voice(audio *au)
{
    int oldest = 0;
    for (int i = 0; i < au->voices; i++) {
        ALint st = AL_STOPPED;
        alGetSourcei(au->sources[i], AL_SOURCE_STATE, &st);
        if (st != AL_PLAYING) return i;
        if (au->serial - au->started[i] > au->serial - au->started[oldest]) oldest = i;
    }
    return oldest;
}

bool audio_play(audio *au, const audio_voice *v)
{
    if (v->sound < 0 || v->sound >= au->sound_count || !au->voices) return false;
    int i = free_voice(au);
    ALuint s = au->sources[i];
    alSourceStop(s);
    alSourcei(s, AL_BUFFER, (ALint)au->buffers[v->sound]);
    alSourcei(s, AL_SOURCE_RELATIVE, v->relative ? AL_TRUE : AL_FALSE);
    alSource3f(s, AL_POSITION, v->pos[0], v->pos[1], v->pos[2]);
    alSourcef(s, AL_GAIN, v->gain > 0 ? v->gain : 0.f);
    alSourcef(s, AL_PITCH, v->pitch > 0 ? v->pitch : 1.f);
    alSourcePlay(s);
    au->started[i] = ++au->serial;
    return alGetError() == AL_NO_ERROR;
}

void audio_listener(audio *au, const float forward[3], const float up[3], float gain)
{
    const ALfloat ori[6] = { forward[0], forward[1], forward[2], up[0], up[1], up[2] };
    alListenerfv(AL_ORIENTATION, ori);
    alListenerf(AL_GAIN, gain > 0 ? gain : 0.f);
}

void audio_stop_all(audio *au)
{
    if (au->voices) alSourceStopv(au->voices, au->sources);
}

int audio_playing(audio *au)
{
    int n = 0;
    for (int i = 0; i < au->voices; i++) {
        ALint st = AL_STOPPED;
        alGetSourcei(au->sources[i], AL_SOURCE_STATE, &st);
        n += st == AL_PLAYING;
    }
    return n;
}

double audio_clock_ms(audio *au)
{
    if (!au->get_int64) return -1;
    ALCint64SOFT ns = 0;
    au->get_int64(au->dev, ALC_DEVICE_CLOCK_SOFT, 1, &ns);
    return (double)ns * 1e-6;
}

#include "synth.h"

#include <math.h>

#include "core/rng.h"

#define SYNTH_PI 3.14159265358979f
/* The last few milliseconds fade to zero: a sound cut off mid-wave clicks. */
#define SYNTH_FADE_S 0.004f
/* A crackle's click rings down this fast (seconds). */
#define SYNTH_CLICK_S 0.0025f

size_t synth_length(const synth_desc *d, int rate)
{
    if (!(d->duration > 0) || rate <= 0) return 0;
    return (size_t)ceilf(d->duration * (float)rate);
}

static float noise_sample(rng *r) { return (float)(rng_double(r) * 2.0 - 1.0); }

/* f0 * (f1 / f0)^u: a slide that sounds even (pitch is logarithmic). */
static float slide(float f0, float f1, float u)
{
    if (!(f0 > 0) || !(f1 > 0)) return f0 > 0 ? f0 : f1;
    return f0 * powf(f1 / f0, u);
}

size_t synth_render(const synth_desc *d, int rate, float *out, size_t max)
{
    size_t n = synth_length(d, rate);
    if (n > max) n = max;
    if (!n) return 0;
    rng r = rng_make(d->seed);
    const float fs = (float)rate, nyq = 0.45f * fs;
    const float attack = d->attack > 0 ? d->attack : 1.f / fs;
    const float decay = d->decay > 0 ? d->decay : d->duration;
    const float tdecay = d->tone_decay > 0 ? d->tone_decay : decay;
    const float damp = d->q > 0 ? 1.f / d->q : 1.f;
    const float click_k = expf(-1.f / (SYNTH_CLICK_S * fs));
    const float crack_p = d->crackle_rate > 0 ? d->crackle_rate / fs : 0;
    float low = 0, band = 0, phase = 0, click = 0, peak = 0;
    for (size_t i = 0; i < n; i++) {
        const float t = (float)i / fs, u = (float)i / (float)n;
        const float rise = t < attack ? t / attack : 1.f;
        const float after = t < attack ? 0 : t - attack;
        const float fade = fminf(1.f, (d->duration - t) / SYNTH_FADE_S);
        const float env = rise * expf(-after / decay) * fade;
        /* Chamberlin state-variable band-pass, stable below fs/6 or so: the
         * centre is kept well under Nyquist */
        const float fc = fminf(slide(d->band0, d->band1, u), nyq / 3.f);
        const float f = 2.f * sinf(SYNTH_PI * fc / fs);
        const float high = noise_sample(&r) - low - damp * band;
        band += f * high;
        low += f * band;
        phase += 2.f * SYNTH_PI * fminf(slide(d->tone0, d->tone1, u), nyq) / fs;
        if (phase > 2.f * SYNTH_PI) phase -= 2.f * SYNTH_PI;
        const float tone = sinf(phase) * rise * expf(-after / tdecay) * fade;
        click *= click_k;
        if (crack_p > 0 && rng_double(&r) < crack_p) click = 0.3f + 0.7f * (float)rng_double(&r);
        const float crack = click * noise_sample(&r);
        out[i] = d->noise * band * env + d->tone * tone + d->crackle * crack * env;
        if (fabsf(out[i]) > peak) peak = fabsf(out[i]);
    }
    const float scale = peak > 0 ? d->level / peak : 0;
    for (size_t i = 0; i < n; i++) out[i] *= scale;
    return n;
}

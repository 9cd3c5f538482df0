#include "app_light_land.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "voxel/stream.h"

static int slot_of(const light_land *l, int cx, int cz)
{
    int x = cx % l->cx, z = cz % l->cz;
    return (x < 0 ? x + l->cx : x) + l->cx * (z < 0 ? z + l->cz : z);
}

bool light_land_reset(light_land *l, const world *w)
{
    int n = w->cx * w->cz;
    if (!l->landed || l->cx * l->cz != n) {
        free(l->gx), free(l->gz), free(l->landed);
        l->gx = malloc(sizeof *l->gx * (size_t)n);
        l->gz = malloc(sizeof *l->gz * (size_t)n);
        l->landed = malloc(sizeof *l->landed * (size_t)n);
        if (!l->gx || !l->gz || !l->landed) {
            free(l->gx), free(l->gz), free(l->landed);
            l->gx = l->gz = NULL, l->landed = NULL;
            return false;
        }
    }
    l->cx = w->cx, l->cz = w->cz;
    memset(l->landed, 0, sizeof *l->landed * (size_t)n);
    l->settling = true;
    return true;
}

void light_land_set(light_land *l, const world *w, int cx, int cz, bool landed)
{
    if (!l->landed || l->cx != w->cx || l->cz != w->cz) return;
    int s = slot_of(l, cx, cz);
    l->gx[s] = cx, l->gz[s] = cz, l->landed[s] = landed;
}

bool light_land_has(const light_land *l, const world *w, int cx, int cz)
{
    if (!l->landed || l->cx != w->cx || l->cz != w->cz) return true; /* nothing kept: drawn as without it */
    int s = slot_of(l, cx, cz);
    return l->landed[s] && l->gx[s] == cx && l->gz[s] == cz;
}

void light_land_all(light_land *l, const world *w, bool streamed)
{
    for (int z = w->ocz; z < w->ocz + w->cz; z++)
        for (int x = w->ocx; x < w->ocx + w->cx; x++)
            if (!streamed || stream_meshable(w, x, z)) light_land_set(l, w, x, z, true);
}

const unsigned char *light_land_mask(light_land *l, const world *w, const unsigned char *has)
{
    if (!l->landed || l->cx != w->cx || l->cz != w->cz) return has;
    if (l->mask_cap < w->chunk_count) {
        unsigned char *m = realloc(l->mask, (size_t)w->chunk_count);
        if (!m) return has;
        l->mask = m, l->mask_cap = w->chunk_count;
    }
    for (int i = 0; i < w->chunk_count; i++) {
        int cx, cy, cz;
        world_chunk_coords(w, i, &cx, &cy, &cz);
        unsigned char v = has ? has[i] : 1;
        l->mask[i] = v && light_land_has(l, w, cx, cz) ? v : 0;
    }
    return l->mask;
}

void light_land_count(const light_land *l, const world *w, bool streamed, double x, double z, double distance,
                      int *lit, int *baking, int *coming)
{
    *lit = *baking = *coming = 0;
    for (int cz = w->ocz; cz < w->ocz + w->cz; cz++)
        for (int cx = w->ocx; cx < w->ocx + w->cx; cx++) {
            double dx = fmax(fmax((double)cx * CHUNK_SIZE - x, x - (cx + 1.0) * CHUNK_SIZE), 0);
            double dz = fmax(fmax((double)cz * CHUNK_SIZE - z, z - (cz + 1.0) * CHUNK_SIZE), 0);
            if (dx * dx + dz * dz > distance * distance) continue;
            if (light_land_has(l, w, cx, cz)) (*lit)++;
            else if (!streamed || stream_meshable(w, cx, cz)) (*baking)++;
            else (*coming)++;
        }
}

void light_land_free(light_land *l)
{
    free(l->gx), free(l->gz), free(l->landed), free(l->mask);
    memset(l, 0, sizeof *l);
}

/* bodies_cut.c: the cutting tool and ray picks on voxel bodies in flight
 * (bodies.h: bodies_cut, bodies_raycast): the tool's pose and a ray
 * turned into a body's grid (in the body's integer frame, so exact far
 * from the origin), the cut voxels removed and the faces they expose
 * painted, and what is left split into bodies (body_split). The dynamics
 * are in bodies.c and bodies_contact.c. */
#include "physics/bodies_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool in_grid(const body *b, const int c[3])
{
    return c[0] >= 0 && c[1] >= 0 && c[2] >= 0 && c[0] < b->size[0] && c[1] < b->size[1] && c[2] < b->size[2];
}

/* The pose `pose` (a tool's grid in the world) in b's grid instead:
 * p_b = com + R^T (x - pos) for world point x. */
static void pose_in_body(const body *b, const octree_pose *pose, octree_pose *out)
{
    float r[3][3];
    body_rotation(b, r);
    /* the pose's world position (org + pos) from the body's (org + pos);
     * the frames subtracted in double (4e9 apart they overflow an int) */
    float d[3];
    for (int i = 0; i < 3; i++) d[i] = (float)((double)pose->org[i] - b->org[i] + pose->pos[i] - b->pos[i]);
    memset(out->org, 0, sizeof out->org); /* the body's grid is small */
    for (int i = 0; i < 3; i++) {
        out->pos[i] = b->com[i] + r[0][i] * d[0] + r[1][i] * d[1] + r[2][i] * d[2];
        for (int j = 0; j < 3; j++)
            out->rot[i][j] = r[0][i] * pose->rot[0][j] + r[1][i] * pose->rot[1][j] + r[2][i] * pose->rot[2][j];
    }
}

/* Body i cut by the tool: its pieces replace it (appended), or it is
 * gone. Returns the voxels removed (0: untouched). */
static long cut_one(bodies *s, int i, const octree *tool, const octree_pose *pose, const body_density *dens,
                    uint8_t color, long removed[MAT_COUNT], octree_pairs *pairs)
{
    body *b = s->v[i];
    octree_pose in;
    pose_in_body(b, pose, &in);
    if (!octree_intersect(b->tree, tool, &in, pairs)) return 0;
    size_t n = (size_t)b->size[0] * (size_t)b->size[1] * (size_t)b->size[2];
    uint8_t *mat = malloc(n), *tint = malloc(n);
    long gone[MAT_COUNT] = { 0 }, count = 0;
    if (!mat || !tint) {
        free(mat);
        free(tint);
        return 0;
    }
    memcpy(mat, b->mat, n);
    memcpy(tint, b->tint, n);
    for (size_t k = 0; k < pairs->count; k++) {
        const int *t = pairs->v[k].t;
        size_t c = body_index(b, t[0], t[1], t[2]);
        if (mat[c] == MAT_AIR) continue; /* two tool voxels claimed it */
        gone[mat[c]]++, count++;
        mat[c] = MAT_AIR;
    }
    /* paint the carved cells a face now looks into, as the terrain cut does
     * (a see-through voxel hid nothing: its cell stays untinted) */
    for (size_t k = 0; k < pairs->count && count; k++) {
        const int *t = pairs->v[k].t;
        size_t c = body_index(b, t[0], t[1], t[2]);
        if (b->mat[c] == MAT_AIR || material_get(b->mat[c])->render_neighbors) continue;
        for (int f = 0; f < FACE_COUNT; f++) {
            int q[3] = { t[0] + face_normal[f][0], t[1] + face_normal[f][1], t[2] + face_normal[f][2] };
            if (in_grid(b, q) && mat[body_index(b, q[0], q[1], q[2])] != MAT_AIR) {
                tint[c] = color;
                break;
            }
        }
    }
    body **pieces = NULL;
    int np = count ? body_split(b, mat, tint, dens, &pieces) : -1;
    free(mat);
    free(tint);
    if (np < 0) return 0;
    body_destroy(bodies_take(s, i));
    for (int k = 0; k < np; k++)
        if (!bodies_add(s, pieces[k])) body_destroy(pieces[k]); /* no memory: those voxels are lost */
    free(pieces);
    for (int m = 0; m < MAT_COUNT && removed; m++) removed[m] += gone[m];
    return count;
}

long bodies_cut(bodies *s, const octree *tool, const octree_pose *pose, const body_density *dens, uint8_t color,
                long removed[MAT_COUNT], octree_pairs *scratch)
{
    int size[3];
    octree_size(tool, size);
    float reach = 0.5f * sqrtf((float)(size[0] * size[0] + size[1] * size[1] + size[2] * size[2])) + 1.f;
    long total = 0;
    /* the bodies there before the cut: pieces are appended after them and
     * lie outside the tool by construction */
    int before = s->count;
    for (int i = 0; i < before;) {
        const body *b = s->v[i];
        float d[3];
        for (int k = 0; k < 3; k++) d[k] = (float)((double)b->org[k] - pose->org[k] + b->pos[k] - pose->pos[k]);
        float rr = b->radius + reach;
        long n = dot3(d, d) <= rr * rr ? cut_one(s, i, tool, pose, dens, color, removed, scratch) : 0;
        total += n;
        if (n) before--;
        else i++;
    }
    return total;
}

int bodies_raycast(const bodies *s, const double origin[3], const float dir[3], float max_dist, float *dist)
{
    float len = sqrtf(dot3(dir, dir));
    if (!(len > 0) || !isfinite(len)) return -1;
    float d[3] = { dir[0] / len, dir[1] / len, dir[2] / len }, best = max_dist;
    int hit = -1;
    for (int i = 0; i < s->count; i++) {
        const body *b = s->v[i];
        /* its bounding sphere first */
        float oc[3]; /* the eye may be far out (double); the difference is small */
        for (int k = 0; k < 3; k++) oc[k] = (float)(((double)b->org[k] - origin[k]) + b->pos[k]);
        float along = dot3(oc, d), r = b->radius + 1.f;
        if (dot3(oc, oc) - along * along > r * r || along + r < 0 || along - r > best) continue;
        float rot[3][3], dl[3], t;
        double o[3];
        body_rotation(b, rot);
        for (int k = 0; k < 3; k++) {
            o[k] = b->com[k] + rot[0][k] * -oc[0] + rot[1][k] * -oc[1] + rot[2][k] * -oc[2];
            dl[k] = rot[0][k] * d[0] + rot[1][k] * d[1] + rot[2][k] * d[2];
        }
        if (octree_raycast(b->tree, o, dl, best, NULL, NULL, &t) && t < best) best = t, hit = i;
    }
    if (dist && hit >= 0) *dist = best;
    return hit;
}

/* obj: triangle meshes and the Wavefront OBJ format (seed 002's input).
 * Only geometry is kept: `v` positions and `f` faces of any vertex count
 * (fan-triangulated, indices 1-based or negative, v/vt/vn forms); every
 * other statement is ignored. Broken geometry (holes, flipped or duplicate
 * faces) loads as it is: voxelize is what copes with it. */
#ifndef STRATA_OBJ_H
#define STRATA_OBJ_H

#include <stdbool.h>
#include <stddef.h>

typedef struct obj_mesh {
    float *v;   /* 3 per vertex */
    int *tri;   /* 3 vertex indices (0-based) per triangle */
    int nv, nt;
    int cap_v, cap_t;
} obj_mesh;

/* Parses OBJ text. `name` prefixes messages ("name:line: ..."). On failure
 * returns false with the first error and leaves `out` empty. Refused: a
 * malformed v or f line, an index out of range (a face may only use the
 * vertices above it, as exporters write them), a coordinate that is not
 * finite, a file with no faces. */
bool obj_parse(const char *text, size_t len, const char *name, obj_mesh *out, char *err, size_t errlen);
/* Reads and parses a file. One of more than OBJ_MAX_FACES faces is refused
 * before it is parsed, with what voxelizing it would cost (OBJ_FACE_BYTES
 * of memory each): at 10 million faces that is minutes and gigabytes, and
 * it would end in "out of memory" rather than a voxel. */
#define OBJ_MAX_FACES 1000000
/* The memory a face takes from text to voxels: its text and the doubling
 * buffer (~70 bytes), the mesh (~20), the voxelizer's quantized triangle,
 * bounding box and per-direction record (~250). */
#define OBJ_FACE_BYTES 340
bool obj_load(const char *path, obj_mesh *out, char *err, size_t errlen);
/* Writes v and f lines (tools/meshgen). */
bool obj_save(const obj_mesh *m, const char *path, char *err, size_t errlen);
void obj_free(obj_mesh *m);

/* Building meshes by hand (meshgen, tests). Both return the new index,
 * or -1 when out of memory. */
int obj_add_vertex(obj_mesh *m, float x, float y, float z);
int obj_add_tri(obj_mesh *m, int a, int b, int c);
/* Appends all of src, moved by `offset`. */
bool obj_append(obj_mesh *m, const obj_mesh *src, const float offset[3]);

/* Axis-aligned bounds of the vertices used by faces; false if none. */
bool obj_bounds(const obj_mesh *m, float lo[3], float hi[3]);

#endif

/* quad_index: the index buffer every quad mesh here shares. Meshes store 4
 * corners per quad (mesh_blocks.h, mesh_shape.h), and each quad is drawn
 * as the triangles (0 1 2) (0 2 3) of its corners. GL, main thread. */
#ifndef STRATA_QUAD_INDEX_H
#define STRATA_QUAD_INDEX_H

#include <stdbool.h>

/* Fills `ibo` (a GL buffer name) with the pattern for `quads` quads,
 * replacing its store. False when out of memory (the buffer is unchanged). */
bool quad_index_upload(unsigned ibo, int quads);

#endif

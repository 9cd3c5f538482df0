/* shader: compiles GLSL programs from files found beside the executable.
 * A compile or link failure returns the driver's log prefixed with the
 * file name, so "chunk.frag:0(12): error ..." points at the line. */
#ifndef STRATA_SHADER_H
#define STRATA_SHADER_H

#include <stdbool.h>
#include <stddef.h>

/* Loads shaders/<vert> and shaders/<frag> (or a single compute shader when
 * frag is NULL and vert ends in .comp). Returns the program or 0 with err set. */
unsigned shader_load(const char *vert, const char *frag, char *err, size_t errlen);
/* shader_load with shaders/compose.glsl linked into the fragment stage:
 * the final colour (emitters, the player's lamp, brightness, fog to the
 * sky) every terrain pass shares; gfx/compose.h sets its uniforms. */
unsigned shader_load_composed(const char *vert, const char *frag, char *err, size_t errlen);
/* The same with compose.glsl in the vertex stage instead (the sky makes its
 * colour per vertex). */
unsigned shader_load_composed_vertex(const char *vert, const char *frag, char *err, size_t errlen);
/* Refuses (0, err set) where shader_compute_supported() is false. */
unsigned shader_load_compute(const char *comp, char *err, size_t errlen);
/* True when the context has compute shaders (GL 4.3). The environment
 * variable STRATA_GL_NO_COMPUTE=1, read once, makes it false: a context
 * without them, to exercise the CPU fallbacks on a driver that has them. */
bool shader_compute_supported(void);

#endif

/* formula_world: the fourth world kind, seed 003's terrain object. A
 * world.formula_size^3 voxel object made from the formula in world.formula
 * stands on a bedrock floor in the middle of the world, for the paper's
 * sandbox: cut it apart with the tool. */
#ifndef STRATA_FORMULA_WORLD_H
#define STRATA_FORMULA_WORLD_H

#include "worldgen.h"

/* A solid with the paper's hills (figure 5): its formula "cx 5 / sin 5 * cz
 * 5 / sin 5 * + cy =" is a surface only where '=' holds exactly, which on a
 * grid is almost nowhere, so the default fills everything below it. */
#define FORMULA_WORLD_DEFAULT "cy < 5*sin(cx/5) + 5*sin(cz/5)"

/* Registers the cvars world.formula, world.formula_size and the kind "formula". */
void formula_world_register(void);
extern const worldgen_kind formula_world_kind;

#endif

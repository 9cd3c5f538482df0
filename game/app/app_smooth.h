/* app_smooth: the smooth render mode's component "smooth" (see app_smooth.c):
 * the mode in the table, its cvars, edit reach, level of detail, and the
 * `surfnets FILE N` command. */
#ifndef STRATA_APP_SMOOTH_H
#define STRATA_APP_SMOOTH_H

#include "app_internal.h"

extern const component app_smooth_component;

#endif

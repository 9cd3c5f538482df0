/* app_grammar: grammar caves in the running game, the component "caves":
 * registers the caves.* cvars and the worldgen pass (every biome world is
 * generated with caves), and the commands 'grammar apply FILE [ITERATIONS]'
 * and 'grammar info FILE'. An apply announces its box once. */
#ifndef STRATA_APP_GRAMMAR_H
#define STRATA_APP_GRAMMAR_H

#include "app_internal.h"

extern const component app_caves_component;

#endif

/* app_stream: the unbounded world. With `world.stream 1` the
 * world is a window (voxel/world.h) of view.distance plus a margin around
 * the player, which voxel/stream.h keeps filled: columns are generated on
 * the workers as the player nears them (worldgen_stream_column, a pure
 * function of the column's coordinates), each arrival is announced as an
 * edit of its column's box with world_edit.generated set (re-meshed and
 * relit like any edit), and the edits of columns the window leaves are
 * kept and put back when it returns.
 * Commands: `stream` (the state as key=value lines), `stream wait [R]`
 * (until every column within R voxels of the player is ready).
 * Cvars: world.stream, stream.margin, stream.hysteresis, stream.memory_mb. */
#ifndef STRATA_APP_STREAM_H
#define STRATA_APP_STREAM_H

#include "app_internal.h"
#include "voxel/stream.h"

extern const component app_stream_component;

/* The stream filling the current world, or NULL (a finite world). */
stream *app_stream(app *a);
/* Whether new worlds stream (world.stream). */
bool app_streaming(const app *a);
/* The window for the current settings: columns a side, or 0 with a message
 * in err when it would pass stream.memory_mb. */
int app_stream_window(const app *a, char *err, size_t errlen);
/* The veto on view.distance while streaming: a window over the budget is
 * refused with its estimate. user: the app. */
bool app_stream_validate_distance(const cvar *proposed, char *err, size_t errlen, void *user);
/* view.distance changed (user: the app): a streamed world's window takes
 * the new size at once, around the player, keeping every edit (resident,
 * stored, saved or not) and the player's place; the components hear of it
 * as a new world with app.world_resizing set. A finite world (or none yet)
 * takes it with the next world. */
void app_stream_distance_changed(cvar *c, void *user);
/* A new streamed world: the empty window for the current settings and the
 * generator the next on_new_world starts streaming with. False (logged)
 * when the settings cannot stream. */
bool app_stream_begin(app *a, world **out);
/* stream_* lines for `stats` and `stream` (nothing for a finite world). */
/* The HUD's bar while the ground around the player (stream.spawn_radius)
 * is still arriving, after a spawn or a teleport: the fraction of its
 * columns ready and a label that says whether the player is held; -1 when
 * all is there (or the world is finite). */
float app_stream_progress(app *a, const char **label);
/* Columns inside 0.75 x view.distance and the last frame's frustum that
 * cannot be drawn: not there, a neighbour missing, or not meshed yet (the
 * flight bench's and test's holes); 0 in a finite world. */
int app_stream_holes(app *a);
/* Announces the columns installed since the last frame (each frame does;
 * the bench times the stages after generation one by one). */
void app_stream_announce(app *a);
/* `stream wait`: every column within `radius` voxels of (x, z) generated,
 * lit and meshed. The stages overlap as in play: between the polls for
 * the columns still generating, those installed are announced, their
 * light columns landed and started, and the chunks whose rings are whole
 * meshed; then the last arrivals' light and meshes are waited for. */
void app_stream_settle(app *a, double x, double z, int radius);
/* Voxels around the player the stream generates: view.distance plus
 * stream.margin (stream_set_radius). */
int app_stream_radius(const app *a);
void app_stream_print_stats(app *a);
/* stats' world_hash: in a finite world every voxel (world_hash); in a
 * streamed one the columns within view.distance of the player, the ones
 * `stream wait` waits for, each as the stream installs it (generated where
 * it has not arrived), so that one seed prints one hash however far the
 * margin has come. */
uint64_t app_world_hash(app *a);

#endif

/* tool: seed 003's cutting tool. A voxel shape from a formula (tool.shape,
 * tool.size) that follows the view; a cut removes the terrain voxels it
 * overlaps (found with the octree pair search) and paints the faces the cut
 * newly exposes in the tool's colour; a fill puts material back.
 *
 * Wiring (the app owns input and drawing):
 *   tool_init(&t, ...) once, tool_register(&t, view_fn, user) for the cvars
 *   and the commands `cut`, `fill`, `tool.info`. view_fn reports the current
 *   world and camera; the commands call it, so they work from the console,
 *   config files and --exec alike.
 *   After a world is created, regenerated or loaded: tool_bind_world(&t, w)
 *   (the commands also rebind by themselves when the world pointer changes).
 *   After other code edits voxels (grammars, loads into the same world):
 *   tool_world_edited(&t, w, lo, hi), so the terrain octree stays exact.
 *   Per frame: tool_place(&t, &view, &pose) says where the tool is, and
 *   tool_preview_cut / tool_preview_fill what an edit there would change
 *   (the app draws that, in tool_palette[tool.color]); while
 *   the left button is held call tool_cut(&t, w, &pose) every frame (the
 *   paper's tunnelling), on the right button tool_fill. Keys 1-5:
 *   cvar_set_by_name("tool.color", "N") so the cvar stays the one truth.
 *   Both edits go through world_set, so only the touched chunks are dirty. */
#ifndef STRATA_TOOL_H
#define STRATA_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen/shape.h"
#include "physics/octree.h"

struct bodies;       /* physics/bodies.h */
struct body_density; /* physics/body.h */
#include "voxel/world.h"

#define TOOL_COLORS 5
#define TOOL_MAX_SIZE 64
#define TOOL_DEFAULT_SHAPE "cx cx * cy cy * cz cz * + + sqrt r <"
#define TOOL_DEFAULT_SIZE 8
#define TOOL_FORMULA_MAX 4096 /* = CVAR_STRING_MAX: formulas are text */
/* Far enough that the default 8^3 tool, floating in front of the player,
 * covers about a third of the view rather than most of it. */
#define TOOL_DEFAULT_REACH 16.f
#define TOOL_DEFAULT_REACH_STR "16"

/* RGB of tint ids 0..5, the colours of keys 1-5 (0 = untinted, unused).
 * Red first, as in the paper's figure 8. */
extern const uint8_t tool_palette[TOOL_COLORS + 1][3];

/* An axis-aligned box [lo, hi) in world voxel units. */
typedef struct tool_box {
    double lo[3], hi[3]; /* double, as the player's are: exact far out */
} tool_box;

/* What the tool needs from the app: the world it edits and the camera
 * (eye position, yaw and pitch in degrees, the player's convention). */
typedef struct tool_view {
    world *w; /* NULL while no world exists */
    double eye[3]; /* double: exact 10^7 voxels out (the pose keeps an integer frame, octree.h) */
    float yaw, pitch;
    bool has_body;  /* body is the player's box: fills leave it free */
    tool_box body;
} tool_view;
typedef bool (*tool_view_fn)(void *user, tool_view *out);
/* Told once per cut or fill that changed anything: the voxels [lo, hi)
 * (tinted neighbours included) changed. */
typedef void (*tool_edited_fn)(void *user, const int lo[3], const int hi[3]);

typedef struct tool {
    shape shape;
    octree *tree; /* over the shape, in its own grid */
    char formula[TOOL_FORMULA_MAX];
    char mesh[TOOL_FORMULA_MAX]; /* "": the shape is the formula's; else the mesh file it was voxelized from */
    int size;
    unsigned shape_version; /* bumped whenever the shape changes: redraw caches key on it */
    int color;        /* 1..TOOL_COLORS: the tint id painted on exposed faces */
    uint8_t material; /* what fill puts down */
    float reach;      /* farthest the tool sits from the eye */
    /* the terrain octree, exact for the world it was built from */
    octree *terrain;
    const world *terrain_of;
    /* 0: the tree covers the world's whole window. > 0 (a streamed world):
     * only the columns within this many voxels of the eye, rebuilt when
     * the eye comes within half of it of the box's side, so the cost is the
     * box's and not the window's. */
    int terrain_radius;
    int box_lo[3], box_hi[3];
    /* the tree that replaces it, read a few columns a frame once the eye
     * leaves the middle of the box (NULL: none under way) */
    octree *next_tree;
    const world *next_of;
    int next_col, next_lo[3], next_hi[3];
    octree_pairs pairs;
    int *removed;     /* scratch: x y z m per removed voxel */
    size_t removed_cap;
    int last_removed, last_tinted, last_filled;
    int last_removed_bodies;           /* of last_removed, the voxels cut from bodies */
    long last_removed_mat[MAT_COUNT];  /* last_removed per material (terrain and bodies) */
    /* the voxel bodies in flight the tool picks and cuts too (NULL: none) */
    struct bodies *bodies;
    const struct body_density *dens;
    tool_view_fn view;
    void *view_user;
    tool_edited_fn edited; /* NULL: nobody listens */
    void *edited_user;
} tool;

/* Default state: the paper's 8^3 sphere, colour 1, stone, reach 16. */
bool tool_init(tool *t, char *err, size_t errlen);
void tool_free(tool *t);

/* Rebuilds the shape; a bad formula or size is refused with the reason
 * (column and what was expected, or the size limit) and the old shape stays. */
bool tool_set_shape(tool *t, const char *formula, int size, char *err, size_t errlen);

/* Makes `s` (taken over on success; sides 1..TOOL_MAX_SIZE) the tool's
 * shape, e.g. a voxelized mesh; `label` names it in tool.info. The formula
 * cvars stay: setting tool.shape or tool.size goes back to a formula.
 * On failure the old shape stays and s is still the caller's. */
bool tool_set_shape_voxels(tool *t, shape *s, const char *label, char *err, size_t errlen);

/* Whether formula and size would make a tool shape, without changing one:
 * the same checks and messages as tool_set_shape. */
bool tool_check_shape(const char *formula, int size, char *err, size_t errlen);

/* (Re)builds the terrain octree for w. */
bool tool_bind_world(tool *t, const world *w);
/* Re-reads voxels [lo, hi) of w into the terrain octree. */
void tool_world_edited(tool *t, const world *w, const int lo[3], const int hi[3]);
/* Lets go of the terrain tree; the next pick, cut or fill builds one. */
void tool_release_world(tool *t);
/* The terrain tree if it covers w's window as it is now, else NULL (the
 * window moved since it was built: the next pick or cut rebuilds it). */
const octree *tool_terrain_of(const tool *t, const world *w);
/* The terrain tree for w around `at` (the eye), built or moved first as a
 * pick there would (NULL when out of memory): for commands that read the
 * ground before any frame has picked, as right after a streamed world
 * arrives, when its tree is not built yet. */
const octree *tool_terrain_at(tool *t, const world *w, const double at[3]);
/* The terrain octree (NULL before tool_bind_world): ray picks and
 * octree_box_occupied for player collision. */
const octree *tool_terrain(const tool *t);

/* The voxel bodies the tool also picks and cuts (tool_place, tool_cut),
 * with the densities their pieces' masses come from; NULL: none. Both
 * must outlive the binding. */
void tool_bind_bodies(tool *t, struct bodies *set, const struct body_density *dens);

/* Where the tool is for this view: along the view ray at the first terrain
 * voxel or body voxel (tool_bind_bodies) within reach (so holding the button eats into what the player looks
 * at), else at reach, but never nearer than 3/4 of the tool's depth + 1/2
 * (the eye stays well outside it); rotated with the camera. Binds v->w if needed.
 * Returns whether the ray met terrain or a body (false: the tool floats at reach). */
bool tool_place(tool *t, const tool_view *v, octree_pose *out);

/* Removes every terrain voxel that intersects the tool at `pose` (bedrock
 * excepted: the world's floor stays) and paints the newly exposed faces,
 * and only those (seed 003): the tool's colour goes into each carved cell
 * (world.h), so exactly the faces that look into it take it. Faces visible
 * before keep their colour, and so do faces an earlier cut exposed that are
 * still visible. A removed see-through voxel (muskeg) hid nothing but its
 * own kind, so its cell stays untinted. last_tinted counts the faces
 * painted. Bound bodies are cut by the same test (bodies_cut: a body cut
 * apart becomes its pieces, one cut to nothing is gone). Returns the
 * number of voxels removed, terrain and bodies (last_removed; of them
 * last_removed_bodies from bodies; per material in last_removed_mat). */
int tool_cut(tool *t, world *w, const octree_pose *pose);
/* Puts `mat` into every air voxel whose centre lies in the tool (the
 * same voxel test as the cut, so a fill then a cut in the same pose is a
 * no-op), except voxels overlapping keep_out (NULL: none), so a fill never
 * buries the player. Returns the number of voxels filled. */
int tool_fill(tool *t, world *w, const octree_pose *pose, uint8_t mat, const tool_box *keep_out);

/* A set of world voxels in a box [lo, lo + size), one byte each
 * (TOOL_MASK_IN: in the set; a cut's preview also marks the solid voxels
 * it keeps TOOL_MASK_SOLID, 0 is air), laid out as a shape (x fastest,
 * then z, then y). The previews fill it; the caller keeps it between
 * frames (no allocation once it has grown) and frees it with tool_mask_free. */
#define TOOL_MASK_SOLID 1
#define TOOL_MASK_IN 2
typedef struct tool_mask {
    int lo[3], size[3];
    uint8_t *v;
    size_t cap;
    long count; /* voxels in the set */
} tool_mask;

/* The terrain voxels tool_cut at `pose` would remove (the same pairs, the
 * same exceptions), the world left as it is. Bodies are not included.
 * False (an empty mask) when the cut would remove nothing. */
bool tool_preview_cut(tool *t, const world *w, const octree_pose *pose, tool_mask *out);
/* The voxels tool_fill at `pose` would fill (keep_out as there). False
 * (an empty mask) when it would fill nothing. */
bool tool_preview_fill(tool *t, const world *w, const octree_pose *pose, const tool_box *keep_out, tool_mask *out);
void tool_mask_free(tool_mask *m);

/* Whether fill may put material id down: not air, and not generation's
 * internal markers (null, structure_placeholder). tool.material offers the same. */
bool tool_material_placeable(int id);

/* Registers tool.color tool.shape tool.size tool.reach tool.material and
 * the commands cut, fill, tool.info (see the help text). `t` must outlive
 * the registry. A tool.shape or tool.size that would not build a shape is
 * refused by 'set' (a cvar veto) with the column and what was expected. */
void tool_register(tool *t, tool_view_fn view, void *user);

#endif

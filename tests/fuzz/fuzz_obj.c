/* OBJ meshes (engine/gen/obj): any bytes parse to a mesh whose faces index
 * its own vertices and whose coordinates are finite, or are refused with a
 * message. */
#include <math.h>

#include "fuzz_common.h"
#include "gen/obj.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 256 * 1024) return 0;
    fuzz_quiet();
    obj_mesh m = { 0 };
    char err[512];
    if (obj_parse((const char *)data, size, "fuzz.obj", &m, err, sizeof err)) {
        for (int i = 0; i < 3 * m.nv; i++) FUZZ_CHECK(isfinite(m.v[i]));
        for (int i = 0; i < 3 * m.nt; i++) FUZZ_CHECK(m.tri[i] >= 0 && m.tri[i] < m.nv);
        float lo[3], hi[3];
        if (m.nv > 0) FUZZ_CHECK(obj_bounds(&m, lo, hi));
    } else {
        FUZZ_CHECK(err[0] != 0);
    }
    obj_free(&m);
    return 0;
}

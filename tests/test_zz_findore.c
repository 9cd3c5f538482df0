#include "test_support.h"
#include "core/jobs.h"
#include "voxel/world.h"
#include "worldgen/worldgen.h"
#include "worldgen/caves.h"
#include "worldgen/biomes.h"
#include "worldgen/terrain.h"
#include <stdio.h>
static void t(void **s)
{
    (void)s;
    terrain_register();
    biomes_register();
    caves_register();
    job_pool *jobs = job_pool_create(2);
    world *w = world_create(8, 4, 8);
    assert_true(worldgen_generate(w, worldgen_find("deciduous"), 7, jobs));
    int n = 0;
    for (int z = 40; z < w->sz - 40 && n < 8; z++)
        for (int y = 1; y < w->sy - 1 && n < 8; y++)
            for (int x = 40; x < w->sx - 40 && n < 8; x++)
                if (world_get(w, x, y, z) == MAT_GLOW_ORE && world_get(w, x, y + 1, z) == MAT_AIR && world_get(w, x, y + 2, z) == MAT_AIR) {
                    printf("ore %d %d %d surface %d\n", x, y, z, world_surface_y(w, x, z));
                    n++;
                    z += 20;
                }
    world_destroy(w);
    job_pool_destroy(jobs);
}
int main(void) { const struct CMUnitTest tests[] = { cmocka_unit_test(t) }; return cmocka_run_group_tests(tests, NULL, NULL); }

/* The worker pool's urgent parallel loop (work a frame waits on): every
 * index runs once, and it finishes while every worker is held by a long
 * background job (a column's generation or light), because the caller
 * takes indices itself and withdraws the helpers no worker started; and
 * the pool's count of the CPU time its jobs used; and the workers' policy. */
#define _GNU_SOURCE /* SCHED_BATCH */
#include "test_support.h"

#include <pthread.h>
#include <sched.h>

#include <stdatomic.h>
#include <time.h>

#include "core/jobs.h"

typedef struct held {
    atomic_bool release;
    atomic_int running;
} held;

/* A background job that holds its worker until released. */
static void hold(void *arg)
{
    held *h = arg;
    atomic_fetch_add(&h->running, 1);
    while (!atomic_load(&h->release)) {
        struct timespec t = { 0, 100000 };
        nanosleep(&t, NULL);
    }
}

static void count_index(void *arg, int i)
{
    atomic_int *seen = arg;
    atomic_fetch_add(&seen[i], 1);
}

static void test_every_index_once(void **state)
{
    (void)state;
    job_pool *pool = job_pool_create(2);
    assert_non_null(pool);
    static atomic_int seen[1000];
    for (int n = 1; n <= 1000; n *= 10) {
        for (int i = 0; i < n; i++) atomic_store(&seen[i], 0);
        job_parallel_for_urgent(pool, n, count_index, seen);
        for (int i = 0; i < n; i++) assert_int_equal(atomic_load(&seen[i]), 1);
    }
    job_parallel_for_urgent(pool, 0, count_index, seen); /* nothing to do */
    job_parallel_for_urgent(NULL, 3, count_index, seen); /* no pool: inline */
    for (int i = 0; i < 3; i++) assert_int_equal(atomic_load(&seen[i]), 2);
    job_pool_destroy(pool);
}

static void test_finishes_while_workers_are_held(void **state)
{
    (void)state;
    job_pool *pool = job_pool_create(2);
    assert_non_null(pool);
    held h = { 0 };
    job_group bg = { 0 };
    for (int k = 0; k < 3; k++) job_submit(pool, &bg, hold, &h); /* both workers held, one more queued */
    while (atomic_load(&h.running) < 2) {
        struct timespec t = { 0, 100000 };
        nanosleep(&t, NULL);
    }
    static atomic_int seen[64];
    job_parallel_for_urgent(pool, 64, count_index, seen); /* would wait forever behind the held jobs */
    for (int i = 0; i < 64; i++) assert_int_equal(atomic_load(&seen[i]), 1);
    assert_int_equal(job_pool_queued(pool), 1); /* the background job still queued, the helpers withdrawn */
    atomic_store(&h.release, true);
    job_group_wait(pool, &bg);
    assert_int_equal(atomic_load(&h.running), 3);
    job_pool_destroy(pool);
}

/* job_group_wait_any returns a group that is done while another is still
 * held, and -1 for no groups; without workers every group is done. */
static void test_wait_any(void **state)
{
    (void)state;
    job_pool *pool = job_pool_create(2);
    assert_non_null(pool);
    held h = { 0 }, quick = { 0 };
    atomic_store(&quick.release, true);
    job_group slow = { 0 }, fast = { 0 };
    job_submit(pool, &slow, hold, &h);
    job_submit(pool, &fast, hold, &quick);
    job_group *groups[2] = { &slow, &fast };
    assert_int_equal(job_group_wait_any(pool, groups, 2), 1); /* would never return waiting on `slow` */
    assert_false(job_group_done(pool, &slow));
    assert_int_equal(job_group_wait_any(pool, groups, 0), -1);
    atomic_store(&h.release, true);
    job_group_wait(pool, &slow);
    assert_int_equal(job_group_wait_any(pool, groups, 2), 0);
    job_pool_destroy(pool);
    assert_int_equal(job_group_wait_any(NULL, groups, 2), 0);
}

static uint64_t thread_cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* Burns 20 ms of this thread's CPU. */
static void spin(void *arg)
{
    (void)arg;
    uint64_t t0 = thread_cpu_ns();
    while (thread_cpu_ns() - t0 < 20000000ull) {
    }
}

/* Waits 100 ms without using the CPU. */
static void nap(void *arg)
{
    (void)arg;
    struct timespec t = { 0, 100000000 };
    nanosleep(&t, NULL);
}

/* job_pool_cpu_ns counts what the jobs took from the cores, not how long
 * they ran: two 20 ms spins and a 100 ms nap add 40 ms and some, well
 * under the nap's 100 (the flights' worker_cpu notes rest on it). */
static void test_cpu_time_counts_work_not_waiting(void **state)
{
    (void)state;
    job_pool *pool = job_pool_create(2);
    assert_non_null(pool);
    uint64_t c0 = job_pool_cpu_ns(pool);
    job_group g = { 0 };
    job_submit(pool, &g, spin, NULL);
    job_submit(pool, &g, spin, NULL);
    job_submit(pool, &g, nap, NULL);
    job_group_wait(pool, &g);
    uint64_t used = job_pool_cpu_ns(pool) - c0;
    assert_true(used >= 40000000ull);
    assert_true(used < 90000000ull);
    job_pool_destroy(pool);
    assert_int_equal(job_pool_cpu_ns(NULL), 0);
}

/* The policy of the thread that runs the job (Linux: sched_getscheduler). */
static void record_policy(void *arg) { *(int *)arg = sched_getscheduler(0); }

#ifdef SCHED_BATCH
/* Whether this system lets a thread make itself a batch thread (a
 * sandbox may refuse): tried on a thread of its own. */
static void *try_batch(void *arg)
{
    struct sched_param sp = { 0 };
    *(int *)arg = pthread_setschedparam(pthread_self(), SCHED_BATCH, &sp);
    return NULL;
}
#endif

/* The workers run as batch threads, so waking one never puts off the
 * thread that queued its job (jobs.c); the caller's own policy is left
 * alone. Where the system has no SCHED_BATCH, or refuses it, there is
 * nothing to test (the workers then run as they were). */
static void test_workers_are_batch_threads(void **state)
{
    (void)state;
#ifdef SCHED_BATCH
    pthread_t t;
    int refused = -1;
    assert_int_equal(pthread_create(&t, NULL, try_batch, &refused), 0);
    pthread_join(t, NULL);
    if (refused) {
        skip();
        return;
    }
    int before = sched_getscheduler(0);
    job_pool *pool = job_pool_create(2);
    assert_non_null(pool);
    int policy[2] = { -1, -1 };
    job_group g = { 0 };
    job_submit(pool, &g, record_policy, &policy[0]);
    job_submit(pool, &g, record_policy, &policy[1]);
    job_group_wait(pool, &g);
    assert_int_equal(policy[0], SCHED_BATCH);
    assert_int_equal(policy[1], SCHED_BATCH);
    assert_int_equal(sched_getscheduler(0), before);
    job_pool_destroy(pool);
#else
    skip();
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_index_once),
        cmocka_unit_test(test_finishes_while_workers_are_held),
        cmocka_unit_test(test_wait_any),
        cmocka_unit_test(test_cpu_time_counts_work_not_waiting),
        cmocka_unit_test(test_workers_are_batch_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

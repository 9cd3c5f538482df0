#define _GNU_SOURCE /* SCHED_BATCH */
#include "core/jobs.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

typedef struct job {
    job_fn fn;
    void *arg;
    job_group *group;
    struct job *next;
} job;

struct job_pool {
    pthread_mutex_t lock;
    pthread_cond_t work_cv; /* a job was queued or we are stopping */
    pthread_cond_t done_cv; /* some group's counter reached zero */
    job *head, *tail;
    int queued;
    bool stopping;
    int nthreads;
    pthread_t *threads;
    _Atomic uint64_t cpu_ns; /* the workers' CPU time inside jobs (job_pool_cpu_ns) */
};

/* This thread's CPU time: what a job took from the cores, not how long it
 * waited for one (a worker that shares a core runs longer, not more). */
static uint64_t thread_cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void *worker_main(void *p)
{
    job_pool *pool = p;
#ifdef SCHED_BATCH
    /* A worker woken by a submit does not take the submitting thread's
     * core at once (the scheduler's wake-up preemption, which batch
     * threads forgo): on two cores the main thread that queued a column
     * in the middle of its step was otherwise put off for 1-5 ms of wall
     * time for 0.1 ms of work. Batch keeps a normal thread's share of the
     * cores (unlike SCHED_IDLE, which left urgent jobs behind the
     * rasterizer's threads) and needs no privilege; where it is refused,
     * the worker runs as it was. */
    struct sched_param sp = { 0 };
    (void)pthread_setschedparam(pthread_self(), SCHED_BATCH, &sp);
#endif
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->head && !pool->stopping) pthread_cond_wait(&pool->work_cv, &pool->lock);
        if (!pool->head) break; /* stopping and drained */
        job *j = pool->head;
        pool->head = j->next;
        if (!pool->head) pool->tail = NULL;
        pool->queued--;
        pthread_mutex_unlock(&pool->lock);
        uint64_t t0 = thread_cpu_ns();
        j->fn(j->arg);
        atomic_fetch_add_explicit(&pool->cpu_ns, thread_cpu_ns() - t0, memory_order_relaxed);
        pthread_mutex_lock(&pool->lock);
        if (--j->group->pending == 0) pthread_cond_broadcast(&pool->done_cv);
        free(j);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

job_pool *job_pool_create(int threads)
{
    if (threads < 1) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n < 2 ? 2 : (int)n;
    }
    job_pool *pool = calloc(1, sizeof *pool);
    if (!pool) return NULL;
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->work_cv, NULL);
    pthread_cond_init(&pool->done_cv, NULL);
    pool->threads = calloc((size_t)threads, sizeof *pool->threads);
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&pool->threads[i], NULL, worker_main, pool) != 0) break;
        pool->nthreads++;
    }
    return pool;
}

void job_pool_destroy(job_pool *pool)
{
    if (!pool) return;
    pthread_mutex_lock(&pool->lock);
    pool->stopping = true;
    pthread_cond_broadcast(&pool->work_cv);
    pthread_mutex_unlock(&pool->lock);
    for (int i = 0; i < pool->nthreads; i++) pthread_join(pool->threads[i], NULL);
    free(pool->threads);
    pthread_cond_destroy(&pool->work_cv);
    pthread_cond_destroy(&pool->done_cv);
    pthread_mutex_destroy(&pool->lock);
    free(pool);
}

int job_pool_threads(const job_pool *pool) { return pool ? pool->nthreads : 0; }

uint64_t job_pool_cpu_ns(job_pool *pool)
{
    return pool ? atomic_load_explicit(&pool->cpu_ns, memory_order_relaxed) : 0;
}

int job_pool_queued(job_pool *pool)
{
    pthread_mutex_lock(&pool->lock);
    int n = pool->queued;
    pthread_mutex_unlock(&pool->lock);
    return n;
}

void job_submit(job_pool *pool, job_group *group, job_fn fn, void *arg)
{
    if (!pool || pool->nthreads == 0) { /* no workers: run inline */
        fn(arg);
        return;
    }
    job *j = malloc(sizeof *j);
    if (!j) { fn(arg); return; }
    j->fn = fn;
    j->arg = arg;
    j->group = group;
    j->next = NULL;
    pthread_mutex_lock(&pool->lock);
    group->pending++;
    if (pool->tail) pool->tail->next = j; else pool->head = j;
    pool->tail = j;
    pool->queued++;
    pthread_cond_signal(&pool->work_cv);
    pthread_mutex_unlock(&pool->lock);
}

void job_group_wait(job_pool *pool, job_group *group)
{
    if (!pool || pool->nthreads == 0) return;
    pthread_mutex_lock(&pool->lock);
    while (group->pending > 0) pthread_cond_wait(&pool->done_cv, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
}

bool job_group_done(job_pool *pool, job_group *group)
{
    if (!pool || pool->nthreads == 0) return true;
    pthread_mutex_lock(&pool->lock);
    bool done = group->pending == 0;
    pthread_mutex_unlock(&pool->lock);
    return done;
}

int job_group_wait_any(job_pool *pool, job_group *const *groups, int n)
{
    if (n <= 0) return -1;
    if (!pool || pool->nthreads == 0) return 0; /* jobs ran inline: every group is done */
    pthread_mutex_lock(&pool->lock);
    int done = -1;
    for (;;) {
        for (int i = 0; i < n && done < 0; i++)
            if (groups[i]->pending == 0) done = i;
        if (done >= 0) break;
        pthread_cond_wait(&pool->done_cv, &pool->lock); /* broadcast whenever a group empties */
    }
    pthread_mutex_unlock(&pool->lock);
    return done;
}

typedef struct pf_ctx {
    job_index_fn fn;
    void *arg;
    int count;
    int next; /* guarded by lock */
    pthread_mutex_t lock;
} pf_ctx;

/* Each worker pulls indices until none are left: balances uneven chunks. */
static void pf_worker(void *p)
{
    pf_ctx *c = p;
    for (;;) {
        pthread_mutex_lock(&c->lock);
        int i = c->next++;
        pthread_mutex_unlock(&c->lock);
        if (i >= c->count) break;
        c->fn(c->arg, i);
    }
}

/* Queues a job at the head: the next free worker takes it before the
 * background work queued earlier (a frame's jobs before streaming's). */
static bool submit_front(job_pool *pool, job_group *group, job_fn fn, void *arg)
{
    job *j = malloc(sizeof *j);
    if (!j) return false;
    j->fn = fn, j->arg = arg, j->group = group;
    pthread_mutex_lock(&pool->lock);
    group->pending++;
    j->next = pool->head;
    pool->head = j;
    if (!pool->tail) pool->tail = j;
    pool->queued++;
    pthread_cond_signal(&pool->work_cv);
    pthread_mutex_unlock(&pool->lock);
    return true;
}

/* Takes the group's jobs that no worker has started off the queue. */
static void withdraw(job_pool *pool, job_group *group)
{
    pthread_mutex_lock(&pool->lock);
    job *prev = NULL;
    for (job *j = pool->head; j;) {
        job *next = j->next;
        if (j->group == group) {
            if (prev) prev->next = next;
            else pool->head = next;
            if (pool->tail == j) pool->tail = prev;
            pool->queued--;
            group->pending--;
            free(j);
        } else {
            prev = j;
        }
        j = next;
    }
    pthread_mutex_unlock(&pool->lock);
}

void job_parallel_for(job_pool *pool, int count, job_index_fn fn, void *arg)
{
    if (count <= 0) return;
    if (!pool || pool->nthreads == 0) {
        for (int i = 0; i < count; i++) fn(arg, i);
        return;
    }
    pf_ctx c = { .fn = fn, .arg = arg, .count = count, .next = 0 };
    pthread_mutex_init(&c.lock, NULL);
    job_group g = { 0 };
    int n = pool->nthreads < count ? pool->nthreads : count;
    for (int i = 0; i < n; i++) job_submit(pool, &g, pf_worker, &c);
    job_group_wait(pool, &g);
    pthread_mutex_destroy(&c.lock);
}

/* The caller pulls indices too, and the helpers go to the head of the
 * queue: the workers may be busy with long background jobs (generation,
 * light), and a frame must not wait behind them. Helpers that had not
 * started when the caller ran out of indices are withdrawn; only those
 * that started are waited for (each finishes the index it took). */
void job_parallel_for_urgent(job_pool *pool, int count, job_index_fn fn, void *arg)
{
    if (count <= 0) return;
    if (!pool || pool->nthreads == 0 || count == 1) {
        for (int i = 0; i < count; i++) fn(arg, i);
        return;
    }
    pf_ctx c = { .fn = fn, .arg = arg, .count = count, .next = 0 };
    pthread_mutex_init(&c.lock, NULL);
    job_group g = { 0 };
    int n = pool->nthreads < count - 1 ? pool->nthreads : count - 1;
    for (int i = 0; i < n; i++)
        if (!submit_front(pool, &g, pf_worker, &c)) break;
    pf_worker(&c);
    withdraw(pool, &g);
    job_group_wait(pool, &g);
    pthread_mutex_destroy(&c.lock);
}

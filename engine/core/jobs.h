/* jobs: a fixed pool of worker threads running plain functions.
 * Workers never touch GL: they fill arrays that the main thread uploads.
 * Work is grouped so a caller can wait for (or poll) just its own jobs. */
#ifndef STRATA_JOBS_H
#define STRATA_JOBS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct job_pool job_pool;
typedef void (*job_fn)(void *arg);
typedef void (*job_index_fn)(void *arg, int index);

/* A group counts its unfinished jobs; zero-initialise before first use. */
typedef struct job_group { int pending; } job_group;

/* threads < 1 means "one per core, at least 2". */
job_pool *job_pool_create(int threads);
/* Finishes every queued job, then joins the workers. NULL is fine. */
void job_pool_destroy(job_pool *pool);
int job_pool_threads(const job_pool *pool);
/* Jobs queued but not yet started (for the HUD). */
int job_pool_queued(job_pool *pool);
/* The CPU time the workers have spent inside jobs since the pool began,
 * in nanoseconds: the difference over a frame is what the workers took
 * from the cores the frame shared with them (strata-bench's flights). */
uint64_t job_pool_cpu_ns(job_pool *pool);

void job_submit(job_pool *pool, job_group *group, job_fn fn, void *arg);
/* Blocks until every job of the group has finished. */
void job_group_wait(job_pool *pool, job_group *group);
bool job_group_done(job_pool *pool, job_group *group);
/* Blocks until one of the n groups has no job left and returns its index
 * (-1 when n is 0): a caller with several in flight takes whichever
 * finishes first instead of waiting on one while the others are done. */
int job_group_wait_any(job_pool *pool, job_group *const *groups, int n);

/* Runs fn(arg, i) for i in [0, count) on the workers and waits. */
void job_parallel_for(job_pool *pool, int count, job_index_fn fn, void *arg);
/* The same for work a frame waits on: the calling thread takes indices
 * too and the workers' share goes before the background jobs queued
 * earlier, so the frame never waits for a worker to finish a long job
 * first (only for indices a worker already took). fn then also runs on
 * the calling thread: only for work that may. */
void job_parallel_for_urgent(job_pool *pool, int count, job_index_fn fn, void *arg);

#endif

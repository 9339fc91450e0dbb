/* SPDX-License-Identifier: MIT */
/*
 * bench's parts: the command (bench.c) and its worker processes
 * (bench/bench_workers.c). A run with --processes N execs this binary N
 * times in turn, as "vdsokit bench --worker TIMER ...", each worker measuring
 * every API and path with its share of the budget and printing its
 * samples down a pipe; the run's figures pool the workers' samples.
 */
#ifndef VK_BENCH_CMD_H
#define VK_BENCH_CMD_H

#include <sched.h>

#include "core/bench/bench_pool.h"
#include "commands/commands.h"

#define VK_BENCH_DEFAULT_PROCESSES 10

struct vk_bench_cmd_opts {
	struct vk_bench_opts m;
	int cold;
	int processes;
	const char *outdir;	/* --output */
	const char *worker;	/* --worker: the parent's timer, "NS_PER_TICK:OVERHEAD" */
	unsigned long long threads;	/* --threads, or 0 */
	unsigned long long length;	/* --length: getrandom's bytes a call */
	/* Thread i's CPU: the parent's choice, passed to its workers. */
	int thread_cpu[VK_BENCH_MAX_THREADS];
	int ncpus;		/* that the parent may use, for the warning */
	struct vk_call_opts call;
};

/* Fill rows from o->processes workers, one after the other; an exit status. */
int vk_bench_workers(const struct vk_bench_cmd_opts *o,
		     const struct vk_timer *t, struct vk_bench_rows *rows);
/* This process is a worker: measure with b and print the samples. */
int vk_bench_worker(const struct vk_bench_cmd_opts *o, struct vk_bench *b,
		    const struct vk_bench_case *cases, size_t ncases);
/*
 * --threads' CPUs: the one measured on first, then the others this
 * process may use in turn, round again when there are more threads.
 */
void vk_bench_thread_cpus(struct vk_bench_cmd_opts *o, const cpu_set_t *allowed);
/* --thread-cpus' value, a worker's, into o->thread_cpu; -1 if it is not threads' many. */
int vk_bench_parse_thread_cpus(struct vk_bench_cmd_opts *o, const char *arg);
/* The parent's timer from --worker's value; -1 if it is not one. */
int vk_bench_worker_timer(const char *arg, struct vk_timer *t);

#endif /* VK_BENCH_CMD_H */

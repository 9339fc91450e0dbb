/* SPDX-License-Identifier: MIT */
/*
 * A benchmark run from the APIs named to its document: bench's, in
 * worker processes (workers.c, run.c), and compare's two --impl sides
 * (sides.c). Nothing here prints: progress and what happened on the way
 * go to a struct vk_bench_say, why a run stopped to an err buffer.
 */
#ifndef VK_BENCHRUN_H
#define VK_BENCHRUN_H

#include <sched.h>
#include <stdio.h>

#include "core/base/safe.h"
#include "core/bench/bench_pool.h"
#include "core/benchfile/model.h"

#define VK_BENCH_DEFAULT_PROCESSES 10
#define VK_SIDES_MAX_COPIES 32

/* How a measurement ended, which the command makes its exit status. */
enum vk_measure_end {
	VK_MEASURED,		/* the document is filled */
	VK_MEASURE_FAILED,	/* filled: a call failed, or a worker died */
	VK_MEASURE_NO_WORKER,	/* filled: vdsokit could not start a worker */
	VK_MEASURE_NOTHING,	/* filled: no row could be measured */
	/* No document; why in err: */
	VK_MEASURE_REFUSED,	/* a CPU not this process's, an --impl not loaded, no memory */
	VK_MEASURE_NO_PIN,	/* the CPU refused: vdsokit's own error */
	VK_MEASURE_NO_TIMER,	/* the counter's rate is not stable */
	VK_MEASURE_NO_ROWS,	/* compare: no API and path with samples on both sides */
};

/* An err buffer's size, or a line's: room for a path shown through vk_safe(). */
#define VK_MEASURE_ERR_LEN (4 * VK_SAFE_MAX + 512)

/*
 * What a run says as it goes, for the command to print: step i of n
 * begins, on what (NULL for a worker process), or i == n when all are
 * done; and a line about what happened, once each. Either may be NULL.
 */
struct vk_bench_say {
	void (*progress)(void *ctx, size_t i, size_t n, const char *what);
	void (*note)(void *ctx, const char *line);
	void *ctx;
};

/* How long, how many samples, on which CPU: bench's and compare's -d, -n, -c. */
struct vk_bench_opts {
	double seconds;			/* per API and path */
	unsigned long long samples;
	long cpu;			/* -1: the one it starts on */
};

/*
 * The cases the API names give (see bench --help), or every API for none:
 * 0, or -1 with *bad the name that is none.
 */
int vk_bench_cases(int argc, char *const *argv, struct vk_bench_case *cases, size_t *n,
		   const char **bad);
/* Pin to *cpu (-1: the current one, stored back) and calibrate the timer. */
enum vk_measure_end vk_bench_setup(long *cpu, struct vk_timer *timer, char *err, size_t len);

/* A bench run as asked, which its workers are told in turn. */
struct vk_bench_plan {
	struct vk_bench_opts m;
	int processes;
	int cold;
	unsigned long long threads;	/* --threads, or 0 */
	unsigned long long length;	/* getrandom's bytes a call */
	unsigned paths;
	const char *impl;
	/* Thread i's CPU: the parent's choice, passed to its workers. */
	int thread_cpu[VK_BENCH_MAX_THREADS];
	int ncpus;		/* that the parent may use, for the warning */
};

/* A bench run measured: the document (but its version), and what it points to. */
struct vk_bench_run_doc {
	struct vk_bench_report rep;
	struct vk_bench_rows rows;
	struct vk_timer timer;
	struct vk_bench_result *res;	/* rep.r, malloc()ed */
};

/*
 * Measure cases as p asks, in p->processes workers run one after the
 * other, each argv0 (vdsokit's command line up to --worker) with the
 * parent's timer and p. p's CPU and threads' CPUs are stored back. d
 * holds the document unless the end says none; free d->res either way.
 */
enum vk_measure_end vk_bench_measure(struct vk_bench_plan *p, char *const *argv0,
				     struct vk_bench_case *cases, size_t ncases,
				     const struct vk_bench_say *say, struct vk_bench_run_doc *d,
				     char *err, size_t len);
/*
 * This process is a worker: the parent's timer from arg (its --worker's
 * value), pinned to p's CPU; -1 if arg or the CPU is not a parent's.
 */
int vk_bench_worker_setup(const struct vk_bench_plan *p, const char *arg, struct vk_timer *t);
/* Then measure cases as p asks, printing the samples to out. */
enum vk_measure_end vk_bench_work(const struct vk_bench_plan *p, const struct vk_timer *timer,
				  struct vk_bench_case *cases, size_t ncases, FILE *out,
				  char *err, size_t len);
/* --thread-cpus' value, a worker's, into p->thread_cpu; -1 if it is not threads' many. */
int vk_bench_parse_thread_cpus(struct vk_bench_plan *p, const char *arg);

/* compare's two sides measured in turn in this process. */
struct vk_sides_plan {
	struct vk_bench_opts m;
	const char *impl[2];	/* one: the kernel's vDSO against it */
	int nimpl;
	int copies;		/* loads of each library */
};

/* The sides measured: rep filled, and what it points to. */
struct vk_sides_doc {
	struct vk_compare_report *rep;
	struct vk_series *ser;		/* old's ncases, then new's */
	size_t ncases;
	struct vk_compare_row *rows;
	struct vk_compare_failed *failed;
};

/*
 * Measure cases on p's sides, each library loaded p->copies times, into
 * d->rep (its old, new, rows and failed rows). Free d with
 * vk_sides_free() whatever the end.
 */
enum vk_measure_end vk_sides_measure(struct vk_sides_plan *p, const struct vk_bench_case *cases,
				     size_t ncases, const struct vk_bench_say *say,
				     struct vk_sides_doc *d, char *err, size_t len);
void vk_sides_free(struct vk_sides_doc *d);

#endif /* VK_BENCHRUN_H */

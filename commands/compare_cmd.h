/* SPDX-License-Identifier: MIT */
/* compare's bench files, read and merged a side at a time (compare_files.c). */
#ifndef VK_COMPARE_CMD_H
#define VK_COMPARE_CMD_H

#include <stddef.h>

#include "core/bench/compare.h"
#include "report/compare.h"
#include "commands/commands.h"

#define VK_COMPARE_MAX_RUNS 64	/* files a side */

struct vk_bench_file {
	const char *name;
	struct vk_jval *doc;
	const struct vk_jval *env;	/* where its kernel, clocksource and options are */
	const struct vk_jval *machine;	/* where its governor and warnings are */
	struct vk_series *s;	/* one per element of "results" */
	size_t n;
	int cold;		/* --cold: samples are single calls */
	size_t nsamples;	/* in its sample arrays */
	size_t budget;		/* samples its side's earlier files left it */
};

/*
 * A bench file's text, called name in messages, into f, whose budget
 * bounds its samples: an exit status after saying why, or 0. Free f with
 * vk_bench_file_free() either way.
 */
int vk_bench_file_read(const char *cmd, const char *name, const char *text, size_t len,
		       struct vk_bench_file *f);

struct vk_bench_report;
struct vk_timer;
/*
 * What a vdsokit-bench/2 document says of its run (the envelope, the
 * machine's state, the options, the timer) into rep, whose strings then
 * point into doc: vm's A/B writes the boots it merged under the first's.
 */
void vk_bench_file_run(const struct vk_jval *doc, struct vk_bench_report *rep,
		       struct vk_timer *timer);
void vk_bench_file_free(struct vk_bench_file *f);

/*
 * One side of a comparison of files: its runs, and their series merged,
 * one per API and path with the processes of every run that measured it.
 */
struct vk_compare_runs {
	struct vk_bench_file *f;
	size_t nf;
	struct vk_series *s;
	size_t n;
	char *names;		/* "a.json, b.json" */
};

/* Read and merge the n files; an exit status after saying why, or 0. */
int vk_compare_read_runs(const char *cmd, char *const *paths, size_t n,
			 struct vk_compare_runs *r);
void vk_compare_free_runs(struct vk_compare_runs *r);
/*
 * Warn of runs from other kernels, machines or CPU models; fill rep's
 * environments (the first run of each side) and the references, which are
 * the median over every process of a side.
 */
void vk_compare_runs_context(const char *cmd, struct vk_compare_report *rep,
			     const struct vk_compare_runs *a, const struct vk_compare_runs *b);

#endif /* VK_COMPARE_CMD_H */

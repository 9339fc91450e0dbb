/* SPDX-License-Identifier: MIT */
/*
 * The bench and compare models: what a bench run measured, as bench
 * writes it and vm's A/B merges it, and what compare made of two sides.
 * report/ renders them; core/benchfile fills compare's from bench files.
 */
#ifndef VK_BENCHFILE_MODEL_H
#define VK_BENCHFILE_MODEL_H

#include <stddef.h>
#include <sys/utsname.h>

#include "core/base/sysinfo.h"
#include "core/bench/bench.h"
#include "core/bench/compare.h"
#include "core/bench/envcheck.h"

/*
 * A row of a bench file: a measured result, or the samples alone of vm's
 * boots merged (r NULL); samples[] holds each process's group_n[] in turn.
 */
struct vk_bench_row {
	const char *api, *path;
	const char *skipped;	/* why it was not measured, or NULL */
	unsigned long long failed;	/* then: its calls that failed, or 0 */
	const struct vk_bench_result *r;	/* its figures, or NULL */
	const double *samples;
	int n, ngroups;
	const int *group_n;
};

struct vk_bench_report {
	const char *version;
	const char *build;	/* the writer's, or NULL: this process's */
	char time[32];		/* ISO 8601, UTC */
	char run_id[40];	/* random, this run's (vk_bench_run_id); "": none */
	struct utsname uts;
	char cpu_model[128];
	char clocksource[64];
	char governor[32];	/* CPU 0's, or "" */
	double seconds;
	int samples;		/* per process */
	int processes;
	int cpu;
	int cold;
	int threads;		/* --threads, or 0 */
	size_t random_len;	/* getrandom's bytes a call */
	const int *thread_cpu;	/* thread i's CPU, or NULL where unknown */
	const struct vk_timer *timer;
	double loadavg;
	long voluntary, involuntary;	/* context switches during the run */
	int disturbed;
	struct vk_warnings warnings;	/* the machine's setup, each with its fix */
	/* The reference loops: the run's (the median of its processes')
	 * and each process's. */
	struct vk_bench_ref reference;
	const struct vk_bench_ref *ref;
	int nref;
	unsigned long boots;	/* vm's boots merged into the file, or 0 */
	size_t n;
	const struct vk_bench_result *r;
	/* The JSON's rows instead of r's (vm's merge), or NULL. */
	const struct vk_bench_row *rows;
};

/* The calls r[0..n), one API's rows, made on each path (vdsotest -v's line). */
void vk_bench_api_calls(const struct vk_bench_result *r, size_t n,
			unsigned long long calls[VK_NPATHS]);

/* One setting of the two runs' environments, for the diff above the table. */
struct vk_env_field {
	const char *what;	/* "CPU model": the text's */
	const char *key;	/* "cpu_model": the JSON's */
	const char *old, *new;	/* "unknown" when a file does not say */
};

#define VK_ENV_FIELDS 4

/* A row whose calls failed on a side, or whose measurement crashed: no verdict. */
struct vk_compare_failed {
	const char *api, *path;
	const char *side;	/* "old", "new", or "both" for a crash of either */
	char why[128];		/* the call, its errno and how often, or the crash */
};

struct vk_compare_report {
	const char *version;	/* of the tool */
	const struct vk_sysinfo *sys;	/* the system compare ran on */
	const char *old, *new;	/* the files, or the sides measured */
	int old_runs, new_runs;	/* files a side (0 side by side) */
	int interleaved;	/* measured side by side in this process */
	int copies;		/* then: the loads of each library */
	double threshold;	/* percent */
	const struct vk_compare_row *rows;
	size_t nrows;
	size_t regressions, improvements, significant_within;
	size_t unchanged;	/* within the threshold */
	size_t no_verdict;	/* too few runs, or the machine moved */
	size_t passed;		/* a verdict, and no regression */
	size_t beyond_machine;	/* verdicts given although the machine moved */
	/* The reference loops in each file (NAN: unknown): ns per step of the
	 * multiply-adds and per syscall; their ratios; whether each moved
	 * beyond the threshold. Files only. */
	double ref_old, ref_new, loads_old, loads_new, sys_old, sys_new;
	struct vk_compare_machine machine;
	int machine_moved, loads_moved, syscall_moved;
	size_t not_compared;	/* skipped, or on one side only */
	const struct vk_compare_failed *failed;	/* of those, the rows whose calls failed */
	size_t nfailed;
	double geomean;		/* of the new/old ratios; 1 is no change */
	struct vk_env_field env[VK_ENV_FIELDS];	/* two files' environments */
	int nenv;
};

#endif /* VK_BENCHFILE_MODEL_H */

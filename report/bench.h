/* SPDX-License-Identifier: MIT */
/* Reporters of bench results: the figures as measured, in each format. */
#ifndef VK_REPORT_BENCH_H
#define VK_REPORT_BENCH_H

#include <stdio.h>
#include <sys/utsname.h>

#include "core/bench/bench.h"
#include "core/bench/envcheck.h"

/*
 * A row of a bench file: a measured result, or the samples alone of vm's
 * boots merged (r NULL); samples[] holds each process's group_n[] in turn.
 */
struct vk_bench_row {
	const char *api, *path;
	const char *skipped;	/* why it was not measured, or NULL */
	const struct vk_bench_result *r;	/* its figures, or NULL */
	const double *samples;
	int n, ngroups;
	const int *group_n;
};

struct vk_bench_report {
	const char *version;
	const char *build;	/* the writer's, or NULL: this process's */
	char time[32];		/* ISO 8601, UTC */
	struct utsname uts;
	char cpu_model[128];
	char clocksource[64];
	char governor[32];	/* CPU 0's, or "" */
	double seconds;
	int samples;		/* per process */
	int processes;
	int cpu;
	int cold;
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

/* Each reference's keys in a bench file: the run's figure, and each process's. */
struct vk_bench_ref_key {
	const char *run, *each;
};

extern const struct vk_bench_ref_key vk_bench_ref_keys[VK_REF_KINDS];

struct vk_out;
void vk_report_bench_text(const struct vk_out *o, const struct vk_bench_report *rep);
void vk_report_bench_json(const struct vk_out *o, const struct vk_bench_report *rep);
void vk_report_bench_csv(const struct vk_out *o, const struct vk_bench_report *rep);
void vk_report_bench_ktap(const struct vk_out *k, const struct vk_bench_report *rep);
/* vdsotest's "API: PATH: N nsec/call" lines. */
void vk_report_bench_vdsotest(const struct vk_out *o, const struct vk_bench_report *rep);
/* One self-contained HTML file: no script, inline SVG (report/html.c). */
void vk_report_bench_html(const struct vk_out *o, const struct vk_bench_report *rep);

#endif /* VK_REPORT_BENCH_H */

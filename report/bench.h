/* SPDX-License-Identifier: MIT */
/* Reporters of bench results: the figures as measured, in each format. */
#ifndef VK_REPORT_BENCH_H
#define VK_REPORT_BENCH_H

#include <stdio.h>
#include <sys/utsname.h>

#include "core/bench/bench.h"
#include "core/bench/envcheck.h"

/* Bench files: "vdsokit-bench/2" since the common envelope; compare
 * still reads /1's, whose kernel, clocksource, CPU model and options
 * sat at the top. */
#define VK_BENCH_VERSION 2

enum vk_bench_format {
	VK_BENCH_TEXT, VK_BENCH_JSON, VK_BENCH_CSV, VK_BENCH_KTAP, VK_BENCH_VDSOTEST,
	VK_BENCH_NONE		/* nothing: `all` keeps the rows */
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
	struct vk_bench_ref ref[VK_BENCH_MAX_GROUPS];
	int nref;
	size_t n;
	const struct vk_bench_result *r;
};

/* Each reference's keys in a bench file: the run's figure, and each process's. */
struct vk_bench_ref_key {
	const char *run, *each;
};

extern const struct vk_bench_ref_key vk_bench_ref_keys[VK_REF_KINDS];

int vk_bench_format_parse(const char *name);
void vk_report_bench(FILE *f, int format, const struct vk_bench_report *rep);
/* One self-contained HTML file: no script, inline SVG (report/html.c). */
void vk_report_bench_html(FILE *f, const struct vk_bench_report *rep);

#endif /* VK_REPORT_BENCH_H */

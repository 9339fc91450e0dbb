/* SPDX-License-Identifier: MIT */
/*
 * The report of `vdsokit all`: a verdict that fits on one screen. The
 * command gathers and groups (commands/all.c, core/result/findings.c); these
 * reporters print what it gathered and compute nothing.
 */
#ifndef VK_REPORT_SUMMARY_H
#define VK_REPORT_SUMMARY_H

#include <stdio.h>

#include "core/result/findings.h"
#include "report/bench.h"
#include "report/info.h"

#define VK_SUMMARY_STEPS 8
#define VK_HEADLINES 8

struct vk_summary_step {
	const char *name;
	int status;		/* the command's exit status */
	size_t pass, fail, skip;
	double seconds;
	const char *note;	/* why it was skipped, or NULL */
	const struct vk_results *rs;	/* its results, or NULL (info, bench) */
	const struct vk_bench_result *bench;	/* bench's rows */
	size_t nbench;
	const struct vk_bench_report *bench_run;	/* bench's, or NULL */
};

/* One main API's bench figures: median ns per call by path (NAN: none). */
struct vk_headline {
	const char *api;
	double ns[VK_NPATHS];
};

struct vk_summary {
	const char *version;
	const struct vk_info *info;
	struct vk_summary_step steps[VK_SUMMARY_STEPS];
	size_t nsteps;
	const struct vk_findings *findings;
	int unverified;		/* functions with no result on any path */
	const struct vk_warnings *warnings;	/* bench's, or NULL */
	struct vk_headline head[VK_HEADLINES];
	size_t nhead;
	int status;		/* all's exit status */
};

void vk_report_summary_text(FILE *f, const struct vk_summary *s);
/* One KTAP v1 document: a subtest per command, its results nested. */
void vk_report_summary_ktap(FILE *f, const struct vk_summary *s);
/* One self-contained HTML file: no script, inline SVG (report/html.c). */
void vk_report_summary_html(FILE *f, const struct vk_summary *s);

#endif /* VK_REPORT_SUMMARY_H */

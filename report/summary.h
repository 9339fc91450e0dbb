/* SPDX-License-Identifier: MIT */
/*
 * The report of `vdsokit all`: a verdict that fits on one screen, from
 * what each step (a command run with its defaults) found and how it
 * ended. These reporters print what they are given and compute nothing;
 * they know no step by its name.
 */
#ifndef VK_REPORT_SUMMARY_H
#define VK_REPORT_SUMMARY_H

#include <stdio.h>

#include "core/result/findings.h"
#include "report/bench.h"
#include "report/info.h"

#define VK_HEADLINES 8

/* How a step, or the whole run, ended, as the reports name it. */
enum vk_outcome { VK_OUTCOME_OK, VK_OUTCOME_FAIL, VK_OUTCOME_SKIP, VK_OUTCOME_ERROR };

/* "ok", "FAIL", "SKIP" or "ERROR". */
const char *vk_outcome_name(enum vk_outcome o);

/* One step: what its command kept (any of info, results, bench rows). */
struct vk_summary_step {
	const char *name;
	enum vk_outcome outcome;
	size_t pass, fail, skip;
	double seconds;
	const char *note;	/* why it was skipped, or NULL */
	const struct vk_info *info;	/* info's facts, or NULL */
	const struct vk_results *rs;	/* its results, or NULL */
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
	const struct vk_info *info;	/* the machine */
	const struct vk_summary_step *steps;
	size_t nsteps;
	const struct vk_findings *findings;
	int unverified;		/* functions with no result on any path */
	const struct vk_warnings *warnings;	/* bench's, or NULL */
	const struct vk_results *call_map;	/* where each call runs, or NULL */
	struct vk_headline head[VK_HEADLINES];
	size_t nhead;
	enum vk_outcome outcome;	/* the run's */
};

struct vk_out;
void vk_report_summary_text(const struct vk_out *o, const struct vk_summary *s);
/* One KTAP v1 document: a subtest per command, its results nested. */
void vk_report_summary_ktap(const struct vk_out *k, const struct vk_summary *s);
/* One self-contained HTML file: no script, inline SVG (report/html.c). */
void vk_report_summary_html(const struct vk_out *o, const struct vk_summary *s);

#endif /* VK_REPORT_SUMMARY_H */

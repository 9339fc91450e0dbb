/* SPDX-License-Identifier: MIT */
/*
 * The report of `vdsokit all`: a verdict that fits on one screen, from
 * what each step (a command run with its defaults) found and how it
 * ended. commands/all.c says how each step ended and what it kept,
 * vk_summary_make() what follows from that; report/summary.h's reporters
 * render it.
 */
#ifndef VK_SUMMARY_H
#define VK_SUMMARY_H

#include <stddef.h>

#include "core/bench/envcheck.h"
#include "core/benchfile/model.h"
#include "core/call/call.h"
#include "core/result/findings.h"
#include "core/result/result.h"

struct vk_info;		/* info's facts (core/info/info.h) */

#define VK_HEADLINES 8

/* How a step, or the whole run, ended, as the reports name it. */
enum vk_outcome { VK_OUTCOME_OK, VK_OUTCOME_FAIL, VK_OUTCOME_SKIP, VK_OUTCOME_ERROR };

/* A step's part in the summary beyond its counts (the command table's flags). */
enum {
	VK_STEP_COVERAGE = 4,	/* its results tell which functions were verified */
	VK_STEP_CALL_MAP = 8,	/* its results say where each call runs */
};

/* What a step's command kept for the summary: its results, info's facts,
 * or bench's rows and the run's description. */
struct vk_kept {
	struct vk_results rs;
	struct vk_info *info;		/* malloc()ed */
	struct vk_bench_result *bench;	/* malloc()ed, nbench rows */
	size_t nbench;
	struct vk_bench_report *bench_run;	/* malloc()ed */
};

void vk_kept_free(struct vk_kept *k);

/* One step: what its command kept (any of info, results, bench rows). */
struct vk_summary_step {
	const char *name;
	enum vk_outcome outcome;
	size_t pass, fail, skip, error;	/* error: vdsokit's own */
	size_t unconfirmed;	/* of fail: not made again afresh (core/confirm) */
	double seconds;
	const char *note;	/* why it was skipped, or NULL */
	const struct vk_info *info;	/* info's facts, or NULL */
	const struct vk_results *rs;	/* its results, or NULL */
	const struct vk_bench_result *bench;	/* bench's rows */
	size_t nbench;
	const struct vk_bench_report *bench_run;	/* bench's, or NULL */
	unsigned role;		/* VK_STEP_* */
	const struct vk_kept *kept;	/* what vk_summary_make() counts */
};

/* One main API's bench figures: median ns per call by path (NAN: none),
 * and how many times faster the vDSO is than the syscall (NAN: not both). */
struct vk_headline {
	const char *api;
	double ns[VK_NPATHS];
	double faster;
};

struct vk_summary {
	const char *version;
	const struct vk_info *info;	/* the machine */
	const struct vk_summary_step *steps;
	size_t nsteps;
	struct vk_tally tally;	/* the steps': ok, FAIL or ERROR, SKIP */
	const struct vk_summary_step *bench;	/* the first step with bench rows, or NULL */
	const struct vk_bench_report *bench_run;	/* the last step's that has one, or NULL */
	const struct vk_findings *findings;
	int unverified;		/* functions with no result on any path */
	const struct vk_warnings *warnings;	/* bench's, or NULL */
	const struct vk_results *call_map;	/* where each call runs, or NULL */
	struct vk_headline head[VK_HEADLINES];
	size_t nhead;
	enum vk_outcome outcome;	/* the run's */
};

/* What the reports show of the steps and headlines filled in: tally,
 * bench, bench_run and each headline's faster. */
void vk_summary_finish(struct vk_summary *s);
/*
 * The summary of n steps, each with its name, outcome, role, seconds and
 * what it kept: their counts, findings (into f), the functions verify
 * left unverified, the call map, the headlines, then vk_summary_finish().
 */
void vk_summary_make(struct vk_summary *s, struct vk_summary_step *steps, size_t n,
		     struct vk_findings *f);

#endif /* VK_SUMMARY_H */

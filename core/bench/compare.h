/* SPDX-License-Identifier: MIT */
/*
 * compare: is NEW faster or slower than OLD, and is the difference more
 * than noise? Both are series of bench samples of one API on one path,
 * read from two bench files or measured side by side in one process, in
 * groups: the worker processes of a bench run, or the loaded copies of a
 * library. A group's layout (addresses, pages) is fixed for its life and
 * moves its figure by a percent or so, so the test is on the groups'
 * medians: Mann-Whitney, which neither assumes them normal nor lets one
 * odd process decide.
 */
#ifndef VK_COMPARE_H
#define VK_COMPARE_H

#include <stddef.h>

/*
 * The Mann-Whitney test's significance level. A table of 78 rows at 0.05
 * calls about four of them changed when nothing changed, and at 0.01 one
 * in most tables; the processes of one run also share its moment, which
 * makes p smaller than it should be.
 */
#define VK_COMPARE_ALPHA 0.001
/*
 * The smallest change called significant, in percent: bench's samples are
 * whole counter steps per batch, scaled by a calibration each run repeats,
 * so that two runs of the same code differ in every sample, which a rank
 * test alone calls significant.
 */
#define VK_COMPARE_RESOLUTION_PCT 1.0
/*
 * The same for a row that costs a syscall where a side is a single run,
 * whose processes share its moment and so show nothing of how far
 * separate runs drift apart, and a syscall need not drift as getppid
 * does: two whole-table runs of one binary (AMD EPYC, 6 pairs, 258 such
 * rows) lay beyond the references' band by up to 2.26% (p95), 2.74%
 * (p99) and 3.57%, and 1% called 6 of 234 rows significant. The cheaper
 * rows lay within 0.19% of it (p95).
 */
#define VK_COMPARE_RESOLUTION_ONE_RUN_PCT 3.0
/* Groups a side needs for a verdict: with 7 against 7, Mann-Whitney's
 * smallest two-sided p is 2/3432 = 0.0006, under VK_COMPARE_ALPHA, ties
 * within a side or not, as its p is exact with ties; with
 * 11 pairs, the signed-rank test's is 2/2048 = 0.001. */
#define VK_VERDICT_GROUPS 7
#define VK_VERDICT_PAIRS 11

#define VK_VERDICT_FEW "too few runs for a verdict"
/* Every verdict withheld because the machine moved starts with this. */
#define VK_VERDICT_MOVED_BY "the machine moved"
#define VK_VERDICT_MOVED VK_VERDICT_MOVED_BY ": no verdict"
#define VK_VERDICT_DISAGREE VK_VERDICT_MOVED_BY ", its references disagree: no verdict"
#define VK_VERDICT_UNSTABLE VK_VERDICT_MOVED_BY ", a reference unstable within a run: no verdict"

struct vk_series {
	const char *api, *path;
	double *ns;		/* every sample; NULL when the run skipped it */
	size_t n;
	double *group_med;	/* each group's median; reordered by compare */
	int *group_n;		/* each group's samples, in ns in turn (files only) */
	size_t ngroups;
	const char *skipped;	/* why a file's run did not measure it, or NULL */
	unsigned long long failed;	/* its calls that failed: then no figure (skipped says how) */
	int threads;		/* bench --threads' N, or 0 */
	double scaling;		/* then: calls/s at N threads over one thread's */
	int scaling_runs;	/* a merged side's runs whose scaling's mean it is */
	/*
	 * Side by side, in the new series: group j's ratio to the old
	 * series' group j, the median over the rounds of each sample's
	 * ratio to the old one taken just before or after it. NULL for files.
	 */
	double *pair;
};

/* What a row's verdict says, as the counts and reports tell it apart. */
enum vk_compare_call {
	VK_CALL_UNCHANGED,	/* "~": within the threshold */
	VK_CALL_REGRESSION,
	VK_CALL_IMPROVEMENT,
	VK_CALL_NONE,		/* too few runs, or the machine moved */
};

struct vk_compare_row {
	const struct vk_series *old, *new;
	double old_med, new_med;	/* ns */
	double med_ratio;		/* new_med / old_med */
	double ratio, lo, hi;		/* new / old in percent, its 95% interval */
	double p;	/* Mann-Whitney on the group medians, or signed-rank on the pairs */
	double shift;			/* Hodges-Lehmann: new - old, ns */
	/* "regression", "improvement", "~", VK_VERDICT_FEW or VK_VERDICT_MOVED... */
	const char *verdict;
	enum vk_compare_call call;	/* the same, set with it */
	int significant;
	/*
	 * Where the machine moved beyond the threshold and the row's CI moved
	 * further still: the ratio's distance beyond the machine's move
	 * (ratio / band edge, less 100) and that move (edge less 100), in
	 * percent; NAN elsewhere.
	 */
	double beyond, machine_move;
};

/*
 * How far the machine moved between two bench runs, by the reference
 * loops they timed (struct vk_bench_ref): new/old in percent, NAN when a
 * file has none. loads_ns and sys_ns are the old run's load and syscall,
 * to tell which calls are a few loads and which cost a syscall.
 */
struct vk_compare_machine {
	double cpu_ratio, loads_ratio, sys_ratio;
	double loads_ns, sys_ns;
	/* How unsteady each reference was within a run (vk_compare_spread),
	 * the wider side's; 0 where unknown. */
	double cpu_spread, loads_spread, sys_spread;
	int one_run;	/* a side is one run: see VK_COMPARE_RESOLUTION_ONE_RUN_PCT */
};

/*
 * Fill r from its old and new series; threshold is in percent. A row is
 * judged against the band from 100% to each reference's ratio. Where no
 * reference moved beyond the threshold, a row is significant only where
 * its ratio is 1% beyond that band (3% for a row that costs a syscall
 * where a side is one run): further than the machine moved, or
 * the other way. Where one did, a row gets its verdict only where its
 * whole CI lies beyond the band by the threshold (r->beyond says how
 * far), and none where the load loop moved beyond it for r, or where
 * the references cannot bound the machine's move: those that moved
 * beyond the threshold moved by amounts further apart than it, or one's
 * spread within a run is above it.
 * The register loop counts for every call; the load loop too for a call
 * that costs under 32 loads, which is little but loads, a call and a
 * return; the syscall for a call that costs half a syscall or more, which
 * enters the kernel itself. m is NULL side by side.
 */
void vk_compare_row(struct vk_compare_row *r, double threshold,
		    const struct vk_compare_machine *m);
/*
 * A reference's spread within a side: the width of the 95% interval of
 * its processes' median, in percent of that median; 0 for fewer than 2.
 * Sorts ns.
 */
double vk_compare_spread(double *ns, size_t n);
/* How far a reference ratio (percent) is from 100; 0 if unknown. */
double vk_compare_moved(double ratio);
/* The geometric mean of the rows' new/old median ratios (1: no change). */
double vk_compare_geomean(const struct vk_compare_row *rows, size_t n);

#endif /* VK_COMPARE_H */

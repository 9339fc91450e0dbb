// SPDX-License-Identifier: MIT
/*
 * compare's judgement: whether NEW differs from OLD by more than the
 * groups' spread and the machine's own move explain (compare.h).
 */
#include <math.h>
#include <stdlib.h>

#include "core/base/array.h"
#include "core/bench/compare.h"
#include "core/bench/stats.h"

#define CONF 0.95		/* of the ratio's bootstrap interval */
#define BOOT_ITERS 10000
#define BOOT_SEED 0x5eedULL	/* fixed, so the same samples give the same output */
#define SYSCALL_SHARE 0.5	/* of a syscall's cost: a call this dear makes one */
#define FEW_LOADS 32		/* a call cheaper than this many loads is mostly loads */

/*
 * The band of ratios that the machine's own move explains for r: from
 * 100% to each reference's ratio that counts for r. A row may have moved
 * with the machine as far as the band reaches; one beyond it moved
 * further than the machine did, or the other way, which no slower or
 * faster moment of the machine does.
 */
struct band {
	double lo, hi;		/* percent */
	double spread;		/* the widest of its references' spreads */
	/*
	 * The load loop counts and moved beyond the threshold: it tells that
	 * a neighbour shares the core, not how far a call slows (here loads
	 * slowed 61-66% while time() through libc slowed 77-89%).
	 */
	int loads_moved;
	int syscall;		/* getppid counts: the row costs a syscall */
};

static void widen(struct band *b, double ratio, double spread)
{
	if (isfinite(ratio)) {
		b->lo = fmin(b->lo, ratio);
		b->hi = fmax(b->hi, ratio);
		b->spread = fmax(b->spread, spread);
	}
}

static struct band machine_band(const struct vk_compare_row *r, const struct vk_compare_machine *m,
				 double threshold)
{
	struct band b = { 100, 100, 0, 0, 0 };

	if (!m)
		return b;
	widen(&b, m->cpu_ratio, m->cpu_spread);
	if (m->loads_ns > 0 && r->old_med < FEW_LOADS * m->loads_ns) {
		widen(&b, m->loads_ratio, m->loads_spread);
		b.loads_moved = vk_compare_moved(m->loads_ratio) > threshold;
	}
	if (m->sys_ns > 0 && r->old_med >= SYSCALL_SHARE * m->sys_ns) {
		widen(&b, m->sys_ratio, m->sys_spread);
		b.syscall = 1;
	}
	return b;
}

/*
 * Whether the references that moved beyond the threshold, whether they
 * count for a row or not, moved by amounts further apart than the
 * threshold: the machine changed in a way that moves each kind of work
 * by its own amount, and no reference bounds a call's move. (Two runs of
 * one library here: the register loop 112%, loads 166%, getppid 109%, and
 * the coarse clocks 182-189%.)
 */
static int disagree(const struct vk_compare_machine *m, double threshold)
{
	const double ratio[] = { m->cpu_ratio, m->loads_ratio, m->sys_ratio };
	double lo = INFINITY, hi = -INFINITY;

	for (size_t k = 0; k < ARRAY_SIZE(ratio); k++) {
		if (vk_compare_moved(ratio[k]) > threshold) {
			lo = fmin(lo, ratio[k]);
			hi = fmax(hi, ratio[k]);
		}
	}
	return hi > lo && hi / lo * 100 > 100 + threshold;
}

static void give_verdict(struct vk_compare_row *r, double threshold)
{
	if (r->significant && r->ratio > 100 + threshold) {
		r->verdict = "regression";
		r->call = VK_CALL_REGRESSION;
	} else if (r->significant && r->ratio < 100 - threshold) {
		r->verdict = "improvement";
		r->call = VK_CALL_IMPROVEMENT;
	} else {
		r->verdict = "~";
		r->call = VK_CALL_UNCHANGED;
	}
}

/*
 * The machine moved beyond the threshold: r's verdict stands only where
 * its whole CI lies beyond the band by the threshold, as a ratio to the
 * band's edge, which no move of the machine the references saw explains,
 * and where they bound that move. A row within the move needs no reason
 * beyond it.
 */
static void judge_moved(struct vk_compare_row *r, double threshold, struct band machine,
			const struct vk_compare_machine *m)
{
	int up = r->lo > machine.hi, down = r->hi < machine.lo;
	double edge = up ? machine.hi : machine.lo;
	double beyond = (up ? r->lo : r->hi) / edge * 100;

	r->significant = 0;
	r->call = VK_CALL_NONE;
	if (!(up || down) || fabs(beyond - 100) <= threshold || !(r->p < VK_COMPARE_ALPHA) ||
	    machine.loads_moved) {
		r->verdict = VK_VERDICT_MOVED;
	} else if (disagree(m, threshold)) {
		r->verdict = VK_VERDICT_DISAGREE;
	} else if (machine.spread > threshold) {
		r->verdict = VK_VERDICT_UNSTABLE;
	} else {
		r->significant = 1;
		r->beyond = r->ratio / edge * 100 - 100;
		r->machine_move = edge - 100;
		give_verdict(r, threshold);
	}
}

static void judge(struct vk_compare_row *r, double threshold, const struct vk_compare_machine *m)
{
	struct band machine = machine_band(r, m, threshold);
	double resolution;
	int few = r->new->pair ? r->new->ngroups < VK_VERDICT_PAIRS
			       : r->old->ngroups < VK_VERDICT_GROUPS ||
					 r->new->ngroups < VK_VERDICT_GROUPS;

	r->beyond = r->machine_move = NAN;
	/* No verdict, and nothing called significant either. */
	if (few) {
		r->significant = 0;
		r->verdict = VK_VERDICT_FEW;
		r->call = VK_CALL_NONE;
		return;
	}
	if (fmax(100 - machine.lo, machine.hi - 100) > threshold) {
		judge_moved(r, threshold, machine, m);
		return;
	}
	resolution = m && m->one_run && machine.syscall ? VK_COMPARE_RESOLUTION_ONE_RUN_PCT
							: VK_COMPARE_RESOLUTION_PCT;
	r->significant = r->p < VK_COMPARE_ALPHA && (r->ratio > machine.hi + resolution ||
						     r->ratio < machine.lo - resolution);
	give_verdict(r, threshold);
}

/*
 * Side by side, the copies come in pairs measured in turn: the ratio is
 * the median of the pairs', its interval theirs, and the test the
 * signed-rank test on their logarithms, so that what moved both of a pair
 * cancels out.
 */
static void paired(struct vk_compare_row *r)
{
	const struct vk_series *b = r->new;
	double *logs = calloc(b->ngroups, sizeof(*logs)), *pair = calloc(b->ngroups, sizeof(*pair));

	r->p = r->ratio = r->lo = r->hi = NAN;
	if (logs && pair) {
		for (size_t j = 0; j < b->ngroups; j++) {
			pair[j] = b->pair[j];
			logs[j] = log(b->pair[j]);
		}
		r->p = vk_signed_rank_p(logs, b->ngroups);
		vk_bootstrap_median_ci(pair, b->ngroups, CONF, BOOT_ITERS, BOOT_SEED, &r->lo,
				       &r->hi);
		r->ratio = vk_median(pair, b->ngroups) * 100;
		r->lo *= 100;
		r->hi *= 100;
	}
	free(logs);
	free(pair);
}

/* Files: the two runs' group medians, independent of each other. */
static void unpaired(struct vk_compare_row *r)
{
	const struct vk_series *a = r->old, *b = r->new;
	double *ga = a->group_med, *gb = b->group_med;
	size_t na = a->ngroups, nb = b->ngroups;

	r->ratio = r->lo = r->hi = NAN;
	/* A ratio to a median of zero or less (overhead subtracted) means nothing. */
	if (r->old_med > 0) {
		r->ratio = r->new_med / r->old_med * 100;
		if (na > 1 && nb > 1) {
			vk_bootstrap_ratio_ci(ga, na, gb, nb, CONF, BOOT_ITERS, BOOT_SEED, &r->lo,
					      &r->hi);
			r->lo *= 100;
			r->hi *= 100;
		}
	}
	r->p = vk_mann_whitney_p(ga, na, gb, nb);
}

void vk_compare_row(struct vk_compare_row *r, double threshold,
		    const struct vk_compare_machine *m)
{
	const struct vk_series *a = r->old, *b = r->new;

	r->old_med = vk_median(a->group_med, a->ngroups);
	r->new_med = vk_median(b->group_med, b->ngroups);
	r->med_ratio = r->new_med / r->old_med;
	if (b->pair)
		paired(r);
	else
		unpaired(r);
	r->shift = vk_hodges_lehmann(a->group_med, a->ngroups, b->group_med, b->ngroups);
	judge(r, threshold, m);
}

double vk_compare_spread(double *ns, size_t n)
{
	double lo, hi, med;

	if (n < 2)
		return 0;
	vk_bootstrap_median_ci(ns, n, CONF, BOOT_ITERS, BOOT_SEED, &lo, &hi);
	med = vk_median(ns, n);
	return med > 0 ? (hi - lo) / med * 100 : 0;
}

double vk_compare_moved(double ratio)
{
	return isfinite(ratio) ? fabs(ratio - 100) : 0;
}

double vk_compare_geomean(const struct vk_compare_row *rows, size_t n)
{
	double sum = 0;
	size_t used = 0;

	for (size_t i = 0; i < n; i++) {
		if (rows[i].old_med > 0 && rows[i].new_med > 0) {
			sum += log(rows[i].new_med / rows[i].old_med);
			used++;
		}
	}
	return used ? exp(sum / used) : NAN;
}

// SPDX-License-Identifier: MIT
/*
 * Makes all's summary from what its steps kept and how they ended: their
 * counts, findings and the bench headline, the verdict and the vDSO's
 * speedup, so that its reporters only print (summary.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/array.h"
#include "core/info/info.h"
#include "core/summary/summary.h"

/* The figures the bench headline shows, of the calls programs make most. */
static const char *const headline[] = {
	"clock-gettime-monotonic", "clock-gettime-realtime", "clock-gettime-monotonic-coarse",
	"gettimeofday", "time", "getcpu", "getrandom",
};

void vk_kept_free(struct vk_kept *k)
{
	vk_results_free(&k->rs);
	free(k->info);
	free(k->bench);
	free(k->bench_run);
	memset(k, 0, sizeof(*k));
}

/* How many times faster the vDSO is than the syscall, where both were timed. */
static double faster(const struct vk_headline *h)
{
	double v = h->ns[VK_PATH_VDSO], sys = h->ns[VK_PATH_SYSCALL];

	return v > 0 && !isnan(sys) ? sys / v : NAN;
}

void vk_summary_finish(struct vk_summary *s)
{
	s->tally = (struct vk_tally){ 0 };
	for (size_t i = 0; i < s->nsteps; i++) {
		const struct vk_summary_step *st = &s->steps[i];

		s->tally.pass += st->outcome == VK_OUTCOME_OK;
		s->tally.skip += st->outcome == VK_OUTCOME_SKIP;
		s->tally.fail += st->outcome == VK_OUTCOME_FAIL;
		s->tally.error += st->outcome == VK_OUTCOME_ERROR;
		if (st->nbench && !s->bench)
			s->bench = st;
		if (st->bench_run)
			s->bench_run = st->bench_run;
	}
	for (size_t i = 0; i < s->nhead; i++)
		s->head[i].faster = faster(&s->head[i]);
}

static void count_results(struct vk_summary_step *st, const struct vk_results *rs)
{
	struct vk_tally t = vk_results_tally(rs);

	st->pass = t.pass;
	st->fail = t.fail;
	st->skip = t.skip;
	st->error = t.error;
	st->unconfirmed = t.unconfirmed;
	/* A command that could not run at all says why in its one SKIP. */
	if (rs->n == 1 && rs->r[0]->status == VK_SKIP)
		st->note = rs->r[0]->detail;
}

static void count_info(struct vk_summary_step *st, const struct vk_info *in)
{
	for (int i = 0; i < VK_NALLFUNCS; i++) {
		if (!in->funcs[i].applies)
			continue;
		st->pass += in->funcs[i].f.found != 0;
		st->skip += !in->funcs[i].f.found;
	}
}

static void count_bench(struct vk_summary_step *st, const struct vk_kept *s)
{
	for (size_t i = 0; i < s->nbench; i++) {
		st->pass += !s->bench[i].skipped;
		st->error += s->bench[i].own_error;
		st->skip += s->bench[i].skipped && !s->bench[i].own_error;
	}
	st->bench = s->bench;
	st->nbench = s->nbench;
	st->bench_run = s->bench_run;
}

/* Functions of this ABI that verify checked on no path at all. */
static int unverified(const struct vk_results *rs)
{
	int seen[VK_NFUNCS] = { 0 }, n = 0;

	for (size_t i = 0; i < rs->n; i++) {
		struct vk_clock c;
		int has_id, f = vk_api_func(rs->r[i]->api, &c, &has_id);

		if (f >= 0 && (rs->r[i]->status == VK_PASS || rs->r[i]->status == VK_FAIL))
			seen[f] = 1;
	}
	for (int f = 0; f < VK_NFUNCS; f++) {
		struct vk_api probe = { .func = f };

		n += vk_api_applies(&probe, sizeof(void *) == 8) && !seen[f];
	}
	return n;
}

static void headlines(struct vk_summary *sum, const struct vk_kept *s)
{
	for (size_t h = 0; h < ARRAY_SIZE(headline); h++) {
		struct vk_headline *x = &sum->head[sum->nhead];
		int found = 0;

		x->api = headline[h];
		for (int p = 0; p < VK_NPATHS; p++)
			x->ns[p] = NAN;
		for (size_t i = 0; i < s->nbench; i++) {
			const struct vk_bench_result *r = &s->bench[i];

			if (strcmp(r->api, x->api) || r->skipped)
				continue;
			x->ns[r->path] = r->median;
			found = 1;
		}
		sum->nhead += found;
	}
}

/* The pass, fail and skip counts of what a step kept. */
static void count(struct vk_summary_step *st, const struct vk_kept *s)
{
	if (s->info)
		count_info(st, s->info);
	else if (s->bench)
		count_bench(st, s);
	else
		count_results(st, &s->rs);
}

/* Gather what st kept into the summary its reporters print. */
static void summarize_step(struct vk_summary *sum, struct vk_summary_step *st,
			   struct vk_findings *f)
{
	const struct vk_kept *s = st->kept;

	st->info = s->info;
	count(st, s);
	if (s->info)
		sum->info = s->info;
	if (s->rs.n) {
		st->rs = &s->rs;
		vk_findings_add(f, st->name, &s->rs);
	}
	if (st->role & VK_STEP_COVERAGE)
		sum->unverified = unverified(&s->rs);
	if (st->role & VK_STEP_CALL_MAP)
		sum->call_map = st->rs;
	if (s->nbench)
		headlines(sum, s);
	if (s->bench_run)
		sum->warnings = &s->bench_run->warnings;
}

void vk_summary_make(struct vk_summary *s, struct vk_summary_step *steps, size_t n,
		     struct vk_findings *f)
{
	static const struct vk_info none;

	s->info = &none;
	s->findings = f;
	s->steps = steps;
	s->nsteps = n;
	for (size_t k = 0; k < n; k++)
		summarize_step(s, &steps[k], f);
	vk_summary_finish(s);
}

// SPDX-License-Identifier: MIT
/*
 * Completes all's summary from its steps' outcomes (the verdict, the
 * vDSO's speedup), so that its reporters only print (summary.h).
 */
#include <math.h>

#include "core/summary/summary.h"

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

// SPDX-License-Identifier: MIT
/* Two sides compared: a judged row for each API and path both measured. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench/stats.h"
#include "core/benchfile/benchfile.h"

const struct vk_series *vk_series_find(const struct vk_series *s, size_t n, const char *api,
				       const char *path)
{
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(s[i].api, api) && !strcmp(s[i].path, path))
			return &s[i];
	}
	return NULL;
}

size_t vk_compare_build_rows(struct vk_compare_report *rep, struct vk_compare_row *rows,
			     const struct vk_series *old, size_t nold,
			     const struct vk_series *new, size_t nnew)
{
	for (size_t i = 0; i < nold; i++) {
		const struct vk_series *n = vk_series_find(new, nnew, old[i].api, old[i].path);
		struct vk_compare_row *r = &rows[rep->nrows];

		if (!old[i].ns || old[i].failed || !n || !n->ns || n->failed)
			continue;
		r->old = &old[i];
		r->new = n;
		vk_compare_row(r, rep->threshold, rep->interleaved ? NULL : &rep->machine);
		rep->nrows++;
		rep->no_verdict += r->call == VK_CALL_NONE;
		rep->beyond_machine += isfinite(r->beyond);
		rep->regressions += r->call == VK_CALL_REGRESSION;
		rep->improvements += r->call == VK_CALL_IMPROVEMENT;
		rep->unchanged += r->call == VK_CALL_UNCHANGED;
		rep->significant_within += r->significant && r->call == VK_CALL_UNCHANGED;
	}
	rep->passed = rep->unchanged + rep->improvements;
	rep->rows = rows;
	rep->not_compared = nold + nnew - 2 * rep->nrows;
	rep->geomean = vk_compare_geomean(rows, rep->nrows);
	return rep->nrows;
}

/* One side's series whose calls failed, appended to rep's failed rows. */
static void add_failed(struct vk_compare_report *rep, struct vk_compare_failed *failed,
		       const struct vk_series *s, size_t n, const char *side)
{
	for (size_t i = 0; i < n; i++) {
		struct vk_compare_failed *f = &failed[rep->nfailed];

		if (!s[i].failed)
			continue;
		*f = (struct vk_compare_failed){ .api = s[i].api, .path = s[i].path, .side = side };
		snprintf(f->why, sizeof(f->why), "%s", s[i].skipped ? s[i].skipped : "its calls failed");
		rep->nfailed++;
	}
}

void vk_compare_failed_rows(struct vk_compare_report *rep, struct vk_compare_failed *failed,
			    const struct vk_series *old, size_t nold, const struct vk_series *new,
			    size_t nnew)
{
	add_failed(rep, failed, old, nold, "old");
	add_failed(rep, failed, new, nnew, "new");
	rep->failed = failed;
}

double vk_compare_pair_ratio(const double *old, int nold, const double *new, int nnew)
{
	double ratio[VK_BENCH_MAX_SAMPLES];
	int n = 0;

	for (int i = 0; i < nold && i < nnew && n < VK_BENCH_MAX_SAMPLES; i++) {
		if (old[i] > 0 && new[i] > 0)
			ratio[n++] = new[i] / old[i];
	}
	return n ? vk_median(ratio, n) : NAN;
}

int vk_compare_rows(struct vk_compare_report *rep, struct vk_compare_row **rows,
		    const struct vk_series *old, size_t nold, const struct vk_series *new,
		    size_t nnew, struct vk_bf_err *e)
{
	*rows = calloc(nold ? nold : 1, sizeof(**rows));
	if (!*rows) {
		snprintf(e->msg, sizeof(e->msg), "%s", strerror(ENOMEM));
		return -1;
	}
	/* Rows whose calls failed are reported, though none is compared. */
	if (vk_compare_build_rows(rep, *rows, old, nold, new, nnew) || rep->nfailed)
		return 0;
	snprintf(e->msg, sizeof(e->msg), "%s and %s have no API and path with samples in both",
		 rep->old, rep->new);
	return -1;
}

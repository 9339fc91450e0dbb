/* SPDX-License-Identifier: MIT */
/*
 * compare: is NEW faster or slower than OLD, and is the difference more
 * than noise? Both are series of bench samples of one API on one path,
 * read from two bench files or measured side by side in one process.
 */
#ifndef VK_COMPARE_H
#define VK_COMPARE_H

#include <stddef.h>

#define VK_COMPARE_ALPHA 0.05	/* significance level of the Mann-Whitney test */
/*
 * The smallest change called significant, in percent: bench's samples are
 * whole counter steps per batch, scaled by a calibration each run repeats,
 * so that two runs of the same code differ in every sample, which a rank
 * test alone calls significant.
 */
#define VK_COMPARE_RESOLUTION_PCT 1.0

struct vk_series {
	const char *api, *path;
	double *ns;		/* NULL when the run skipped it; sorted by compare */
	size_t n;
};

struct vk_compare_row {
	const struct vk_series *old, *new;
	double old_med, new_med;	/* ns */
	double ratio, lo, hi;		/* new / old in percent, its 95% interval */
	double p;			/* Mann-Whitney */
	double shift;			/* Hodges-Lehmann: new - old, ns */
	const char *verdict;		/* "regression", "improvement" or "~" */
	int significant;
};

/* Fill r from its old and new series; threshold is in percent. */
void vk_compare_row(struct vk_compare_row *r, double threshold);
/* The geometric mean of the rows' new/old median ratios (1: no change). */
double vk_compare_geomean(const struct vk_compare_row *rows, size_t n);

#endif /* VK_COMPARE_H */

/* SPDX-License-Identifier: MIT */
/*
 * Statistics for benchmark samples (ns per call): robust location and
 * spread, bootstrap confidence intervals, and rank tests for comparing
 * two runs. Nothing here assumes the samples are normal; timings rarely
 * are. Functions that need memory return NAN (or 0) when malloc fails,
 * and NAN for an empty sample.
 */
#ifndef VK_STATS_H
#define VK_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Sort x ascending in place, NaNs last. */
void vk_sort(double *x, size_t n);
/* The median; sorts x ascending in place. */
double vk_median(double *x, size_t n);
/* Quantile q in [0, 1] of ascending samples, interpolating between ranks. */
double vk_quantile_sorted(const double *sorted, size_t n, double q);
double vk_mean(const double *x, size_t n);
/* Sample standard deviation over mean, in percent; 0 for n < 2. */
double vk_cv_pct(const double *x, size_t n);

/*
 * Percentile-bootstrap confidence interval (e.g. conf 0.95) of the median,
 * from iters resamples drawn by a PRNG seeded with seed: the same input
 * and seed give the same interval.
 */
void vk_bootstrap_median_ci(const double *x, size_t n, double conf, unsigned iters,
			    uint64_t seed, double *lo, double *hi);
/* The same for median(b) / median(a), resampling a and b independently. */
void vk_bootstrap_ratio_ci(const double *a, size_t na, const double *b, size_t nb,
			   double conf, unsigned iters, uint64_t seed, double *lo, double *hi);

/*
 * Two-sided p-value of the Mann-Whitney U test that a and b come from the
 * same distribution: exact for up to VK_MANN_WHITNEY_EXACT values in all,
 * ties or not (the permutation distribution of U, ties at their
 * mid-ranks: some 12 ms at 64 against 64, bench's most processes), else
 * the normal approximation with tie and continuity corrections.
 */
#define VK_MANN_WHITNEY_EXACT 128
double vk_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb);
/*
 * Two-sided p-value of the Wilcoxon signed-rank test that the differences
 * d are centred on 0: zeros and infinities dropped, ties sharing their
 * average rank;
 * exact for up to 30 untied differences, else the normal approximation
 * with tie and continuity corrections.
 */
double vk_signed_rank_p(const double *d, size_t n);
/* Hodges-Lehmann shift: the median of every difference b[j] - a[i]. */
double vk_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb);

/*
 * Whether positive samples look like two clusters: some split of the
 * sorted samples leaves at least 20% of them on each side and a jump of
 * more than 10% between the two neighbours at the split.
 */
int vk_multimodal(const double *x, size_t n);

#endif /* VK_STATS_H */

// SPDX-License-Identifier: MIT
/*
 * core/bench/stats.c on known values and on synthetic samples from a fixed
 * seed: medians and quantiles, the bootstrap intervals, Mann-Whitney,
 * Hodges-Lehmann and the multimodality heuristic.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/bench/stats.h"
#include "tests/unit/test.h"

#define N_MAX 1000
#define ITERS 2000

static uint64_t rng = 42;

/* xorshift64*, independent of the generator under test. */
static double uniform(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (double)((rng * 0x2545f4914f6cdd1dULL) >> 11) / 9007199254740992.0;
}

/*
 * Marsaglia's polar method: timings are not normal, but a known shape
 * tests the maths. No trigonometry: static glibc's cos() traps under
 * qemu-ppc.
 */
static double normal(double mean, double sd)
{
	double u, v, s;

	do {
		u = 2 * uniform() - 1;
		v = 2 * uniform() - 1;
		s = u * u + v * v;
	} while (s >= 1 || s == 0);
	return mean + sd * u * sqrt(-2 * log(s) / s);
}

static void fill_normal(double *x, size_t n, double mean, double sd)
{
	for (size_t i = 0; i < n; i++)
		x[i] = normal(mean, sd);
}

static int near(double got, double want, double tol)
{
	return fabs(got - want) <= tol;
}

static void test_location(void)
{
	double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 };
	double q[] = { 1, 2, 3, 4, 5 }, cv[] = { 2, 4, 4, 4, 5, 5, 7, 9 };

	CHECK(vk_median(odd, 3) == 2, "median of 3 values");
	CHECK(odd[0] == 1 && odd[1] == 2 && odd[2] == 3, "median sorts in place");
	CHECK(vk_median(even, 4) == 2.5, "median of 4 values is the middle pair's mean");
	CHECK(vk_median(one, 1) == 7, "median of 1 value");
	CHECK(vk_quantile_sorted(q, 5, 0) == 1 && vk_quantile_sorted(q, 5, 1) == 5,
	      "quantiles 0 and 1 are the extremes");
	CHECK(vk_quantile_sorted(q, 5, 0.25) == 2, "quantile 0.25 of 1..5 is 2");
	CHECK(near(vk_quantile_sorted(q, 5, 0.1), 1.4, 1e-12),
	      "quantile 0.1 of 1..5 interpolates to 1.4");
	CHECK(vk_quantile_sorted(one, 1, 0.9) == 7, "any quantile of 1 value is that value");
	CHECK(isnan(vk_quantile_sorted(q, 0, 0.5)), "quantile of nothing is NAN");
	CHECK(vk_mean(q, 5) == 3, "mean of 1..5");
	CHECK(near(vk_cv_pct(cv, 8), sqrt(32.0 / 7) / 5 * 100, 1e-9), "cv uses the sample stddev");
	CHECK(vk_cv_pct(one, 1) == 0, "cv of 1 value is 0");
}

/*
 * The CI of the median of an ideal uniform(10, 20) sample of n (its
 * quantiles), whose true median is 15. Returns its width; a
 * median's standard error is 1 / (2 f sqrt(n)), f = 0.1 the density.
 */
static double uniform_ci(size_t n, double *lo, double *hi)
{
	static double x[N_MAX];

	for (size_t i = 0; i < n; i++)
		x[i] = 10 + 10 * ((double)i + 0.5) / (double)n;
	vk_bootstrap_median_ci(x, n, 0.95, ITERS, 1, lo, hi);
	return *hi - *lo;
}

static void test_bootstrap(void)
{
	double x[] = { 5, 1, 4, 2, 3 }, one[] = { 7 };
	double lo, hi, lo2, hi2, w_small, w, w_theory;

	w_small = uniform_ci(31, &lo, &hi);
	CHECK(lo < 15 && 15 < hi, "the CI holds the true median (n=31: %.2f..%.2f)", lo, hi);
	w = uniform_ci(N_MAX, &lo, &hi);
	CHECK(lo < 15 && 15 < hi, "the CI holds the true median (n=%d: %.2f..%.2f)", N_MAX, lo, hi);
	CHECK(w < w_small / 3, "the CI narrows with n (%.3f -> %.3f)", w_small, w);
	w_theory = 2 * 1.96 * 5 / sqrt(N_MAX);
	CHECK(near(w, w_theory, 0.3 * w_theory), "the CI's width is near the theory's (%.3f, %.3f)",
	      w, w_theory);

	vk_bootstrap_median_ci(x, 5, 0.95, ITERS, 7, &lo, &hi);
	vk_bootstrap_median_ci(x, 5, 0.95, ITERS, 7, &lo2, &hi2);
	CHECK(lo == lo2 && hi == hi2, "the same seed gives the same CI");
	CHECK(x[0] == 5 && x[4] == 3, "the bootstrap leaves its input alone");
	CHECK(lo >= 1 && hi <= 5, "the CI stays within the sample's range");
	vk_bootstrap_median_ci(one, 1, 0.95, ITERS, 7, &lo, &hi);
	CHECK(lo == 7 && hi == 7, "the CI of 1 value is that value");
	vk_bootstrap_median_ci(x, 0, 0.95, ITERS, 7, &lo, &hi);
	CHECK(isnan(lo) && isnan(hi), "the CI of nothing is NAN");
}

/* Only containing the sample's own ratio is certain; the true one, 95% likely. */
static void test_ratio(void)
{
	double a[15], b[15], lo, hi, ratio;

	fill_normal(a, 15, 100, 1);
	fill_normal(b, 15, 110, 1.1);
	vk_bootstrap_ratio_ci(a, 15, b, 15, 0.95, ITERS, 1, &lo, &hi);
	ratio = vk_median(b, 15) / vk_median(a, 15);
	CHECK(lo <= ratio && ratio <= hi, "the ratio CI holds the medians' ratio (%.4f in %.4f..%.4f)",
	      ratio, lo, hi);
	CHECK(lo > 1.05 && hi < 1.15, "the ratio CI of a 10%% shift is near 1.1, clear of 1");
	vk_bootstrap_ratio_ci(a, 15, a, 15, 0.95, ITERS, 1, &lo, &hi);
	CHECK(lo < 1 && 1 < hi, "the ratio CI of a sample with itself holds 1 (%.4f..%.4f)", lo,
	      hi);
}

static void test_mann_whitney(void)
{
	double a[15], b[15], p;
	double lo5[] = { 1, 2, 3, 4, 5 }, hi5[] = { 6, 7, 8, 9, 10 };
	double ta[] = { 1, 2, 2, 3, 3 }, tb[] = { 3, 4, 4, 5, 6 }, same[] = { 4, 4, 4, 4, 4 };
	double odd[] = { 1, 3, 5, 7, 9 }, even[] = { 2, 4, 6, 8, 10 };
	double u6[] = { 1, 2.5, 3, 7, 8, 9.5 }, u7[] = { 4, 5, 6, 10, 11, 12, 13 };

	/* Untied: exact, as R's wilcox.test() and a count of all C(10, 5) splits. */
	CHECK(near(vk_mann_whitney_p(lo5, 5, hi5, 5), 2.0 / 252, 1e-12), "MWU p of 1..5 vs 6..10");
	CHECK(near(vk_mann_whitney_p(odd, 5, even, 5), 174.0 / 252, 1e-12), "MWU p of odd vs even");
	CHECK(near(vk_mann_whitney_p(u6, 6, u7, 7), 0.1013986013986014, 1e-12),
	      "MWU p of 6 vs 7 untied values");
	/* Tied: R's wilcox.test(exact = FALSE, correct = TRUE). */
	CHECK(near(vk_mann_whitney_p(ta, 5, tb, 5), 0.0192436, 1e-6), "MWU p with ties");
	/* Near, not equal: i386's x87 keeps one result in 80 bits, not both. */
	CHECK(near(vk_mann_whitney_p(hi5, 5, lo5, 5), vk_mann_whitney_p(lo5, 5, hi5, 5), 1e-15),
	      "MWU p is symmetric");
	CHECK(vk_mann_whitney_p(same, 5, same, 5) == 1, "MWU p of all-tied samples is 1");

	fill_normal(a, 15, 100, 1);
	fill_normal(b, 15, 103, 1);
	p = vk_mann_whitney_p(a, 15, b, 15);
	CHECK(p < 0.01, "MWU p of two clearly shifted samples of 15 is < 0.01 (%.2g)", p);
	fill_normal(b, 15, 100, 1);
	p = vk_mann_whitney_p(a, 15, b, 15);
	CHECK(p > 0.2, "MWU p of two samples of one distribution is > 0.2 (%.2g)", p);
}

static void test_signed_rank(void)
{
	double up[] = { 1, 2, 3, 4, 5, 6, 7, 8 }, mixed[] = { 1, -2, 3, -4, 5, -6 };
	double mostly[] = { 0.5, 1.5, -0.25, 2.5, 3.5, 4.5, -1.25, 5.5, 6.5, 7.5 };
	double zeros[] = { 0, 0, 0 }, with_zero[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };

	/* Against a count of every sign pattern. */
	CHECK(near(vk_signed_rank_p(up, 8), 2.0 / 256, 1e-12), "signed rank: 8 of 8 positive");
	CHECK(near(vk_signed_rank_p(mixed, 6), 0.84375, 1e-12), "signed rank: alternating signs");
	CHECK(near(vk_signed_rank_p(mostly, 10), 0.013671875, 1e-12), "signed rank: 8 of 10 positive");
	CHECK(vk_signed_rank_p(zeros, 3) == 1, "signed rank: all zero is no evidence");
	CHECK(near(vk_signed_rank_p(with_zero, 9), 2.0 / 256, 1e-12), "signed rank: zeros are dropped");
}

static void test_hodges_lehmann(void)
{
	double a[] = { 1, 2, 3 }, b[] = { 11, 12, 13 }, na[25], nb[30];

	CHECK(vk_hodges_lehmann(a, 3, b, 3) == 10, "HL of a shift by 10 is 10");
	CHECK(vk_hodges_lehmann(b, 3, a, 3) == -10, "HL is signed");
	fill_normal(na, 25, 50, 1);
	fill_normal(nb, 30, 55, 1);
	CHECK(near(vk_hodges_lehmann(na, 25, nb, 30), 5, 0.8),
	      "HL of noisy samples 5 apart is near 5");
}

static void test_multimodal(void)
{
	double x[40];

	for (int i = 0; i < 20; i++) {
		x[i] = 1.30 + 0.001 * i;
		x[20 + i] = 1.55 + 0.001 * i;
	}
	CHECK(vk_multimodal(x, 40), "two clusters 19%% apart are multimodal");
	for (int i = 0; i < 40; i++)
		x[i] = (i < 32 ? 1.30 : 1.55) + 0.001 * i;
	CHECK(vk_multimodal(x, 40), "a cluster of 20%% of the samples counts");
	for (int i = 0; i < 40; i++)
		x[i] = (i < 33 ? 1.30 : 1.55) + 0.001 * i;
	CHECK(!vk_multimodal(x, 40), "a cluster of less than 20%% does not");
	for (int i = 0; i < 40; i++)
		x[i] = (i < 20 ? 10 : 10.5) + 0.001 * i;
	CHECK(!vk_multimodal(x, 40), "two clusters 5%% apart are not multimodal");
	fill_normal(x, 40, 22.6, 0.2);
	x[39] = 40;
	CHECK(!vk_multimodal(x, 40), "a normal sample with one outlier is not multimodal");
	CHECK(!vk_multimodal(x, 1), "one sample is not multimodal");
}

int main(void)
{
	test_location();
	test_bootstrap();
	test_ratio();
	test_mann_whitney();
	test_signed_rank();
	test_hodges_lehmann();
	test_multimodal();
	return test_exit();
}

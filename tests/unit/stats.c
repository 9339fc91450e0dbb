// SPDX-License-Identifier: MIT
/*
 * core/bench/stats.c on known values and on synthetic samples from a fixed
 * seed: medians and quantiles, the bootstrap intervals, Mann-Whitney,
 * Hodges-Lehmann and the multimodality heuristic.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/array.h"
#include "core/bench/compare.h"
#include "core/bench/stats.h"
#include "tests/unit/test.h"

#define N_MAX 1000
#define ITERS 2000
#define BRUTE_MAX 18	/* values in all that the brute force enumerates */

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

/* 2U of the values of pool in mask as a's against the rest: ties count 1, a win 2. */
static long twice_u(const double *pool, size_t n, unsigned long mask)
{
	long u2 = 0;

	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < n; j++) {
			if ((mask >> i & 1) && !(mask >> j & 1))
				u2 += (pool[i] > pool[j]) * 2 + (pool[i] == pool[j]);
		}
	}
	return u2;
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

/*
 * The reference: the two-sided exact p by brute force, every choice of
 * which na of the pooled values are a's, U counting ties as halves (in
 * 2U, so in integers).
 */
static double brute_mann_whitney(const double *a, size_t na, const double *b, size_t nb)
{
	double pool[BRUTE_MAX];
	size_t n = na + nb;
	long mu2 = (long)(na * nb), d, far = 0, total = 0;

	memcpy(pool, a, na * sizeof(*a));
	memcpy(pool + na, b, nb * sizeof(*b));
	d = labs(twice_u(pool, n, (1UL << na) - 1) - mu2);
	for (unsigned long mask = 0; mask < 1UL << n; mask++) {
		if ((size_t)__builtin_popcountl(mask) != na)
			continue;
		total++;
		far += labs(twice_u(pool, n, mask) - mu2) >= d;
	}
	return (double)far / (double)total;
}

/* Samples wholly apart, untied or tied within each: as bench's ties are. */
static void apart(double *a, size_t na, double *b, size_t nb, int tied)
{
	for (size_t i = 0; i < na; i++)
		a[i] = 20 + (tied ? (double)(i / 2) : (double)i) / 100;
	for (size_t j = 0; j < nb; j++)
		b[j] = 2 * a[j % na] + (tied ? 0 : (double)j / 1000);
}

static double binomial(size_t n, size_t k)
{
	double c = 1;

	for (size_t i = 1; i <= k; i++)
		c = c * (double)(n - k + i) / (double)i;
	return c;
}

static void test_mann_whitney(void)
{
	double a[15], b[15], p;
	double lo5[] = { 1, 2, 3, 4, 5 }, hi5[] = { 6, 7, 8, 9, 10 };
	double ta[] = { 1, 2, 2, 3, 3 }, tb[] = { 3, 4, 4, 5, 6 }, same[] = { 4, 4, 4, 4, 4 };
	double odd[] = { 1, 3, 5, 7, 9 }, even[] = { 2, 4, 6, 8, 10 };
	double u6[] = { 1, 2.5, 3, 7, 8, 9.5 }, u7[] = { 4, 5, 6, 10, 11, 12, 13 };
	double x[BRUTE_MAX], y[BRUTE_MAX];
	int bad = 0;

	/* Untied: exact, as R's wilcox.test() and a count of all C(10, 5) splits. */
	CHECK(near(vk_mann_whitney_p(lo5, 5, hi5, 5), 2.0 / 252, 1e-12), "MWU p of 1..5 vs 6..10");
	CHECK(near(vk_mann_whitney_p(odd, 5, even, 5), 174.0 / 252, 1e-12), "MWU p of odd vs even");
	CHECK(near(vk_mann_whitney_p(u6, 6, u7, 7), 0.1013986013986014, 1e-12),
	      "MWU p of 6 vs 7 untied values");
	/* Tied: exact too, 6 of the 252 splits (Python's count of them, in fractions). */
	CHECK(near(vk_mann_whitney_p(ta, 5, tb, 5), 1.0 / 42, 1e-15), "MWU p with ties is exact");
	CHECK(near(brute_mann_whitney(ta, 5, tb, 5), 1.0 / 42, 1e-15), "the brute force agrees");
	/* Near, not equal: i386's x87 keeps one result in 80 bits, not both. */
	CHECK(near(vk_mann_whitney_p(hi5, 5, lo5, 5), vk_mann_whitney_p(lo5, 5, hi5, 5), 1e-15),
	      "MWU p is symmetric");
	CHECK(vk_mann_whitney_p(same, 5, same, 5) == 1, "MWU p of all-tied samples is 1");

	/* Against the brute force: 1 to 8 a side, values of 2 to 6 levels, so ties of all kinds. */
	for (int trial = 0; trial < 400; trial++) {
		size_t na = 1 + (size_t)(uniform() * 8), nb = 1 + (size_t)(uniform() * 8);
		int levels = 2 + (int)(uniform() * 5);

		for (size_t i = 0; i < na; i++)
			x[i] = (int)(uniform() * levels);
		for (size_t j = 0; j < nb; j++)
			y[j] = (int)(uniform() * levels) + (trial % 3) * 0.5;
		p = vk_mann_whitney_p(x, na, y, nb);
		if (!(fabs(p - brute_mann_whitney(x, na, y, nb)) <= 1e-12 * p) && !bad++)
			CHECK(0, "MWU p of %zu against %zu tied values: %.17g, the count %.17g", na, nb,
			      p, brute_mann_whitney(x, na, y, nb));
	}
	CHECK(!bad, "MWU p with ties is the brute force's in 400 random cases (%d differ)", bad);

	/*
	 * compare's fewest processes, 7, and 8 and 9, wholly apart: untied,
	 * the smallest p there is, 2 / C(na + nb, na); tied within a side,
	 * the brute force's, no more than that (1 / C where the mirror
	 * image of the split would cut a tie); and so significant. The
	 * normal approximation gave 7 against 7 with a tie 0.0021.
	 */
	for (size_t na = VK_VERDICT_GROUPS; na <= 9; na++) {
		for (size_t nb = VK_VERDICT_GROUPS; nb <= 9; nb++) {
			for (int tied = 0; tied < 2; tied++) {
				double want = 2 / binomial(na + nb, na), count;

				apart(x, na, y, nb, tied);
				p = vk_mann_whitney_p(x, na, y, nb);
				count = brute_mann_whitney(x, na, y, nb);
				CHECK(near(p, count, 1e-15) && (tied ? p <= want * (1 + 1e-12) : near(p, want, 1e-15)),
				      "MWU p of %zu against %zu apart%s is %s2/C(%zu, %zu) (%.2g)", na, nb,
				      tied ? ", tied within each," : "", tied ? "at most " : "", na + nb, na, p);
				CHECK(p < VK_COMPARE_ALPHA && vk_mann_whitney_p(y, nb, x, na) < VK_COMPARE_ALPHA,
				      "MWU: %zu against %zu apart%s is significant both ways", na, nb,
				      tied ? ", tied" : "");
			}
		}
	}

	/* Beyond the exact limit, the normal approximation: apart is still significant. */
	{
		static double big_a[1024], big_b[1024];
		static const size_t sizes[][2] = {
			{ VK_VERDICT_GROUPS, VK_MANN_WHITNEY_EXACT + 1 - VK_VERDICT_GROUPS },
			{ VK_MANN_WHITNEY_EXACT / 2, VK_MANN_WHITNEY_EXACT / 2 + 1 },
			{ VK_VERDICT_GROUPS, 1024 }, { 1024, 1024 },
		};

		for (size_t k = 0; k < ARRAY_SIZE(sizes); k++) {
			for (int tied = 0; tied < 2; tied++) {
				apart(big_a, sizes[k][0], big_b, sizes[k][1], tied);
				p = vk_mann_whitney_p(big_a, sizes[k][0], big_b, sizes[k][1]);
				CHECK(p < VK_COMPARE_ALPHA / 10, "MWU p of %zu against %zu apart%s is %.2g",
				      sizes[k][0], sizes[k][1], tied ? ", tied" : "", p);
			}
		}
	}

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

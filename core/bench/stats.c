// SPDX-License-Identifier: MIT
/*
 * The statistics bench and compare use: medians, bootstrap intervals and
 * rank tests, none assuming normal samples (stats.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench/stats.h"

/* vk_multimodal(): the smallest jump between two clusters (10%). */
#define MODE_MIN_JUMP 1.1

/* NaNs sort last, so the order stays total (qsort needs that) on any input. */
static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	if (isnan(a) || isnan(b))
		return !!isnan(a) - !!isnan(b);
	return (a > b) - (a < b);
}

void vk_sort(double *x, size_t n)
{
	qsort(x, n, sizeof(*x), cmp_double);
}

static double *sorted_copy(const double *x, size_t n)
{
	double *s = malloc(n * sizeof(*s));

	if (s) {
		memcpy(s, x, n * sizeof(*s));
		vk_sort(s, n);
	}
	return s;
}

double vk_median(double *x, size_t n)
{
	vk_sort(x, n);
	return vk_quantile_sorted(x, n, 0.5);
}

/* Hyndman and Fan's type 7 (R's and NumPy's default): rank q * (n - 1). */
double vk_quantile_sorted(const double *sorted, size_t n, double q)
{
	double h, frac;
	size_t i;

	if (n == 0 || isnan(q))
		return NAN;
	q = q < 0 ? 0 : q > 1 ? 1 : q;
	h = q * (double)(n - 1);
	i = (size_t)h;
	if (i >= n - 1)
		return sorted[n - 1];
	frac = h - (double)i;
	return sorted[i] + frac * (sorted[i + 1] - sorted[i]);
}

double vk_mean(const double *x, size_t n)
{
	double sum = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

double vk_cv_pct(const double *x, size_t n)
{
	double mean, ss = 0;

	if (n < 2)
		return 0;
	mean = vk_mean(x, n);
	/* Two passes: the sum of squares about the mean keeps its precision. */
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return sqrt(ss / (double)(n - 1)) / mean * 100;
}

/* splitmix64: tiny, fast, and the same sequence on every platform. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* One sample to resample: sorted once, with a tally of draws per index. */
struct boot {
	double *sorted;
	size_t *count;
	size_t n;
};

static int boot_init(struct boot *b, const double *x, size_t n)
{
	b->n = n;
	b->sorted = n ? sorted_copy(x, n) : NULL;
	b->count = n ? calloc(n, sizeof(*b->count)) : NULL;
	return b->sorted && b->count ? 0 : -1;
}

static void boot_free(struct boot *b)
{
	free(b->sorted);
	free(b->count);
}

/*
 * The median of one resample. Tallying the n draws per index of the
 * sorted sample yields the resample in order, so it needs no sort: the
 * median is found by walking the tally, O(n) per resample.
 */
static double resample_median(struct boot *b, uint64_t *rng)
{
	size_t lo_rank = (b->n - 1) / 2, hi_rank = b->n / 2, seen = 0, i = 0;
	double lo;

	memset(b->count, 0, b->n * sizeof(*b->count));
	/* The modulo's bias is below n / 2^64: nothing next to sampling noise. */
	for (size_t k = 0; k < b->n; k++)
		b->count[next_random(rng) % b->n]++;
	while ((seen += b->count[i]) <= lo_rank)
		i++;
	lo = b->sorted[i];
	while (seen <= hi_rank)
		seen += b->count[++i];
	return lo + 0.5 * (b->sorted[i] - lo);
}

/* The central conf interval of iters bootstrap statistics; sorts them. */
static void percentile_ci(double *stat, unsigned iters, double conf, double *lo, double *hi)
{
	double tail = (1 - conf) / 2;

	vk_sort(stat, iters);
	*lo = vk_quantile_sorted(stat, iters, tail);
	*hi = vk_quantile_sorted(stat, iters, 1 - tail);
}

void vk_bootstrap_median_ci(const double *x, size_t n, double conf, unsigned iters,
			    uint64_t seed, double *lo, double *hi)
{
	double *stat = iters ? calloc(iters, sizeof(*stat)) : NULL;
	struct boot b = { 0 };

	*lo = *hi = NAN;
	if (stat && boot_init(&b, x, n) == 0) {
		for (unsigned i = 0; i < iters; i++)
			stat[i] = resample_median(&b, &seed);
		percentile_ci(stat, iters, conf, lo, hi);
	}
	boot_free(&b);
	free(stat);
}

void vk_bootstrap_ratio_ci(const double *a, size_t na, const double *b, size_t nb,
			   double conf, unsigned iters, uint64_t seed, double *lo, double *hi)
{
	double *stat = iters ? calloc(iters, sizeof(*stat)) : NULL;
	struct boot ba = { 0 }, bb = { 0 };

	*lo = *hi = NAN;
	if (stat && boot_init(&ba, a, na) == 0 && boot_init(&bb, b, nb) == 0) {
		for (unsigned i = 0; i < iters; i++) {
			double ma = resample_median(&ba, &seed);

			stat[i] = resample_median(&bb, &seed) / ma;
		}
		percentile_ci(stat, iters, conf, lo, hi);
	}
	boot_free(&ba);
	boot_free(&bb);
	free(stat);
}

struct ranked {
	double v;
	int in_a;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	return cmp_double(&((const struct ranked *)pa)->v, &((const struct ranked *)pb)->v);
}

/* The end of the group of values tied with all[i], all sorted. */
static size_t tie_end(const struct ranked *all, size_t n, size_t i)
{
	size_t j = i + 1;

	while (j < n && all[j].v == all[i].v)
		j++;
	return j;
}

/*
 * Rank the pooled samples, ties sharing their average rank. Returns a's
 * rank sum; *ties gets sum(t^3 - t) over groups of t tied values.
 */
static double rank_sum_a(struct ranked *all, size_t n, double *ties)
{
	double sum = 0;

	qsort(all, n, sizeof(*all), cmp_ranked);
	*ties = 0;
	for (size_t i = 0, j; i < n; i = j) {
		double t;
		size_t in_a = 0;

		j = tie_end(all, n, i);
		for (size_t k = i; k < j; k++)
			in_a += all[k].in_a;
		t = (double)(j - i);
		sum += (double)(i + 1 + j) / 2 * (double)in_a;
		*ties += t * t * t - t;
	}
	return sum;
}

/*
 * Add a group of t tied values, above i others, to the counts c[k][s] of
 * the ways k a's among the values so far make 2U = s (rows of w): j of
 * them a's beat the i - k b's below and tie with the t - j b's beside.
 * Row k holds i - k b's, so a row with more than nb is dead, and a live
 * one's 2U is at most 2k(i - k). Target rows go down, so that the rows
 * read are the old ones.
 */
static void add_tie_group(double *c, size_t w, size_t na, size_t nb, size_t i, size_t t)
{
	for (size_t to = i + t < na ? i + t : na; to > 0; to--) {
		double ways = 1;

		if (i + t - to > nb)
			break;	/* fewer a's leave even more b's */
		for (size_t j = 1; j <= t && j <= to; j++) {
			size_t k = to - j, add = 2 * j * (i - k) + j * (t - j);
			const double *from = c + k * w;
			double *into = c + to * w;

			ways = ways * (double)(t - j + 1) / (double)j;	/* C(t, j) */
			if (k > i || i - k > nb)
				continue;
			for (size_t s = 0; s <= 2 * k * (i - k); s++)
				into[s + add] += ways * from[s];
		}
	}
}

/*
 * The exact two-sided p of 2U = u2, ties and all: every choice of which
 * na of the n sorted values are a's is equally likely (the permutation
 * distribution, ties at their mid-ranks), and the p is the share of
 * those whose U lies as far from its mean na * nb / 2 as u2 / 2 or
 * further. With ties U's distribution need not be symmetric. The counts
 * pass 2^53 above 56 values, where doubles round them to some 13 digits
 * at worst, far finer than any p that matters.
 */
static double mann_whitney_exact(const struct ranked *all, size_t n, size_t na, double u2)
{
	size_t nb = n - na, w = 2 * na * nb + 1;
	double *c = calloc((na + 1) * w, sizeof(*c)), mu2 = (double)(na * nb), far = 0, total = 0;

	if (!c)
		return NAN;
	c[0] = 1;
	for (size_t i = 0, j; i < n; i = j) {
		j = tie_end(all, n, i);
		add_tie_group(c, w, na, nb, i, j - i);
	}
	for (size_t s = 0; s < w; s++) {
		total += c[na * w + s];
		if (fabs((double)s - mu2) >= fabs(u2 - mu2))
			far += c[na * w + s];
	}
	free(c);
	return far / total;
}

double vk_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb)
{
	double n = (double)na + (double)nb, ra, ties, u, mu, var, z;
	struct ranked *all;

	if (na == 0 || nb == 0)
		return NAN;
	all = calloc(na + nb, sizeof(*all));
	if (!all)
		return NAN;
	for (size_t i = 0; i < na; i++)
		all[i] = (struct ranked){ a[i], 1 };
	for (size_t i = 0; i < nb; i++)
		all[na + i] = (struct ranked){ b[i], 0 };
	ra = rank_sum_a(all, na + nb, &ties);
	u = ra - (double)na * ((double)na + 1) / 2;
	if (na + nb <= VK_MANN_WHITNEY_EXACT) {
		double p = mann_whitney_exact(all, na + nb, na, 2 * u);

		free(all);
		return p;
	}
	free(all);
	/*
	 * The normal approximation, with tie and continuity corrections. Its
	 * p for two samples wholly apart falls as either grows and ties only
	 * lower it: at 7 against 122, the fewest for a verdict beyond the
	 * exact limit, it is 1e-5.
	 */
	mu = (double)na * (double)nb / 2;
	var = (double)na * (double)nb / 12 * (n + 1 - ties / (n * (n - 1)));
	if (var <= 0)
		return 1;	/* every value tied: no evidence of a difference */
	/* The continuity correction: U moves in steps of 1, the normal does not. */
	z = (fabs(u - mu) - 0.5) / sqrt(var);
	if (z <= 0)
		return 1;
	return erfc(z / sqrt(2));
}

/* A value with where it came from, to rank by magnitude. */
struct signed_value {
	double abs;
	int positive;
};

static int cmp_abs(const void *pa, const void *pb)
{
	const struct signed_value *a = pa, *b = pb;

	return (a->abs > b->abs) - (a->abs < b->abs);
}

/*
 * The exact two-sided p of W+ = w for m untied nonzero differences: each
 * of the 2^m sign patterns is equally likely, and W+'s counts come from
 * adding the ranks one at a time. Exact in doubles for m <= 30.
 */
static double signed_rank_exact(double w, size_t m)
{
	size_t top = m * (m + 1) / 2;
	double *c = calloc(top + 1, sizeof(*c)), below = 0;

	if (!c)
		return NAN;
	c[0] = 1;
	for (size_t k = 1; k <= m; k++) {
		for (size_t j = top; j >= k; j--)
			c[j] += c[j - k];
	}
	if (w > (double)top / 2)
		w = (double)top - w;
	for (size_t j = 0; j <= top && (double)j <= w; j++)
		below += c[j];
	free(c);
	below = below * 2 / ldexp(1, (int)m);
	return below < 1 ? below : 1;
}

double vk_signed_rank_p(const double *d, size_t n)
{
	struct signed_value *v = calloc(n ? n : 1, sizeof(*v));
	double w = 0, ties = 0, mu, var, z, m;
	size_t k = 0;

	if (!v)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (d[i] != 0 && isfinite(d[i]))
			v[k++] = (struct signed_value){ fabs(d[i]), d[i] > 0 };
	}
	qsort(v, k, sizeof(*v), cmp_abs);
	/* Ties share their average rank. */
	for (size_t i = 0, j; i < k; i = j) {
		double t;

		for (j = i + 1; j < k && v[j].abs == v[i].abs; j++)
			;
		t = (double)(j - i);
		ties += t * t * t - t;
		for (size_t q = i; q < j; q++)
			w += v[q].positive ? (double)(i + j + 1) / 2 : 0;
	}
	free(v);
	if (k == 0)
		return 1;
	if (ties == 0 && k <= 30)
		return signed_rank_exact(w, k);
	m = (double)k;
	mu = m * (m + 1) / 4;
	var = m * (m + 1) * (2 * m + 1) / 24 - ties / 48;
	if (var <= 0)
		return 1;
	z = (fabs(w - mu) - 0.5) / sqrt(var);
	return z <= 0 ? 1 : erfc(z / sqrt(2));
}

double vk_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb)
{
	double *d, shift;
	size_t k = 0;

	if (na == 0 || nb == 0 || na > SIZE_MAX / nb)
		return NAN;
	d = calloc(na * nb, sizeof(*d));
	if (!d)
		return NAN;
	for (size_t i = 0; i < na; i++) {
		for (size_t j = 0; j < nb; j++)
			d[k++] = b[j] - a[i];
	}
	shift = vk_median(d, k);
	free(d);
	return shift;
}

/*
 * Only splits with a fifth of the samples on each side count, so a few
 * outliers (a preemption, a cache miss) never make a sample multimodal;
 * of those, the biggest jump decides.
 */
int vk_multimodal(const double *x, size_t n)
{
	size_t min_side = (n + 4) / 5;	/* 20%, rounded up */
	double *s, jump = 0;

	if (n < 2 || !(s = sorted_copy(x, n)))
		return 0;
	/* A split after s[i] leaves i + 1 samples below and n - i - 1 above. */
	for (size_t i = min_side - 1; i + min_side < n; i++) {
		if (s[i] > 0 && s[i + 1] / s[i] > jump)
			jump = s[i + 1] / s[i];
	}
	free(s);
	return jump > MODE_MIN_JUMP;
}

// SPDX-License-Identifier: MIT
/* The tests of randomness.h, each on the whole buffer. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/verify/randomness.h"

/* The normal deviate that a two-sided test passes with 1 - ALPHA. */
static double z_two_sided(void)
{
	double lo = 0, hi = 40;

	while (hi - lo > 1e-9) {
		double mid = (lo + hi) / 2;

		if (erfc(mid / sqrt(2)) > VK_RANDOMNESS_ALPHA)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Wilson-Hilferty: the chi-square with k degrees of freedom at deviate z. */
static double chi2_at(double k, double z)
{
	double a = 2 / (9 * k), c = 1 - a + z * sqrt(a);

	return k * c * c * c;
}

static int frequencies(const unsigned char *buf, size_t n, double z, char *why, size_t len)
{
	size_t count[256] = { 0 };
	double e = n / 256.0, chi2 = 0, lo = chi2_at(255, -z), hi = chi2_at(255, z);

	for (size_t i = 0; i < n; i++)
		count[buf[i]]++;
	for (int b = 0; b < 256; b++)
		chi2 += (count[b] - e) * (count[b] - e) / e;
	if (chi2 >= lo && chi2 <= hi)
		return 0;
	/* Too even is as telling as too uneven: a counter is perfectly even. */
	snprintf(why, len, "byte frequencies: chi-square %.1f with 255 degrees of freedom, outside %.1f-%.1f",
		 chi2, lo, hi);
	return -1;
}

static size_t ones(const unsigned char *buf, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += __builtin_popcount(buf[i]);
	return k;
}

static int monobit(const unsigned char *buf, size_t n, double z, char *why, size_t len)
{
	double bits = 8.0 * n, s = fabs(2.0 * ones(buf, n) - bits) / sqrt(bits);

	if (s <= z)
		return 0;
	snprintf(why, len, "monobit: %zu ones in %.0f bits, %.1f standard deviations from half",
		 ones(buf, n), bits, s);
	return -1;
}

/* Runs of equal bits, least significant bit of each byte first. */
static int runs(const unsigned char *buf, size_t n, double z, char *why, size_t len)
{
	double bits = 8.0 * n, pi = ones(buf, n) / bits, e, sd, s;
	size_t v = 1;

	for (size_t i = 0; i < n; i++) {
		v += __builtin_popcount((buf[i] ^ (buf[i] >> 1)) & 0x7f);
		if (i + 1 < n)
			v += (buf[i] >> 7) ^ (buf[i + 1] & 1);
	}
	e = 2 * bits * pi * (1 - pi);
	sd = 2 * sqrt(2 * bits) * pi * (1 - pi);
	s = sd > 0 ? fabs(v - e) / sd : INFINITY;
	if (s <= z)
		return 0;
	snprintf(why, len, "runs: %zu runs of equal bits where %.0f were expected, %.1f standard deviations off",
		 v, e, s);
	return -1;
}

static int block_cmp(const void *a, const void *b)
{
	return memcmp(a, b, 16);
}

/* Any two equal 16-byte blocks: a source that repeats itself. */
static int repeats(const unsigned char *buf, size_t n, char *why, size_t len)
{
	unsigned char *blocks = malloc(n);
	int found = 0;

	if (!blocks) {
		snprintf(why, len, "not tested: vdsokit could not allocate %zu bytes", n);
		return VK_RANDOMNESS_UNJUDGED;
	}
	memcpy(blocks, buf, n);
	qsort(blocks, n / 16, 16, block_cmp);
	for (size_t i = 16; i < n && !found; i += 16)
		found = !memcmp(blocks + i - 16, blocks + i, 16);
	free(blocks);
	if (!found)
		return 0;
	snprintf(why, len, "repeats: two of the %zu 16-byte blocks are equal", n / 16);
	return -1;
}

int vk_randomness_judge(const unsigned char *buf, size_t n, char *why, size_t len)
{
	double z = z_two_sided();

	if (frequencies(buf, n, z, why, len) || monobit(buf, n, z, why, len) ||
	    runs(buf, n, z, why, len))
		return -1;
	return repeats(buf, n, why, len);
}

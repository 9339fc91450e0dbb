// SPDX-License-Identifier: MIT
/*
 * verify's randomness rule on planted sources: a good generator (a fixed
 * seed, so the run is the same every time) passes; a stuck bit, repeated
 * blocks and counters each fail, named by the test that caught them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/verify/randomness.h"
#include "tests/unit/test.h"

#define N VK_RANDOMNESS_BYTES

/* ASan's allocator reserves its own address space and aborts where
 * malloc() would return NULL: the no-memory check is not for it. */
#if defined(__SANITIZE_ADDRESS__)
#define ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASAN 1
#endif
#endif

/* splitmix64: good enough to pass every test here, and reproducible. */
static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void good(unsigned char *buf, size_t n, uint64_t seed)
{
	for (size_t i = 0; i < n; i += 8) {
		uint64_t v = next(&seed);

		memcpy(buf + i, &v, 8);
	}
}

static void judged(const unsigned char *buf, const char *source, const char *want)
{
	char why[256] = "";
	int r = vk_randomness_judge(buf, N, why, sizeof(why));

	if (!want)
		CHECK(r == 0, "%s passes (%s)", source, why);
	else
		CHECK(r == -1 && !strncmp(why, want, strlen(want)), "%s fails: %s", source, why);
}

/* With no room for the repeats test's copy, a good source is not judged
 * at all: vdsokit's own error, never the source's failure (issue 47). */
static void no_memory(unsigned char *buf)
{
	struct rlimit old, low;
	unsigned long pages = 0;
	char why[256] = "";
	FILE *f;
	int r;

#ifdef ASAN
	SKIP("an ASan build", "a judge with no memory is vdsokit's error");
	return;
#endif
	f = fopen("/proc/self/statm", "r");
	if (!f || fscanf(f, "%lu", &pages) != 1 || getrlimit(RLIMIT_AS, &old)) {
		SKIP("no /proc/self/statm or RLIMIT_AS", "a judge with no memory is vdsokit's error");
		if (f)
			fclose(f);
		return;
	}
	fclose(f);
	good(buf, N, 12);
	low = old;
	low.rlim_cur = pages * sysconf(_SC_PAGESIZE) + N / 4;
	if (setrlimit(RLIMIT_AS, &low)) {
		SKIP("setrlimit(RLIMIT_AS) refused", "a judge with no memory is vdsokit's error");
		return;
	}
	r = vk_randomness_judge(buf, N, why, sizeof(why));
	setrlimit(RLIMIT_AS, &old);
	CHECK(r == VK_RANDOMNESS_UNJUDGED && !strncmp(why, "not tested: vdsokit could not allocate", 38),
	      "a judge with no memory for its copy is vdsokit's error, not a fail: %d, %s", r, why);
}

int main(void)
{
	unsigned char *buf = malloc(N);

	if (!buf)
		return 1;
	for (uint64_t seed = 1; seed <= 4; seed++) {
		good(buf, N, seed);
		judged(buf, "a good source", NULL);
	}

	good(buf, N, 5);
	for (size_t i = 0; i < N; i++)
		buf[i] &= 0x7f;
	judged(buf, "every top bit clear", "byte frequencies");

	/* One bit of 8 Mi stuck: byte frequencies see it first. */
	good(buf, N, 6);
	for (size_t i = 0; i < N; i += 4)
		buf[i] |= 0x10;
	judged(buf, "bit 4 of every fourth byte stuck at 1", "byte frequencies");

	good(buf, N, 7);
	for (size_t i = 4096; i < N; i++)
		buf[i] = buf[i % 4096];
	judged(buf, "a 4 KiB block repeated", "byte frequencies");

	/* Half of it again doubles the chi-square. */
	good(buf, N, 8);
	memcpy(buf + N / 2, buf, N / 2);
	judged(buf, "its first half again", "byte frequencies");

	/* 4 KiB again, far apart: only the repeats test can see it. */
	good(buf, N, 9);
	memcpy(buf + N - 4096 + 8, buf + 8, 4096 - 8);
	judged(buf, "4 KiB drawn twice, misaligned by 8 bytes", "repeats");

	/* Each byte's low bit copies the bit before it: even in bytes and
	 * ones, too few runs. */
	good(buf, N, 11);
	for (size_t i = 1; i < N; i++)
		buf[i] = (buf[i] & 0xfe) | buf[i - 1] >> 7;
	judged(buf, "a low bit that copies the bit before it", "runs");

	for (size_t i = 0; i < N; i++)
		buf[i] = (unsigned char)i;
	judged(buf, "a byte counter", "byte frequencies");

	for (uint32_t i = 0; i < N / 4; i++)
		memcpy(buf + 4 * i, &i, 4);
	judged(buf, "a 32-bit counter", "byte frequencies");

	/* Even in bytes, ones and runs: (a counter of 16-byte blocks). */
	good(buf, N, 10);
	for (size_t i = 16; i < N; i += 16)
		memcpy(buf + i, buf, 16);
	judged(buf, "one good 16-byte block repeated", "byte frequencies");

	no_memory(buf);
	free(buf);
	return test_exit();
}

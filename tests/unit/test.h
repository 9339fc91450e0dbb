/* SPDX-License-Identifier: MIT */
/*
 * A minimal TAP-style checker for the C unit tests: each CHECK prints one
 * "ok - ..." or "not ok - ..." line for tests/run.sh to count, and
 * test_exit() makes the program fail if any check did.
 */
#ifndef VK_TEST_H
#define VK_TEST_H

#include <stdio.h>

static int test_failures;

#define CHECK(cond, ...)                                                        \
	do {                                                                    \
		int ok_ = !!(cond);                                             \
		printf("%s - ", ok_ ? "ok" : "not ok");                         \
		printf(__VA_ARGS__);                                            \
		printf("\n");                                                   \
		if (!ok_) {                                                     \
			printf("#   failed: %s (%s:%d)\n", #cond, __FILE__,     \
			       __LINE__);                                       \
			test_failures++;                                        \
		}                                                               \
	} while (0)

#define SKIP(reason, ...)                                                       \
	do {                                                                    \
		printf("ok - ");                                                \
		printf(__VA_ARGS__);                                            \
		printf(" # SKIP %s\n", reason);                                 \
	} while (0)

static inline int test_exit(void)
{
	fflush(stdout);
	return test_failures ? 1 : 0;
}

#endif /* VK_TEST_H */

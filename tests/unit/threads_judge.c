// SPDX-License-Identifier: MIT
/*
 * The threads rule's judgement of what a run could detect, from planted
 * hand-off figures: no thread runs and no clock is read. A pair's figure
 * is the tightest interval in which one thread read after a reading of
 * the other's that it saw; the run passes only where every ordered pair
 * came within VK_THREADS_SKEW.
 */
#include <stdint.h>
#include <string.h>

#include "tests/unit/test.h"
#include "core/verify/verify_shared.h"

#define NEVER INT64_MAX
#define US 1000

static enum vk_status judge(const int64_t *tightest, int n, char *detail)
{
	return vk_threads_judge(tightest, n, detail, 256);
}

int main(void)
{
	char d[256];
	/* [to][from]; the diagonal is a thread after itself: never counted. */
	const int64_t close[] = { NEVER, 120, 80, NEVER };
	const int64_t far[] = { NEVER, 150, 180 * US, NEVER };
	const int64_t one_way[] = { NEVER, 50, NEVER, NEVER };
	const int64_t at_bound[] = { NEVER, 5, VK_THREADS_SKEW, NEVER };
	const int64_t under_bound[] = { NEVER, 5, VK_THREADS_SKEW - 1, NEVER };
	const int64_t three[] = { NEVER, 100, 200,
				  300, NEVER, 42 * US,
				  500, 600, NEVER };
	int from = -1, to = -1;

	CHECK(judge(close, 2, d) == VK_PASS && strstr(d, "the tightest hand-off was 0.1 us") &&
	      strstr(d, "a skew over that was tested"), "hand-offs of 0.1 us pass, and say so: %s", d);
	CHECK(judge(far, 2, d) == VK_SKIP &&
	      strstr(d, "cross-CPU: the tightest hand-off was 180.0 us (thread 1 after thread 0") &&
	      strstr(d, "a skew under that was not tested"),
	      "one direction only as close as 180 us is a SKIP with the figure: %s", d);
	CHECK(judge(one_way, 2, d) == VK_SKIP && strstr(d, "thread 1 never read right after") &&
	      strstr(d, "thread 0's"), "a direction never handed off is a SKIP naming it: %s", d);
	CHECK(judge(at_bound, 2, d) == VK_SKIP, "a hand-off of exactly the bound is a SKIP: %s", d);
	CHECK(judge(under_bound, 2, d) == VK_PASS, "a hand-off just under the bound passes: %s", d);
	CHECK(vk_threads_reach(three, 3, &from, &to) == 42 * US && from == 2 && to == 1,
	      "of three threads, the loosest pair is named (thread %d after %d)", to, from);
	CHECK(judge(three, 3, d) == VK_SKIP && strstr(d, "of 3 threads' pairs"),
	      "one loose pair of three makes the run a SKIP: %s", d);
	return test_exit();
}

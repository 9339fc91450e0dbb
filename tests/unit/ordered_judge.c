// SPDX-License-Identifier: MIT
/*
 * The ordered rule's judgement of what a run could detect, from planted
 * brackets: no clock is read. A bracket is the time between the two
 * syscall readings around the path's; a path off by less than the
 * tightest one cannot be seen, so a run passes only where it came
 * within VK_ORDERED_BOUND.
 */
#include <stdint.h>
#include <string.h>

#include "tests/unit/test.h"
#include "core/verify/verify_shared.h"

static enum vk_status judge(int64_t tightest, char *detail)
{
	return vk_ordered_judge(tightest, detail, 256);
}

int main(void)
{
	char d[256];

	CHECK(judge(1232, d) == VK_PASS &&
	      !strcmp(d, "the tightest bracket was 1232 ns: an error over that was tested"),
	      "a bracket of 1.2 us passes, and says so: %s", d);
	CHECK(judge(0, d) == VK_PASS && strstr(d, "was 0 ns"),
	      "a coarse clock's bracket of 0 ns passes: %s", d);
	CHECK(judge(180000, d) == VK_SKIP &&
	      !strcmp(d, "the tightest bracket was 180000 ns: an error under that was not tested"),
	      "a run whose brackets were all 180 us wide is a SKIP with the figure: %s", d);
	CHECK(judge(VK_ORDERED_BOUND, d) == VK_SKIP, "a bracket of exactly the bound is a SKIP: %s",
	      d);
	CHECK(judge(VK_ORDERED_BOUND - 1, d) == VK_PASS, "a bracket just under the bound passes: %s",
	      d);
	CHECK(judge(INT64_MAX, d) == VK_SKIP && strstr(d, "no reading was bracketed"),
	      "no bracket at all is a SKIP: %s", d);
	return test_exit();
}

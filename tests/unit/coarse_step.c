// SPDX-License-Identifier: MIT
/*
 * coarse-step's judgement, on planted steps of a coarse clock of 4 ms
 * ticks: no clock is read. The kernel moves a coarse clock by whole
 * ticks, except by part of one when it changes clocksource or is set
 * (timekeeping_forward_now()); it promises only that MONOTONIC_COARSE
 * never goes back. A part of a tick is a note, never a failure.
 */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "tests/unit/test.h"
#include "core/verify/verify_shared.h"

#define RES 4000000LL		/* HZ=250 */
#define N 31

static enum vk_status judge(int id, int64_t res, const int64_t *steps, int n, char *d)
{
	return vk_coarse_steps_judge(id, res, steps, n, d, 512);
}

static void ticks(int64_t *steps, int64_t each)
{
	for (int i = 0; i < N; i++)
		steps[i] = each;
}

int main(void)
{
	int64_t steps[N];
	char d[512];

	ticks(steps, RES);
	CHECK(judge(CLOCK_MONOTONIC_COARSE, RES, steps, N, d) == VK_PASS && !d[0],
	      "whole ticks pass without a note");
	steps[7] = 2 * RES;
	CHECK(judge(CLOCK_MONOTONIC_COARSE, RES, steps, N, d) == VK_PASS && !d[0],
	      "a late tick (two at once) passes without a note");

	/* The 6.12 tinyconfig guest of issue 22, switching tsc-early to tsc. */
	steps[7] = 3772536;
	CHECK(judge(CLOCK_REALTIME_COARSE, RES, steps, N, d) == VK_PASS &&
	      strstr(d, "note: clock 5 advanced by 3772536 ns, not a whole number of its 4000000 ns resolution (1 of 31 steps)"),
	      "part of a tick once, as at a clocksource switch, is a note: %s", d);
	steps[7] = 8251320;
	CHECK(judge(CLOCK_MONOTONIC_COARSE, RES, steps, N, d) == VK_PASS &&
	      strstr(d, "note: clock 6 advanced by 8251320 ns"),
	      "two ticks and a part is a note: %s", d);
	steps[9] = 4000400;
	CHECK(judge(CLOCK_MONOTONIC_COARSE, RES, steps, N, d) == VK_PASS && strstr(d, "(1 of 31 steps)"),
	      "a tick 100 ppm long, as NTP makes it, counts as whole: %s", d);

	ticks(steps, 5 * RES);
	CHECK(judge(CLOCK_MONOTONIC_COARSE, RES, steps, N, d) == VK_PASS &&
	      strstr(d, "note: clock 6 advanced by 5 resolutions"),
	      "steps of five resolutions at the least are a note: %s", d);

	ticks(steps, RES);
	steps[3] = -RES;
	CHECK(judge(CLOCK_MONOTONIC_COARSE, RES, steps, N, d) == VK_FAIL &&
	      strstr(d, "clock 6 went back by 4000000 ns"), "MONOTONIC_COARSE going back fails: %s", d);
	CHECK(judge(CLOCK_REALTIME_COARSE, RES, steps, N, d) == VK_PASS && strstr(d, "note:"),
	      "REALTIME_COARSE going back, as when set, is a note: %s", d);

	CHECK(judge(CLOCK_MONOTONIC_COARSE, 0, steps, N, d) == VK_FAIL &&
	      strstr(d, "resolution of 0 ns"), "a resolution of 0 fails: %s", d);
	CHECK(judge(CLOCK_MONOTONIC_COARSE, RES, steps, 0, d) == VK_SKIP &&
	      strstr(d, "did not advance twice"), "no step seen is a SKIP: %s", d);
	return test_exit();
}

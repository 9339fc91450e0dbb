// SPDX-License-Identifier: MIT
/*
 * The watchdog of vk_isolate: a child that has not had its time on a CPU
 * (a loaded machine's, here one that waits on nothing) is not hung at its
 * limit, and one that spins through it is. Its rule, on planted figures:
 * in a virtual machine whose host starves it, the CPU time charged to a
 * child is scaled down by the slowdown the watchdog's yardstick saw.
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "core/base/isolate.h"
#include "tests/unit/test.h"

static void wait_then_answer(void *ctx, int fd)
{
	struct timespec ts = { 1, 500000000 };

	(void)ctx;
	nanosleep(&ts, NULL);
	vk_write_all(fd, "done", 4);
}

static void spin(void *ctx, int fd)
{
	(void)ctx;
	(void)fd;
	for (volatile unsigned long i = 0;; i++)
		;
}

static void rule(void)
{
	CHECK(vk_isolate_hung(1, 1, 1, 1), "rule: 1 s on a CPU of a 1 s limit is hung");
	CHECK(!vk_isolate_hung(0.99, 9.9, 1, 1), "rule: 0.99 s on a CPU in 9.9 s is not");
	CHECK(vk_isolate_hung(0.1, 10, 1, 1), "rule: 10 times the limit on the clock is, whatever it ran");
	CHECK(!vk_isolate_hung(1.2, 1.2, 1, 8),
	      "rule: starved (the yardstick 8 times slower), 1.2 s charged in 1.2 s is not hung");
	CHECK(vk_isolate_hung(8, 8.5, 1, 8), "rule: starved, a child charged its 8 s is hung");
	CHECK(vk_isolate_hung(0.3, 10, 1, 40), "rule: starved past the clock's 10 times, hung all the same");
	CHECK(vk_isolate_hung(1, 1, 1, 0.5), "rule: a yardstick faster than its best scales nothing");
}

int main(void)
{
	struct vk_isolated out;
	double start;

	rule();

	CHECK(vk_isolate(wait_then_answer, NULL, 1, &out) == 0 && !out.timed_out &&
		      out.len == 4,
	      "isolate: a child off the CPU 1.5 s answers past its 1 s limit, not hung");
	vk_isolated_free(&out);
	start = vk_monotonic();
	CHECK(vk_isolate(spin, NULL, 0.2, &out) == 0 && out.timed_out,
	      "isolate: a child spinning through its 0.2 s of CPU is hung");
	printf("# the spinning child was ended after %.2f s on the clock\n", vk_monotonic() - start);
	vk_isolated_free(&out);
	return test_exit();
}

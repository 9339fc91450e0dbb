// SPDX-License-Identifier: MIT
/*
 * The watchdog of vk_isolate: a child that has not had its time on a CPU
 * (a loaded machine's, here one that waits on nothing) is not hung at its
 * limit, and one that spins through it is.
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

int main(void)
{
	struct vk_isolated out;
	double start;

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

// SPDX-License-Identifier: MIT
/*
 * What bench and compare's sides start from: the cases the API names
 * give, and this process pinned to its CPU with the timer calibrated.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "core/base/api.h"
#include "core/call/targets.h"
#include "core/benchrun/benchrun.h"

static void add_case(struct vk_bench_case *cs, size_t *n, const char *name, enum vk_func f,
		     int clock)
{
	/* An API named twice, or by its name and its id, is one row. */
	for (size_t i = 0; i < *n; i++) {
		if (cs[i].func == f && cs[i].clock == clock)
			return;
	}
	if (*n >= VK_BENCH_MAX_CASES)
		return;
	snprintf(cs[*n].api, sizeof(cs[*n].api), "%s", name);
	cs[*n].func = f;
	cs[*n].clock = clock;
	(*n)++;
}

/* Every row of the API table for this ABI's class; a path that lacks one
 * is reported as skipped. */
static void add_rows(struct vk_bench_case *cs, size_t *n, int only_func)
{
	for_each_api(a) {
		if (only_func >= 0 && a->func != (enum vk_func)only_func)
			continue;
		if (vk_api_applies(a, sizeof(void *) == 8))
			add_case(cs, n, a->name, a->func, a->clock);
	}
}

static int add_arg(const char *name, struct vk_bench_case *cs, size_t *n)
{
	const struct vk_api *a = vk_api_find(name);
	struct vk_clock c;
	enum vk_func f;

	if (a) {
		add_case(cs, n, a->name, a->func, a->clock);
		return 0;
	}
	for (f = 0; f < VK_NFUNCS; f++) {
		if (!strcmp(name, vk_funcs[f].name)) {
			add_rows(cs, n, f);
			return 0;
		}
	}
	if (vk_clock_api_parse(name, &f, &c) == 0) {
		add_case(cs, n, name, f, c.id);
		return 0;
	}
	return -1;
}

int vk_bench_cases(int argc, char *const *argv, struct vk_bench_case *cases, size_t *n,
		   const char **bad)
{
	*n = 0;
	for (int i = 0; i < argc; i++) {
		if (add_arg(argv[i], cases, n)) {
			*bad = argv[i];
			return -1;
		}
	}
	if (!argc)
		add_rows(cases, n, -1);
	return 0;
}

enum vk_measure_end vk_bench_setup(long *cpu, struct vk_timer *timer, char *err, size_t len)
{
	cpu_set_t set, mine;

	if (*cpu < 0)
		*cpu = sched_getcpu() < 0 ? 0 : sched_getcpu();
	if (*cpu >= CPU_SETSIZE ||
	    (!sched_getaffinity(0, sizeof(mine), &mine) && !CPU_ISSET(*cpu, &mine))) {
		snprintf(err, len, "cannot run on CPU %ld (not in this process's CPU set)", *cpu);
		return VK_MEASURE_REFUSED;
	}
	CPU_ZERO(&set);
	CPU_SET(*cpu, &set);
	/* A sandbox may refuse the call itself: vdsokit's own error, not the CPU's. */
	if (sched_setaffinity(0, sizeof(set), &set)) {
		snprintf(err, len, "vdsokit's own error: cannot pin itself to CPU %ld: "
			 "sched_setaffinity() failed: %s", *cpu, strerror(errno));
		return VK_MEASURE_NO_PIN;
	}
	if (vk_timer_init(timer)) {
		snprintf(err, len, "the %s counter's rate is not stable; cannot time calls",
			 timer->name);
		return VK_MEASURE_NO_TIMER;
	}
	return VK_MEASURED;
}

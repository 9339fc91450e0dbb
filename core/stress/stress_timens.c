// SPDX-License-Identifier: MIT
/*
 * stress's time namespace fault: in the middle of the run, a child of the
 * fault thread enters a new time namespace with MONOTONIC and BOOTTIME
 * offset, so its vDSO reads through the namespace's data page, and reads
 * every clock on every path there while the readers go on outside. Each
 * read must lie between the namespace's syscall reads around it, and,
 * less its clock's offset, between the fault thread's syscall reads of
 * the clock outside before the child was made and after it ended.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/base/api.h"
#include "core/stress/stress.h"
#include "core/stress/stress_faults.h"
#include "core/timens/timens.h"

#define NSEC 1000000000LL
#define ROUNDS 1000

/* Offsets far from anything the clocks read outside. */
static const struct vk_timens_set set = { "stress", 100000 * NSEC, 200000 * NSEC };

/* What the child saw, written back to the fault thread. */
struct seen {
	unsigned long long calls[VK_NPATHS];
	int64_t lo[VK_NPATHS][VK_STRESS_MAX_CLOCKS], hi[VK_NPATHS][VK_STRESS_MAX_CLOCKS];
	char first[160];	/* the first read out of order or back */
};

/* The namespace's offset of a clock, ns. */
static int64_t offset(int clock)
{
	if (clock == CLOCK_MONOTONIC || clock == CLOCK_MONOTONIC_RAW ||
	    clock == CLOCK_MONOTONIC_COARSE)
		return set.mono_ns;
	if (clock == CLOCK_BOOTTIME || clock == CLOCK_BOOTTIME_ALARM)
		return set.boot_ns;
	return 0;
}

static int64_t ns_of(const struct vk_kts *t)
{
	return (int64_t)t->sec * NSEC + t->nsec;
}

/* One read through path p inside, judged by the syscall's around it. */
static void read_inside(const struct vk_stress *st, int p, int ci, int64_t *prev,
			struct seen *s)
{
	vk_clock_fn sys = st->cs->fn[VK_PATH_SYSCALL][VK_FN_CLOCK_GETTIME].clock;
	int clock = st->clocks[ci];
	struct vk_kts a, b, d;
	int64_t v;
	int bad;

	sys(clock, &a);
	if (st->cs->fn[p][VK_FN_CLOCK_GETTIME].clock(clock, &b)) {
		if (!s->first[0])
			snprintf(s->first, sizeof(s->first), "%s %s failed in the namespace",
				 vk_path_name(p), vk_clock_name(clock));
		return;
	}
	sys(clock, &d);
	v = ns_of(&b);
	s->calls[p]++;
	bad = vk_stress_judge(clock, *prev, ns_of(&a), v, ns_of(&d), 1, 0);
	if ((bad & VK_STRESS_BACK) && !s->first[0])
		snprintf(s->first, sizeof(s->first), "%s %s stepped back in the namespace (%lld -> %lld)",
			 vk_path_name(p), vk_clock_name(clock), (long long)*prev, (long long)v);
	if (bad && !s->first[0])
		snprintf(s->first, sizeof(s->first),
			 "%s %s read %lld ns in the namespace, not between the syscall's %lld and %lld",
			 vk_path_name(p), vk_clock_name(clock), (long long)v, (long long)ns_of(&a),
			 (long long)ns_of(&d));
	*prev = v;
	v -= offset(clock);
	if (v < s->lo[p][ci])
		s->lo[p][ci] = v;
	if (v > s->hi[p][ci])
		s->hi[p][ci] = v;
}

/* In the namespace: every clock on every path, ROUNDS times. */
static void inside(void *ctx, int fd)
{
	const struct vk_stress *st = ctx;
	static struct seen s;
	int64_t prev[VK_NPATHS][VK_STRESS_MAX_CLOCKS] = { { 0 } };

	for (int p = 0; p < VK_NPATHS; p++)
		for (int ci = 0; ci < st->nclocks; ci++) {
			s.lo[p][ci] = INT64_MAX;
			s.hi[p][ci] = INT64_MIN;
		}
	for (int r = 0; r < ROUNDS; r++)
		for (int p = 0; p < VK_NPATHS; p++)
			for (int ci = 0; ci < st->nclocks; ci++)
				if ((st->paths & VK_PATH_BIT(p)) && st->cs->fn[p][VK_FN_CLOCK_GETTIME].p)
					read_inside(st, p, ci, &prev[p][ci], &s);
	vk_write_all(fd, &s, sizeof(s));
}

/* The syscall's reading of every clock, outside. */
static void outside(const struct vk_stress *st, int64_t *t)
{
	vk_clock_fn sys = st->cs->fn[VK_PATH_SYSCALL][VK_FN_CLOCK_GETTIME].clock;
	struct vk_kts k;

	for (int ci = 0; ci < st->nclocks; ci++) {
		sys(st->clocks[ci], &k);
		t[ci] = ns_of(&k);
	}
}

/* The first read that, less its offset, lies outside [before, after]. */
static int offsets_wrong(const struct vk_stress *st, const struct seen *s, const int64_t *before,
			 const int64_t *after, char *err, size_t len)
{
	for (int p = 0; p < VK_NPATHS; p++)
		for (int ci = 0; s->calls[p] && ci < st->nclocks; ci++) {
			if (s->lo[p][ci] >= before[ci] && s->hi[p][ci] <= after[ci])
				continue;
			snprintf(err, len, "%s %s read %lld to %lld ns in the namespace, less its offset, not between the syscall's %lld and %lld outside",
				 vk_path_name(p), vk_clock_name(st->clocks[ci]), (long long)s->lo[p][ci],
				 (long long)s->hi[p][ci], (long long)before[ci], (long long)after[ci]);
			return 1;
		}
	return 0;
}

int vk_stress_timens(const struct vk_stress *st, char *err, size_t len)
{
	int64_t before[VK_STRESS_MAX_CLOCKS], after[VK_STRESS_MAX_CLOCKS];
	const char *no = vk_timens_unsupported();
	unsigned long long calls = 0;
	struct vk_isolated out;
	struct seen s;
	char how[96];
	int e;

	if (no) {
		snprintf(err, len, "%s", no);
		return -1;
	}
	outside(st, before);
	if (vk_timens_isolate(&set, inside, (void *)st, VK_STRESS_HANG_SECONDS, &out, err, len, &e))
		return -1;
	outside(st, after);
	if (out.len != sizeof(s)) {
		vk_isolated_describe(&out, VK_STRESS_HANG_SECONDS, how, sizeof(how));
		snprintf(err, len, "the child in the namespace %s", how);
		vk_isolated_free(&out);
		return 1;
	}
	memcpy(&s, out.data, sizeof(s));
	vk_isolated_free(&out);
	if (s.first[0]) {
		snprintf(err, len, "%s", s.first);
		return 1;
	}
	if (offsets_wrong(st, &s, before, after, err, len))
		return 1;
	for (int p = 0; p < VK_NPATHS; p++)
		calls += s.calls[p];
	snprintf(err, len, "in a namespace of offsets +%lld s, +%lld s: %llu reads, each right",
		 (long long)(set.mono_ns / NSEC), (long long)(set.boot_ns / NSEC), calls);
	return 0;
}

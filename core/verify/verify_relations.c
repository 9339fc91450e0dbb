// SPDX-License-Identifier: MIT
/* verify's checks of how clocks relate to each other, on one path. */
#include <stdio.h>
#include <sys/timex.h>

#include "core/base/sysinfo.h"
#include "core/verify/verify_shared.h"

#define RELATION_SHARE 0.1	/* of the budget, split among the relations */
#define ROUND 256		/* readings between looks at the clock */

struct relation {
	struct vk_verify *v;
	vk_clock_fn fn;
	int t64;
	double deadline;
	const char *path;
};

static int has_clock(const struct vk_target *t, int id)
{
	for (int i = 0; i < t->nclocks; i++) {
		if (t->clocks[i].id == id)
			return 1;
	}
	return 0;
}

static int64_t read_ns(const struct relation *rel, int id, int *err)
{
	struct vk_ts ts;

	*err |= vk_clock_call(rel->fn, rel->t64, id, &ts);
	return vk_ts_ns(&ts);
}

/* A rule none of whose rounds read every clock compared nothing: it did
 * not look, so it cannot pass. The failing reads are the clocks' own
 * checks' to judge. */
static void unread(const struct relation *rel, struct vk_result *r, unsigned long compared)
{
	if (!compared && r->status == VK_PASS)
		vk_result_skip(r, "not compared: every round had a read through %s that failed",
			       rel->path);
}

static struct vk_result *add(struct relation *rel, enum vk_func f, int id, enum vk_path p,
			     const char *rule)
{
	struct vk_clock c = { .id = id };
	char api[40];

	snprintf(c.name, sizeof(c.name), "%s", vk_clock_name(id));
	vk_clock_api(api, sizeof(api), f, &c);
	rel->deadline = vk_monotonic() + rel->v->seconds * RELATION_SHARE / 4;
	return vk_results_add(rel->v->rs, api, p, rule);
}

/*
 * BOOTTIME = MONOTONIC + time suspended, each plus its time namespace
 * offset: read after a MONOTONIC reading, BOOTTIME is at least that
 * reading plus the difference of the offsets.
 */
static void boottime(struct relation *rel, struct vk_result *r)
{
	struct vk_sysinfo si;
	unsigned long compared = 0;
	int64_t gap;

	vk_sysinfo_read(&si);
	gap = (si.boot_offset[0] - si.mono_offset[0]) * 1000000000 +
	      (si.boot_offset[1] - si.mono_offset[1]);
	do {
		for (int i = 0; i < ROUND; i++) {
			int err = 0;
			int64_t m = read_ns(rel, CLOCK_MONOTONIC, &err);
			int64_t b = read_ns(rel, CLOCK_BOOTTIME, &err);

			compared += !err;
			if (!err && b - m < gap)
				vk_result_fail(rel->v->rs, r, "%s read BOOTTIME %lld ns after MONOTONIC %lld ns: %lld ns behind (offsets allow %lld)",
					       rel->path, (long long)b, (long long)m,
					       (long long)(m - b), (long long)-gap);
		}
		r->calls += 2 * ROUND;
	} while (vk_monotonic() < rel->deadline);
	unread(rel, r, compared);
}

static void tai_offset(struct relation *rel, struct vk_result *r)
{
	struct timex tx = { 0 };
	unsigned long compared = 0;
	int64_t off;

	if (adjtimex(&tx) < 0) {
		vk_result_skip(r, "adjtimex() does not give the TAI offset");
		return;
	}
	off = (int64_t)tx.tai * 1000000000;
	do {
		for (int i = 0; i < ROUND; i++) {
			int err = 0;
			int64_t r1 = read_ns(rel, CLOCK_REALTIME, &err);
			int64_t t = read_ns(rel, CLOCK_TAI, &err);
			int64_t r2 = read_ns(rel, CLOCK_REALTIME, &err);

			compared += !err;
			if (!err && (t < r1 + off || t > r2 + off))
				vk_result_fail(rel->v->rs, r, "%s read REALTIME %lld, TAI %lld, REALTIME %lld ns; the TAI offset is %d s",
					       rel->path, (long long)r1, (long long)t,
					       (long long)r2, tx.tai);
		}
		r->calls += 3 * ROUND;
	} while (vk_monotonic() < rel->deadline);
	unread(rel, r, compared);
}

/*
 * A coarse clock is its fine clock as of the kernel's last timekeeping
 * update: never ahead of a fine reading taken after it, and never behind
 * the kernel's own coarse clock read before it through the syscall, as
 * the kernel updates the vDSO's copy before its own. How far behind the
 * fine clock it falls is no test of the vDSO: it is how late the tick
 * ran, unbounded in a busy VM (under qemu, Debian's arm64 and s390x
 * kernels' own syscall lagged more than two ticks).
 */
static void coarse_bound(struct relation *rel, struct vk_result *r, int coarse, int fine)
{
	enum vk_func gettime = rel->t64 ? VK_FN_CLOCK_GETTIME64 : VK_FN_CLOCK_GETTIME;
	struct relation sys = *rel;
	unsigned long compared = 0;

	sys.fn = rel->v->cs->fn[VK_PATH_SYSCALL][gettime].clock;
	if (!sys.fn) {
		vk_result_skip(r, "no syscall reads clock %d", coarse);
		return;
	}
	do {
		for (int i = 0; i < ROUND; i++) {
			int err = 0;
			int64_t k = read_ns(&sys, coarse, &err);
			int64_t c = read_ns(rel, coarse, &err);
			int64_t f = read_ns(rel, fine, &err);

			compared += !err;
			if (!err && (c < k || c > f))
				vk_result_fail(rel->v->rs, r, "the syscall read clock %d %lld, then %s clock %d %lld, then clock %d %lld ns",
					       coarse, (long long)k, rel->path, coarse, (long long)c,
					       fine, (long long)f);
		}
		r->calls += 3 * ROUND;
	} while (vk_monotonic() < rel->deadline);
	unread(rel, r, compared);
}

void vk_verify_relations(struct vk_verify *v, const struct vk_target *t, enum vk_path p)
{
	struct relation rel = {
		.v = v,
		.fn = v->cs->fn[p][t->func].clock,
		.t64 = vk_funcs[t->func].time64,
		.path = vk_path_name(p),
	};

	if (has_clock(t, CLOCK_MONOTONIC) && has_clock(t, CLOCK_BOOTTIME))
		boottime(&rel, add(&rel, t->func, CLOCK_BOOTTIME, p, "boottime"));
	if (has_clock(t, CLOCK_REALTIME) && has_clock(t, CLOCK_TAI))
		tai_offset(&rel, add(&rel, t->func, CLOCK_TAI, p, "tai-offset"));
	if (has_clock(t, CLOCK_REALTIME) && has_clock(t, CLOCK_REALTIME_COARSE))
		coarse_bound(&rel, add(&rel, t->func, CLOCK_REALTIME_COARSE, p, "coarse-bound"),
			     CLOCK_REALTIME_COARSE, CLOCK_REALTIME);
	if (has_clock(t, CLOCK_MONOTONIC) && has_clock(t, CLOCK_MONOTONIC_COARSE))
		coarse_bound(&rel, add(&rel, t->func, CLOCK_MONOTONIC_COARSE, p, "coarse-bound"),
			     CLOCK_MONOTONIC_COARSE, CLOCK_MONOTONIC);
}

// SPDX-License-Identifier: MIT
/* verify's checks of gettimeofday, time and getcpu. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "core/base/array.h"
#include "core/base/sysinfo.h"
#include "core/verify/verify_shared.h"

#define ROUND 256
/* What the kernel's struct timezone holds; a canary shows an unwritten one. */
struct ktz {
	int minuteswest;
	int dsttime;
};
#define TZ_CANARY 0x5a5a5a5a

static struct vk_result *add(struct vk_verify *v, const char *api, enum vk_path p,
			     const char *rule)
{
	return vk_results_add(v->rs, api, p, rule);
}

/* A call with two pointer arguments, the rest fixed, through any path. */
typedef long (*call2_fn)(union vk_fn fn, void *x, void *y);

struct call2 {
	call2_fn call;
	union vk_fn fn;
	void *x, *y;
};

static long guarded_call2(void *ctx)
{
	struct call2 *c = ctx;

	return c->call(c->fn, c->x, c->y);
}

static long tod2(union vk_fn fn, void *tv, void *tz)
{
	return fn.tod(tv, tz);
}

static long getcpu2(union vk_fn fn, void *cpu, void *node)
{
	return fn.getcpu(cpu, node, NULL);
}


/* Two checks of one loop share its failure limit: reaching it stops, and
 * so cuts short, both. The limit is looked at before the time, so that
 * whether a run says so does not hang on when its deadline fell. */
static int cut_both(const struct vk_results *rs, struct vk_result *a, struct vk_result *b)
{
	unsigned long long fails = a->fails + b->fails;

	return vk_result_cut(rs, a, fails) | vk_result_cut(rs, b, fails);
}
/*
 * With each of two pointers NULL or valid, the path returns what the
 * syscall does; the path's call is guarded, as a libc may crash on NULL.
 * libc is not given NULL where it declares the pointer __nonnull.
 */
static void null_args(struct vk_verify *v, enum vk_path p, enum vk_func f, call2_fn call,
		      const char *const names[2], void *x, void *y)
{
	struct vk_result *r = add(v, vk_funcs[f].name, p, "null-args");
	union vk_fn sys = v->cs->fn[VK_PATH_SYSCALL][f];
	char why[128];

	for (int i = 0; i < 4; i++) {
		struct call2 c = { call, v->cs->fn[p][f], i & 1 ? x : NULL, i & 2 ? y : NULL };
		long rs, rx;
		int e;

		if (p == VK_PATH_LIBC && (vk_funcs[f].libc_nonnull & ~i & 3))
			continue;
		rs = call(sys, c.x, c.y);
		r->calls++;
		if ((e = vk_guarded(guarded_call2, &c, &rx, why, sizeof(why))) == VK_GUARD_NOT_RUN)
			vk_result_error(v->rs, r, "%s", why);
		else if (e)
			vk_result_fail(v->rs, r, "%s %s, %s %s: %s was %s; the syscall returned %ld",
				       names[0], c.x ? "valid" : "NULL", names[1],
				       c.y ? "valid" : "NULL", vk_path_name(p), why, rs);
		else if (rs != rx) {
			vk_result_fail(v->rs, r, "%s %s, %s %s: %s returned %ld, the syscall %ld",
				       names[0], c.x ? "valid" : "NULL", names[1],
				       c.y ? "valid" : "NULL", vk_path_name(p), rx, rs);
			vk_result_returns(r, rx, rs);
		}
	}
}

void vk_verify_gettimeofday(struct vk_verify *v, enum vk_func f, enum vk_path p)
{
	vk_tod_fn sys = v->cs->fn[VK_PATH_SYSCALL][f].tod;
	vk_tod_fn fn = v->cs->fn[p][f].tod;
	struct vk_result *real, *norm, *tzr;
	double deadline = vk_monotonic() + v->seconds;
	struct ktz tz_sys = { TZ_CANARY, TZ_CANARY }, tz = { TZ_CANARY, TZ_CANARY }, tz_null_args;
	struct vk_ktv tv;

	null_args(v, p, f, tod2, (const char *const[]){ "tv", "tz" }, &tv,
		  &tz_null_args);
	tzr = add(v, "gettimeofday", p, "timezone");
	sys(&tv, &tz_sys);
	fn(&tv, &tz);
	tzr->calls = 1;
	if (memcmp(&tz, &tz_sys, sizeof(tz)))
		vk_result_fail(v->rs, tzr, "%s gave tz {%d, %d}, the syscall {%d, %d}",
			       vk_path_name(p), tz.minuteswest, tz.dsttime, tz_sys.minuteswest,
			       tz_sys.dsttime);
	real = add(v, "gettimeofday", p, "realtime");
	norm = add(v, "gettimeofday", p, "normalized");
	do {
		for (int i = 0; i < ROUND; i++) {
			int64_t a = vk_sys_clock_ns(v, CLOCK_REALTIME) / 1000, x, b;
			int r = fn(&tv, NULL);

			b = vk_sys_clock_ns(v, CLOCK_REALTIME) / 1000;
			x = (int64_t)tv.sec * 1000000 + tv.usec;
			norm->calls++;
			if (r || tv.usec < 0 || tv.usec >= 1000000) {
				vk_result_fail(v->rs, norm, "%s returned %d with tv {%lld, %lld}",
					       vk_path_name(p), r, (long long)tv.sec,
					       (long long)tv.usec);
				continue;
			}
			/* Only a reading is compared with the clock's. */
			real->calls++;
			if (x < a || x > b)
				vk_result_fail(v->rs, real, "CLOCK_REALTIME %lld us, then %s %lld us, then CLOCK_REALTIME %lld us",
					       (long long)a, vk_path_name(p), (long long)x,
					       (long long)b);
		}
	} while (!cut_both(v->rs, real, norm) && vk_monotonic() < deadline);
}

/* time() reads the seconds of the coarse realtime clock. */
void vk_verify_time(struct vk_verify *v, enum vk_func f, enum vk_path p)
{
	vk_time_fn fn = v->cs->fn[p][f].time;
	struct vk_result *ptr = add(v, "time", p, "time-pointer");
	struct vk_result *coarse = add(v, "time", p, "coarse-seconds");
	double deadline = vk_monotonic() + v->seconds;

	do {
		for (int i = 0; i < ROUND; i++) {
			vk_klong t = -1, r = fn(&t);
			int64_t a = vk_sys_clock_ns(v, CLOCK_REALTIME_COARSE) / 1000000000;
			vk_klong x = fn(NULL);
			int64_t b = vk_sys_clock_ns(v, CLOCK_REALTIME_COARSE) / 1000000000;

			if (r != t)
				vk_result_fail(v->rs, ptr, "%s returned %lld but stored %lld",
					       vk_path_name(p), (long long)r, (long long)t);
			if (x < a || x > b)
				vk_result_fail(v->rs, coarse, "CLOCK_REALTIME_COARSE %lld s, then %s %lld s, then %lld s",
					       (long long)a, vk_path_name(p), (long long)x, (long long)b);
		}
		ptr->calls += ROUND;
		coarse->calls += ROUND;
	} while (!cut_both(v->rs, ptr, coarse) && vk_monotonic() < deadline);
}

/* Pin to cpu; 0, or -1 where the kernel refused. */
static int move_to(struct vk_verify *v, int cpu)
{
	vk_getcpu_fn sys = v->cs->fn[VK_PATH_SYSCALL][VK_FN_GETCPU].getcpu;
	unsigned was = ~0u;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sys(&was, NULL, NULL);
	if (sched_setaffinity(0, sizeof(set), &set))
		return -1;
	if (v->moved && was != (unsigned)cpu)
		v->moved(__func__, __LINE__, was);
	return 0;
}

/* The results of getcpu's rules; node and sysfs NULL on libc's path. */
struct getcpu_rules {
	struct vk_result *cpu, *node, *sysfs;
};

/* Pinning is vdsokit's to do: a sandbox that refuses it leaves each rule
 * untested, not passed and not the kernel's failure. */
static void refused(struct vk_verify *v, const struct getcpu_rules *r, int cpu, int err)
{
	struct vk_result *each[] = { r->cpu, r->node, r->sysfs };

	for (size_t i = 0; i < ARRAY_SIZE(each); i++) {
		if (each[i])
			vk_result_error(v->rs, each[i], "not tested: vdsokit's sched_setaffinity() "
					"to CPU %d failed: %s", cpu, strerror(err));
	}
}

static void getcpu_on(struct vk_verify *v, enum vk_func f, enum vk_path p, int cpu,
		      const struct getcpu_rules *r)
{
	vk_getcpu_fn sys = v->cs->fn[VK_PATH_SYSCALL][f].getcpu;
	vk_getcpu_fn fn = v->cs->fn[p][f].getcpu;
	int sysfs_node = r->sysfs ? vk_cpu_node(cpu) : -1;
	unsigned c_sys, n_sys, c, n;

	if (move_to(v, cpu)) {
		refused(v, r, cpu, errno);
		return;
	}
	for (int i = 0; i < ROUND; i++) {
		c = n = ~0u;
		sys(&c_sys, &n_sys, NULL);
		if (fn(&c, &n, NULL) || c != c_sys || c != (unsigned)cpu) {
			vk_result_fail(v->rs, r->cpu, "pinned to CPU %d: %s says CPU %u, the syscall %u",
				       cpu, vk_path_name(p), c, c_sys);
			continue;
		}
		if (r->node && n != n_sys)
			vk_result_fail(v->rs, r->node, "on CPU %d: %s says node %u, the syscall %u", cpu,
				       vk_path_name(p), n, n_sys);
		if (sysfs_node >= 0 && n != (unsigned)sysfs_node)
			vk_result_fail(v->rs, r->sysfs, "on CPU %d: %s says node %u, sysfs node%d",
				       cpu, vk_path_name(p), n, sysfs_node);
	}
	r->cpu->calls += ROUND;
	if (r->node)
		r->node->calls += ROUND;
	if (sysfs_node >= 0)
		r->sysfs->calls += ROUND;
}

/* A SKIP where sysfs named no node for any CPU the check ran on. */
static void sysfs_unseen(struct vk_result *sysfs)
{
	if (sysfs && !sysfs->calls && sysfs->status == VK_PASS)
		vk_result_skip(sysfs, "no /sys/devices/system/cpu/cpuN/nodeM names a CPU's node "
			       "(no sysfs, or a kernel without CONFIG_NUMA)");
}

void vk_verify_getcpu(struct vk_verify *v, enum vk_func f, enum vk_path p)
{
	struct getcpu_rules r = { .cpu = add(v, "getcpu", p, "cpu") };
	double deadline = vk_monotonic() + v->seconds;
	unsigned cpu_null_args, node_null_args;
	cpu_set_t saved;

	/* libc's sched_getcpu() reports no node. */
	if (p != VK_PATH_LIBC) {
		r.node = add(v, "getcpu", p, "node");
		r.sysfs = add(v, "getcpu", p, "sysfs-node");
	} else {
		vk_result_skip(add(v, "getcpu", p, "node"), "sched_getcpu() reports no node");
		vk_result_skip(add(v, "getcpu", p, "sysfs-node"), "sched_getcpu() reports no node");
	}
	if (sched_getaffinity(0, sizeof(saved), &saved)) {
		vk_result_error(v->rs, r.cpu, "not tested: vdsokit's sched_getaffinity() failed: %s",
			       strerror(errno));
		return;
	}
	/* Round the CPUs for the budget, as the clocks' checks run for theirs. */
	do {
		for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
			if (CPU_ISSET(cpu, &saved))
				getcpu_on(v, f, p, cpu, &r);
		}
	} while (vk_monotonic() < deadline &&
		 !vk_result_cut(v->rs, r.cpu, r.cpu->fails + (r.node ? r.node->fails : 0)));
	sysfs_unseen(r.sysfs);
	if (!sched_setaffinity(0, sizeof(saved), &saved) && v->moved)
		v->moved(__func__, __LINE__, -1);
	if (p != VK_PATH_LIBC)
		null_args(v, p, f, getcpu2, (const char *const[]){ "cpu", "node" },
			  &cpu_null_args, &node_null_args);
}

// SPDX-License-Identifier: MIT
/* verify's checks of clock_gettime and clock_getres, for every clock id. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/verify/verify_shared.h"

/* The share of the budget the per-clock loops get; relations and the
 * threads check take the rest. */
#define CLOCK_SHARE 0.7
#define INTERLEAVED 256		/* syscall, path, syscall triples per round */
#define TIGHT 4096		/* path-only readings per round */

static int is_cpu_clock(int id)
{
	return id < 0 && ((id & 7) == 2 || (id & 7) == 6);
}

/* Clocks that never step back and are never negative. */
static int is_monotonic(int id)
{
	return id == CLOCK_MONOTONIC || id == CLOCK_MONOTONIC_RAW ||
	       id == CLOCK_MONOTONIC_COARSE || id == CLOCK_BOOTTIME ||
	       id == CLOCK_BOOTTIME_ALARM || is_cpu_clock(id);
}

static const char *errname(int r)
{
	return r ? strerror(-r) : "success";
}

/* A reading read by a person. "%lld.%09lld" would print tv_nsec -5 as
 * "20109.-00000005", which passes for a time: a tv_nsec out of range
 * is shown as the two fields. */
#define TS_LEN 96
static void fmt_ts(char *buf, size_t len, const struct vk_ts *t)
{
	if (t->nsec >= 0 && t->nsec < 1000000000)
		snprintf(buf, len, "%lld.%09lld s", (long long)t->sec, (long long)t->nsec);
	else
		snprintf(buf, len, "tv_sec %lld tv_nsec %lld (tv_nsec out of range)",
			 (long long)t->sec, (long long)t->nsec);
}

/* The results every successful clock reading feeds. */
struct clock_checks {
	struct vk_result *err, *ordered, *normalized, *monotonic;
	const char *path;
	int id;
	int64_t prev;
	int64_t floor;		/* the least tv_sec a monotonic clock may read */
	int64_t tightest;	/* the narrowest syscall bracket, ns */
};

static void check_reading(struct vk_results *rs, struct clock_checks *k, int r,
			  const struct vk_ts *x)
{
	char s[TS_LEN];
	int64_t ns = vk_ts_ns(x);

	if (r) {
		vk_result_fail(rs, k->err, "clock %d: %s failed with %s after succeeding",
			       k->id, k->path, errname(r));
		return;
	}
	if (x->nsec < 0 || x->nsec >= 1000000000 || (x->sec < k->floor && is_monotonic(k->id))) {
		fmt_ts(s, sizeof(s), x);
		vk_result_fail(rs, k->normalized, "clock %d: %s read %s", k->id, k->path, s);
	}
	if (k->monotonic && ns < k->prev)
		vk_result_fail(rs, k->monotonic, "clock %d: %s read %lld ns after %lld ns: %lld ns back",
			       k->id, k->path, (long long)ns, (long long)k->prev,
			       (long long)(k->prev - ns));
	k->prev = ns;
}

static void check_order(struct vk_results *rs, struct clock_checks *k, const struct vk_ts *a,
			const struct vk_ts *x, const struct vk_ts *b)
{
	char sa[TS_LEN], sx[TS_LEN], sb[TS_LEN];

	if (vk_ts_ns(b) - vk_ts_ns(a) < k->tightest && vk_ts_ns(a) <= vk_ts_ns(b))
		k->tightest = vk_ts_ns(b) - vk_ts_ns(a);
	if (vk_ts_ns(a) <= vk_ts_ns(x) && vk_ts_ns(x) <= vk_ts_ns(b))
		return;
	fmt_ts(sa, sizeof(sa), a);
	fmt_ts(sx, sizeof(sx), x);
	fmt_ts(sb, sizeof(sb), b);
	vk_result_fail(rs, k->ordered, "clock %d: syscall %s, then %s %s, then syscall %s",
		       k->id, sa, k->path, sx, sb);
}

enum vk_status vk_ordered_judge(int64_t tightest, char *detail, size_t len)
{
	if (tightest == INT64_MAX) {
		snprintf(detail, len, "no reading was bracketed by the syscall's: an error was not tested");
		return VK_SKIP;
	}
	snprintf(detail, len, "the tightest bracket was %lld ns: an error %s that was %stested",
		 (long long)tightest, tightest < VK_ORDERED_BOUND ? "over" : "under",
		 tightest < VK_ORDERED_BOUND ? "" : "not ");
	return tightest < VK_ORDERED_BOUND ? VK_PASS : VK_SKIP;
}

/* A rule that held says what it could detect, in words and as a figure. */
static void judge_order(struct clock_checks *k)
{
	if (k->ordered->status != VK_PASS)
		return;
	k->ordered->status = vk_ordered_judge(k->tightest, k->ordered->detail,
					      sizeof(k->ordered->detail));
	if (k->tightest != INT64_MAX) {
		k->ordered->bound = VK_BOUND_ORDER;
		k->ordered->bound_ns = k->tightest;
	}
}

/* How many times the checks of one clock's readings broke. */
static unsigned long long broken(const struct clock_checks *k)
{
	return k->ordered->fails + k->normalized->fails + (k->monotonic ? k->monotonic->fails : 0);
}

/* Interleave with the syscall, then read fast: a rare step back needs
 * many readings to show, and ordering needs the syscall on both sides. */
static void loop_clock(struct vk_verify *v, struct clock_checks *k, vk_clock_fn sys,
		       vk_clock_fn fn, int t64, double budget)
{
	double deadline = vk_monotonic() + budget;
	struct vk_ts a, x, b;
	int r;

	do {
		for (int i = 0; i < INTERLEAVED; i++) {
			vk_clock_call(sys, t64, k->id, &a);
			r = vk_clock_call(fn, t64, k->id, &x);
			vk_clock_call(sys, t64, k->id, &b);
			check_reading(v->rs, k, r, &x);
			if (!r)
				check_order(v->rs, k, &a, &x, &b);
		}
		k->ordered->calls += INTERLEAVED;
		k->prev = INT64_MIN;
		for (int i = 0; i < TIGHT; i++) {
			r = vk_clock_call(fn, t64, k->id, &x);
			check_reading(v->rs, k, r, &x);
		}
		k->normalized->calls += INTERLEAVED + TIGHT;
		if (k->monotonic)
			k->monotonic->calls += INTERLEAVED + TIGHT;
	/* The limit before the time: whether it cut the run is not left to
	 * when the deadline fell. */
	} while (!vk_result_cut(v->rs, k->ordered, broken(k)) && vk_monotonic() < deadline);
}

/* Return value and errno first: for an id the kernel refuses, that is all. */
static int check_errno(struct vk_verify *v, struct vk_result *err, vk_clock_fn sys,
		       vk_clock_fn fn, int t64, int id, enum vk_path p)
{
	struct vk_ts a, x;
	int rs = vk_clock_call(sys, t64, id, &a);
	int rx = vk_clock_call(fn, t64, id, &x);

	err->calls = 1;
	if (rs != rx) {
		vk_result_fail(v->rs, err, "clock %d: %s returned %d (%s), the syscall %d (%s)",
			       id, vk_path_name(p), rx, errname(rx), rs, errname(rs));
		vk_result_returns(err, rx, rs);
		vk_result_plain(err, 0, rx, rs);
	}
	return rs || rx;
}

static int count_valid(const struct vk_verify *v, const struct vk_target *t)
{
	vk_clock_fn sys = v->cs->fn[VK_PATH_SYSCALL][t->func].clock;
	int t64 = vk_funcs[t->func].time64, n = 0;
	struct vk_ts ts;

	for (int i = 0; i < t->nclocks; i++)
		n += vk_clock_call(sys, t64, t->clocks[i].id, &ts) == 0;
	return n ? n : 1;
}

void vk_verify_clocks(struct vk_verify *v, const struct vk_target *t, enum vk_path p)
{
	vk_clock_fn sys = v->cs->fn[VK_PATH_SYSCALL][t->func].clock;
	vk_clock_fn fn = v->cs->fn[p][t->func].clock;
	int t64 = vk_funcs[t->func].time64;
	double budget = v->seconds * CLOCK_SHARE / count_valid(v, t);
	char api[40];

	for (int i = 0; i < t->nclocks; i++) {
		struct clock_checks k = { .path = vk_path_name(p), .id = t->clocks[i].id };

		/* A time namespace's MONOTONIC offset moves MONOTONIC_RAW too, but
		 * the kernel keeps only MONOTONIC (and BOOTTIME) from below zero:
		 * where raw lags monotonic, raw may read below zero by up to it. */
		if (k.id == CLOCK_MONOTONIC_RAW && v->mono_offset < 0)
			k.floor = v->mono_offset;

		vk_clock_api(api, sizeof(api), t->func, &t->clocks[i]);
		k.err = vk_results_add(v->rs, api, p, "errno");
		if (check_errno(v, k.err, sys, fn, t64, k.id, p))
			continue;
		k.ordered = vk_results_add(v->rs, api, p, "ordered");
		k.normalized = vk_results_add(v->rs, api, p, "normalized");
		if (is_monotonic(k.id))
			k.monotonic = vk_results_add(v->rs, api, p, "monotonic");
		k.prev = INT64_MIN;
		k.tightest = INT64_MAX;
		loop_clock(v, &k, sys, fn, t64, budget);
		judge_order(&k);
	}
}

/* The clock_gettime that goes with a clock_getres. */
static enum vk_func gettime_of(enum vk_func getres)
{
	return getres == VK_FN_CLOCK_GETRES_TIME64 ? VK_FN_CLOCK_GETTIME64 : VK_FN_CLOCK_GETTIME;
}

/*
 * A coarse clock reads the timekeeper's xtime, which each tick moves by
 * a whole number of tick intervals: clock_getres's resolution while NTP
 * leaves the tick's length alone. But NTP's frequency changes that
 * length, and timekeeping_forward_now() moves xtime by the part of a
 * tick gone by when the kernel changes clocksource, is set or has its
 * offsets changed (kernel/time/timekeeping.c). So the kernel promises
 * only that MONOTONIC_COARSE never goes back (and coarse-bound what it
 * lags): a step of part of a resolution, or a smallest step of many, is
 * a note, and only a step back of MONOTONIC_COARSE a failure.
 */
static int whole_ticks(int64_t step, int64_t res, int64_t *k)
{
	*k = (step + res / 2) / res;
	return *k >= 1 && llabs(step - *k * res) <= res / 20;
}

enum vk_status vk_coarse_steps_judge(int id, int64_t res, const int64_t *steps, int n,
				     char *detail, size_t len)
{
	int64_t k, kmin = INT64_MAX, part = 0;
	int parts = 0;

	detail[0] = 0;
	if (res <= 0) {
		snprintf(detail, len, "clock %d reports a resolution of %lld ns", id, (long long)res);
		return VK_FAIL;
	}
	if (n < 1) {
		snprintf(detail, len, "clock %d did not advance twice within 0.5 s", id);
		return VK_SKIP;
	}
	for (int i = 0; i < n; i++) {
		if (steps[i] < 0 && id == CLOCK_MONOTONIC_COARSE) {
			snprintf(detail, len, "clock %d went back by %lld ns", id, (long long)-steps[i]);
			return VK_FAIL;
		}
		if (!whole_ticks(steps[i], res, &k)) {
			if (!parts++)
				part = steps[i];
		} else if (k < kmin)
			kmin = k;
	}
	if (parts)
		snprintf(detail, len, "note: clock %d advanced by %lld ns, not a whole number of its %lld ns resolution (%d of %d steps): the kernel moves a coarse clock by part of a tick when it changes clocksource, is set or slewed",
			 id, (long long)part, (long long)res, parts, n);
	else if (kmin > 4)
		snprintf(detail, len, "note: clock %d advanced by %lld resolutions (%lld ns) at the least: late ticks, or a tick longer than clock_getres says",
			 id, (long long)kmin, (long long)res);
	return VK_PASS;
}

/* Up to 32 steps of a coarse clock, within 0.5 s. */
static void check_coarse_step(struct vk_verify *v, struct vk_result *r, vk_clock_fn gettime,
			      int t64, int id, const struct vk_ts *res)
{
	double deadline = vk_monotonic() + 0.5;
	int64_t last, steps[32];
	struct vk_ts x;
	int changes = 0;
	char detail[sizeof(r->detail)];

	vk_clock_call(gettime, t64, id, &x);
	last = vk_ts_ns(&x);
	while (changes <= 32 && vk_ts_ns(res) > 0 && vk_monotonic() < deadline) {
		vk_clock_call(gettime, t64, id, &x);
		r->calls++;
		if (vk_ts_ns(&x) == last)
			continue;
		/* The first change ends a step that began before we looked. */
		if (changes++)
			steps[changes - 2] = vk_ts_ns(&x) - last;
		last = vk_ts_ns(&x);
	}
	switch (vk_coarse_steps_judge(id, vk_ts_ns(res), steps, changes - 1, detail, sizeof(detail))) {
	case VK_FAIL:
		vk_result_fail(v->rs, r, "%s", detail);
		break;
	case VK_SKIP:
		vk_result_skip(r, "%s", detail);
		break;
	default:
		snprintf(r->detail, sizeof(r->detail), "%s", detail);
		break;
	}
}

struct getres_call {
	vk_clock_fn fn;
	int id;
};

static long call_getres_null(void *ctx)
{
	struct getres_call *c = ctx;

	return c->fn(c->id, NULL);
}

static void check_res(struct vk_verify *v, const struct vk_target *t, enum vk_path p,
		      const struct vk_clock *c)
{
	vk_clock_fn sys = v->cs->fn[VK_PATH_SYSCALL][t->func].clock;
	vk_clock_fn fn = v->cs->fn[p][t->func].clock;
	vk_clock_fn gettime = v->cs->fn[p][gettime_of(t->func)].clock;
	int t64 = vk_funcs[t->func].time64, rs;
	struct getres_call call;
	struct vk_ts a, x;
	struct vk_result *r;
	int e;
	char api[40], why[128], sa[TS_LEN], sx[TS_LEN];
	long rx;

	vk_clock_api(api, sizeof(api), t->func, c);
	if (check_errno(v, vk_results_add(v->rs, api, p, "errno"), sys, fn, t64, c->id, p))
		return;
	r = vk_results_add(v->rs, api, p, "resolution");
	vk_clock_call(sys, t64, c->id, &a);
	vk_clock_call(fn, t64, c->id, &x);
	r->calls = 1;
	if (a.sec != x.sec || a.nsec != x.nsec) {
		fmt_ts(sx, sizeof(sx), &x);
		fmt_ts(sa, sizeof(sa), &a);
		vk_result_fail(v->rs, r, "clock %d: %s reports %s, the syscall %s", c->id,
			       vk_path_name(p), sx, sa);
	}
	/* POSIX lets res be NULL; the kernel then only validates the id. */
	r = vk_results_add(v->rs, api, p, "null-args");
	rs = sys(c->id, NULL);
	call.fn = fn;
	call.id = c->id;
	r->calls = 1;
	e = vk_guarded(call_getres_null, &call, &rx, why, sizeof(why));
	if (e == VK_GUARD_NOT_RUN)
		vk_result_error(v->rs, r, "%s", why);
	else if (e)
		vk_result_fail(v->rs, r, "clock %d, res NULL: %s was %s; the syscall returned %d (%s)",
			       c->id, vk_path_name(p), why, rs, errname(rs));
	else if (rs != rx) {
		vk_result_fail(v->rs, r, "clock %d, res NULL: %s returned %ld (%s), the syscall %d (%s)",
			       c->id, vk_path_name(p), rx, errname(rx), rs, errname(rs));
		vk_result_returns(r, rx, rs);
	}
	if (c->id != CLOCK_REALTIME_COARSE && c->id != CLOCK_MONOTONIC_COARSE)
		return;
	r = vk_results_add(v->rs, api, p, "coarse-step");
	if (!gettime)
		gettime = v->cs->fn[VK_PATH_SYSCALL][gettime_of(t->func)].clock;
	check_coarse_step(v, r, gettime, t64, c->id, &a);
}

void vk_verify_getres(struct vk_verify *v, const struct vk_target *t, enum vk_path p)
{
	for (int i = 0; i < t->nclocks; i++)
		check_res(v, t, p, &t->clocks[i]);
}

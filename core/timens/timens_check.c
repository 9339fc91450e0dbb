// SPDX-License-Identifier: MIT
/*
 * timens's check of one set of offsets: the child's reads inside and the
 * parent's outside, handed to timens_rules (timens.h).
 */
#include <stdio.h>
#include <time.h>
#include <string.h>

#include "core/base/array.h"
#include "core/timens/timens_bracket.h"
#include "core/timens/timens_check.h"
#include "core/timens/timens_rules.h"
#include "core/verify/verify.h"

#define IMPL_TIMEOUT 5.0

struct impl_read {
	const struct vk_callset *cs;
	int id;
	int ret;
	struct vk_ts ts;
};

static void impl_child(void *arg, int fd)
{
	struct impl_read *i = arg;
	struct vk_callset loaded;
	const struct vk_callset *cs = vk_callset_child(i->cs, VK_PATH_BIT(VK_PATH_IMPL), &loaded);

	i->ret = vk_clock_call(cs->fn[VK_PATH_IMPL][VK_FN_CLOCK_GETTIME].clock, 0, i->id, &i->ts);
	vk_write_all(fd, i, sizeof(*i));
}

/*
 * The --impl library's time32 clock_gettime, in a child of its own under
 * a watchdog, where the library is loaded: its crash, exit or hang is the
 * library's, told within seconds, not the namespace's child's; 1 and how
 * in died if it failed.
 */
static int read_impl(const struct vk_callset *cs, int id, struct vk_ts *ts, char *died,
		     size_t len)
{
	struct impl_read i = { .cs = cs, .id = id, .ret = 1 };
	struct vk_isolated out;

	if (vk_isolate(impl_child, &i, IMPL_TIMEOUT, &out)) {
		snprintf(died, len, "could not be run: fork failed");
		return 1;
	}
	if (out.len == sizeof(i))
		memcpy(&i, out.data, sizeof(i));
	else
		vk_isolated_describe(&out, IMPL_TIMEOUT, died, len);
	vk_isolated_free(&out);
	*ts = i.ts;
	return i.ret;
}

/* On a 32-bit ABI, what the time32 clock_gettime says past 2^31 s. */
static void read_time32(const struct vk_timens_check *c, struct vk_timens_readings *r)
{
	const int *ids = vk_timens_time32_ids;

	for (int k = 0; k < 2; k++) {
		r->impl_died[k][0] = '\0';
		for (int p = 0; p < VK_NPATHS; p++) {
			vk_clock_fn fn = c->cs->fn[p][VK_FN_CLOCK_GETTIME].clock;
			int has = vk_callset_has(c->cs, p, VK_FN_CLOCK_GETTIME);
			struct vk_ts ts = { 0, 0 };

			/* Once is enough to tell that it dies, and each time costs. */
			if (has && p == VK_PATH_IMPL && k && r->impl_died[0][0])
				r->y2038_ret[k][p] = 1;
			else if (has && p == VK_PATH_IMPL)
				r->y2038_ret[k][p] = read_impl(c->cs, ids[k], &ts, r->impl_died[k],
							       sizeof(r->impl_died[k]));
			else
				r->y2038_ret[k][p] = has ? vk_clock_call(fn, 0, ids[k], &ts) : 1;
			r->y2038_sec[k][p] = ts.sec;
		}
	}
}

/* The n-th function every command calls that takes no clock. */
static enum vk_func clockless(int n)
{
	int f = 0;

	for (; f < VK_NFUNCS; f++) {
		if (vk_funcs[f].shape != VK_SHAPE_CLOCK_TS && n-- == 0)
			break;
	}
	return f;
}

/* The function and clock of stays[i]; -1 if this ABI has no such call:
 * the 64-bit-time clock_gettime, then a 32-bit ABI's time32 one, each of
 * three clocks, then the other functions. */
static enum vk_func stay(const struct vk_timens_check *c, int i, int *clock)
{
	static const int clocks[] = { CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_BOOTTIME };
	struct vk_api probe;

	*clock = i < 6 ? clocks[i % 3] : 0;
	if (i < 3)
		probe.func = c->gettime;
	else if (i < 6 && VK_TIME32_ABI)
		probe.func = VK_FN_CLOCK_GETTIME;
	else if (i < 6)
		return (enum vk_func)-1;
	else
		probe.func = clockless(i - 6);
	return vk_api_applies(&probe, sizeof(void *) == 8) ? probe.func : (enum vk_func)-1;
}

static const enum vk_path stay_paths[2] = { VK_PATH_VDSO, VK_PATH_IMPL };

/* Each call's syscalls into fb; inside (outside set), only the calls that
 * stayed in userspace outside: the rest have nothing to show, and a
 * library's call that hung there would only hang again. */
static void probe_stays(const struct vk_timens_check *c, struct vk_fallback fb[2][VK_TIMENS_NSTAYS],
			const struct vk_fallback outside[2][VK_TIMENS_NSTAYS])
{
	int died = -1;

	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < VK_TIMENS_NSTAYS; i++) {
			int clock;
			enum vk_func f = stay(c, i, &clock);

			fb[k][i].kind = VK_PROBE_DIED;
			snprintf(fb[k][i].why, sizeof(fb[k][i].why), "not probed");
			if ((int)f < 0 || !vk_callset_has(c->cs, stay_paths[k], f) ||
			    (outside && outside[k][i].kind != VK_USERSPACE))
				continue;
			/* Once is enough to tell that a library dies, and each time costs. */
			if (stay_paths[k] == VK_PATH_IMPL && died >= 0) {
				snprintf(fb[k][i].why, sizeof(fb[k][i].why), "not probed: its %s's probe died",
					 vk_funcs[stay(c, died, &clock)].name);
				continue;
			}
			vk_fallback_probe(c->cs, stay_paths[k], f, clock, &fb[k][i]);
			if (stay_paths[k] == VK_PATH_IMPL && fb[k][i].kind == VK_PROBE_DIED)
				died = i;
		}
	}
}

static void say_fallback(const struct vk_fallback *fb, char *buf, size_t len)
{
	if (fb->kind == VK_USERSPACE)
		snprintf(buf, len, "stays in userspace");
	else if (fb->kind == VK_SYSCALL)
		snprintf(buf, len, "falls back to %s", fb->syscall);
	else
		snprintf(buf, len, "was not probed to the end (%.60s)", fb->why);
}

/*
 * Inside, each vDSO call makes the syscall it makes outside, or none: the
 * kernel's selftests check with ptrace that none falls back in a time
 * namespace. One that falls back outside too (no clocksource for the
 * vDSO) has nothing to show here.
 */
static void judge_stay(const struct vk_timens_check *c, int k, int i, const struct vk_fallback *inside,
		       struct vk_results *rs)
{
	const struct vk_fallback *outside = &c->outside[k][i];
	enum vk_path p = stay_paths[k];
	struct vk_clock clock = { 0 };
	enum vk_func f = stay(c, i, &clock.id);
	char api[40], in[160], out[160];
	struct vk_result *r;

	if ((int)f < 0 || (p == VK_PATH_IMPL && !c->cs->impl_path))
		return;
	if (vk_funcs[f].shape == VK_SHAPE_CLOCK_TS) {
		snprintf(clock.name, sizeof(clock.name), "%s", vk_clock_name(clock.id));
		vk_clock_api(api, sizeof(api), f, &clock);
	} else {
		snprintf(api, sizeof(api), "%s", vk_funcs[f].name);
	}
	r = vk_results_add(rs, api, p, "userspace");
	r->calls = 1;
	say_fallback(outside, out, sizeof(out));
	say_fallback(inside, in, sizeof(in));
	if (!vk_callset_has(c->cs, p, f))
		vk_result_skip(r, "%s", c->cs->why[p][f]);
	else if (outside->kind == VK_SYSCALL)
		vk_result_skip(r, "outside a time namespace it %s too", out);
	else if (outside->kind == VK_PROBE_NOT_RUN)
		vk_result_error(rs, r, "not tested: outside a time namespace, %s", outside->why);
	else if (outside->kind != VK_USERSPACE)
		vk_result_skip(r, "outside a time namespace it %s: nothing to compare", out);
	else if (inside->kind == VK_PROBE_NOT_RUN)
		vk_result_error(rs, r, "not tested: in a time namespace, %s", inside->why);
	else if (inside->kind != VK_USERSPACE)
		vk_result_fail(rs, r, "in a time namespace it %s; outside it %s", in, out);
}

/*
 * Inside, each call makes the syscall it makes outside, or none: the
 * kernel's selftests check with ptrace that none falls back in a time
 * namespace. One that falls back outside too (no clocksource for the
 * vDSO) has nothing to show here.
 */
static void judge_stays(const struct vk_timens_check *c, struct vk_results *rs)
{
	struct vk_fallback inside[2][VK_TIMENS_NSTAYS];

	probe_stays(c, inside, c->outside);
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < VK_TIMENS_NSTAYS; i++)
			judge_stay(c, k, i, &inside[k][i], rs);
}

static void inner(void *arg, int fd)
{
	struct vk_timens_check *c = arg;
	struct vk_results rs = { 0 };
	struct vk_verify v = { .cs = c->cs, .rs = &rs, .seconds = c->seconds,
			       .paths = VK_PATH_BIT(VK_PATH_VDSO), .mono_offset = c->mono_offset };
	int t64 = vk_funcs[c->gettime].time64;
	struct vk_timens_readings r = { 0 };	/* sent whole, a died's tail too */
	int64_t rel[2];		/* the offsets against vdsokit's own namespace */

	for (size_t i = 0; i < VK_TIMENS_NCLOCKS; i++) {
		for (int k = 0; k < 2; k++)
			r.ns[i][k] = vk_timens_read_ns(
				c->cs->fn[vk_timens_read_paths[k]][c->gettime].clock, t64,
				vk_timens_clocks[i].id);
	}
	read_time32(c, &r);
	vk_timens_read_offsets(r.kernel_ns);
	for (int k = 0; k < 2; k++)
		rel[k] = r.kernel_ns[k] == VK_TIMENS_NONE ? VK_TIMENS_NONE : r.kernel_ns[k] - c->base_ns[k];
	vk_write_all(fd, &r, sizeof(r));
	for (int i = 0; i < (c->sets_run ? c->nclocks : c->nt); i++)
		vk_verify_run(&v, &c->t[i]);
	vk_timens_sleep(&rs);
	vk_timens_setns(c, rel, &rs);
	vk_timens_exec(c, rel, &rs);
	if (!c->sets_run)
		judge_stays(c, &rs);
	for (size_t i = 0; i < rs.n; i++)
		vk_write_all(fd, rs.r[i], sizeof(struct vk_result));
}

static void read_outside(const struct vk_timens_check *c, int64_t *ns)
{
	for (size_t i = 0; i < VK_TIMENS_NCLOCKS; i++)
		ns[i] = vk_timens_read_ns(c->cs->fn[VK_PATH_SYSCALL][c->gettime].clock,
					  vk_funcs[c->gettime].time64, vk_timens_clocks[i].id);
}

/* The paths with a time32 clock_gettime, whose y2038 rules apply. */
static unsigned time32_paths(const struct vk_callset *cs)
{
	unsigned paths = 0;

	for (int p = 0; p < VK_NPATHS; p++)
		paths |= vk_callset_has(cs, p, VK_FN_CLOCK_GETTIME) ? VK_PATH_BIT(p) : 0;
	return paths;
}

/* One set: 0 if it ran, else the errno that kept the namespace from being made. */
int vk_timens_check_set(struct vk_timens_check *c, const struct vk_timens_set *s,
			struct vk_results *rs, char *why, size_t len)
{
	struct vk_timens_outside o = { .set = s, .paths = time32_paths(c->cs),
				       .time32 = VK_TIME32_ABI, .impl = c->cs->impl_path };
	int64_t own_after[2];
	double timeout = 8 * c->seconds * c->nt + 30;
	struct vk_isolated out;
	int err, e;

	c->mono_offset = vk_timens_floor_sec(s->mono_ns);
	if (!c->sets_run)
		probe_stays(c, c->outside, NULL);
	vk_timens_read_offsets(c->base_ns);
	memcpy(o.base_ns, c->base_ns, sizeof(o.base_ns));
	read_outside(c, o.before);
	e = vk_timens_isolate(s, inner, c, timeout, &out, why, len, &err);
	if (e)
		return e == VK_TIMENS_NOT_RUN ? e : err ? err : -1;
	read_outside(c, o.after);
	vk_timens_read_offsets(own_after);
	vk_timens_judge(rs, &o, out.data, out.len);
	vk_timens_vfork_exec(c, s, rs);
	if (!c->sets_run)
		vk_timens_refusals(rs);
	c->sets_run++;
	vk_timens_result(rs, "timens", VK_PATH_SYSCALL, s, "parent-unaffected",
			 memcmp(c->base_ns, own_after, sizeof(own_after)) ?
			 "this process's own time namespace offsets changed" : NULL);
	vk_isolated_free(&out);
	return 0;
}

void vk_timens_check_init(struct vk_timens_check *c, const struct vk_callset *cs)
{
	static const char *const names[] = { "realtime", "monotonic", "process-cputime",
		"thread-cputime", "monotonic-raw", "realtime-coarse", "monotonic-coarse",
		"boottime", "realtime-alarm", "boottime-alarm", "tai" };
	const char *prefix[2] = { "clock-gettime-", "clock-getres-" };
	char api[48];

	if (VK_TIME32_ABI) {
		prefix[0] = "clock-gettime64-";
		prefix[1] = "clock-getres-time64-";
	}
	c->cs = cs;
	c->nt = 0;
	for (int f = 0; f < 2; f++) {
		for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
			snprintf(api, sizeof(api), "%s%s", prefix[f], names[i]);
			vk_targets_add(c->t, &c->nt, api);
		}
	}
	/* And, in the first set, every other function: each reads the
	 * namespace's data page, whatever the offsets. */
	c->nclocks = c->nt;
	c->sets_run = 0;
	for (int f = 0; f < VK_NFUNCS; f++) {
		struct vk_api probe = { .func = f };

		if (vk_funcs[f].shape != VK_SHAPE_CLOCK_TS && vk_api_applies(&probe, sizeof(void *) == 8))
			vk_targets_add(c->t, &c->nt, vk_funcs[f].name);
	}
	c->gettime = VK_TIME32_ABI ? VK_FN_CLOCK_GETTIME64 : VK_FN_CLOCK_GETTIME;
}

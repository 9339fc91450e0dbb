// SPDX-License-Identifier: MIT
/* What verify's families of checks share; the driver is verify.c. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "core/base/isolate.h"
#include "core/verify/verify_shared.h"

int vk_clock_call(vk_clock_fn fn, int time64, clockid_t id, struct vk_ts *ts)
{
	int r;

	if (time64) {
		struct vk_kts64 t = { 0, 0 };

		r = fn(id, &t);
		ts->sec = t.sec;
		ts->nsec = t.nsec;
	} else {
		struct vk_kts t = { 0, 0 };

		r = fn(id, &t);
		ts->sec = t.sec;
		ts->nsec = t.nsec;
	}
	return r;
}

int64_t vk_sys_clock_ns(const struct vk_verify *v, clockid_t id)
{
	vk_clock_fn sys = v->cs->fn[VK_PATH_SYSCALL][VK_FN_CLOCK_GETTIME].clock;
	struct vk_ts ts = { 0, 0 };
	int t64 = !sys;

	if (!sys)
		sys = v->cs->fn[VK_PATH_SYSCALL][VK_FN_CLOCK_GETTIME64].clock;
	if (!sys || vk_clock_call(sys, t64, id, &ts))
		return INT64_MIN;
	return vk_ts_ns(&ts);
}

int64_t vk_ts_ns(const struct vk_ts *ts)
{
	return ts->sec * 1000000000 + ts->nsec;
}

#define GUARD_TIMEOUT 5.0

struct guarded {
	long (*call)(void *ctx);
	void *ctx;
};

static void guarded_child(void *ctx, int fd)
{
	struct guarded *g = ctx;
	long ret = g->call(g->ctx);

	vk_write_all(fd, &ret, sizeof(ret));
}

int vk_guarded(long (*call)(void *ctx), void *ctx, long *ret, char *why, size_t len)
{
	struct guarded g = { call, ctx };
	struct vk_isolated out;
	int ok;

	if (vk_isolate(guarded_child, &g, GUARD_TIMEOUT, &out)) {
		vk_isolate_not_tested(&out, why, len);
		return VK_GUARD_NOT_RUN;
	}
	ok = out.len == sizeof(*ret) && out.exited;
	if (ok)
		memcpy(ret, out.data, sizeof(*ret));
	else
		vk_isolated_describe(&out, GUARD_TIMEOUT, why, len);
	vk_isolated_free(&out);
	return ok ? 0 : -1;
}

void vk_target_name(char *buf, size_t len, const struct vk_target *t)
{
	if (vk_funcs[t->func].shape == VK_SHAPE_CLOCK_TS && t->nclocks == 1)
		vk_clock_api(buf, len, t->func, &t->clocks[0]);
	else
		snprintf(buf, len, "%s", vk_funcs[t->func].name);
}

long vk_call_once(union vk_fn fn, enum vk_func f, int clock, void *state, size_t state_len)
{
	return vk_call_plain(fn, f, clock, 0, state, state_len);
}

void vk_pin_thread(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

void vk_verify_settled(struct vk_verify *v)
{
	if (v->settled)
		v->settled(v->settled_ctx);
}

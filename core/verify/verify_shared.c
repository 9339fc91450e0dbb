// SPDX-License-Identifier: MIT
/* What verify's families of checks share; the driver is verify.c. */
#include <errno.h>
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
		snprintf(why, len, "not tested: vdsokit could not fork: %s", strerror(errno));
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

void vk_verify_settled(struct vk_verify *v)
{
	if (v->settled)
		v->settled(v->settled_ctx);
}

// SPDX-License-Identifier: MIT
/*
 * A failure confirmed before it is a finding: its recorded plain calls
 * made again, with the syscall beside them, in a vdsokit exec()ed afresh.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/base/isolate.h"
#include "core/call/call.h"
#include "core/call/targets.h"
#include "core/confirm/confirm.h"
#include "core/image/image.h"

#define TIMEOUT 10.0
#define MAX_ARGS 16

/* What the exec()ed vdsokit tells of one plain call. */
struct answer {
	long ret, sys_ret;	/* the path's and the syscall's */
	char why[160];		/* why it could not call, or "" */
};

static void probe(const char *spec, const char *impl, struct answer *a)
{
	struct vk_callset cs, mine;
	const struct vk_callset *use;
	struct vk_image im;
	unsigned f, p, flags;
	struct vk_clock c = { .id = 0 };
	int n = -1;
	void *state = NULL;
	size_t state_len = 0;
	char err[256];

	/* The clock by its name, whose id this process finds: cpu:self's is its own. */
	if (sscanf(spec, "%u,%u,%u,%n", &f, &p, &flags, &n) != 3 || n < 0 || f >= VK_NFUNCS ||
	    p >= VK_NPATHS ||
	    (vk_funcs[f].shape == VK_SHAPE_CLOCK_TS && vk_clock_parse(spec + n, &c))) {
		snprintf(a->why, sizeof(a->why), "a bad probe: %s", spec);
		return;
	}
	if (vk_image_open_live(&im) || vk_callset_init(&cs, &im, impl, err, sizeof(err))) {
		snprintf(a->why, sizeof(a->why), "the exec()ed vdsokit could not find the paths");
		return;
	}
	use = vk_callset_child(&cs, VK_PATH_BIT(p), &mine);
	if (!vk_callset_has(use, p, f) || !vk_callset_has(use, VK_PATH_SYSCALL, f)) {
		snprintf(a->why, sizeof(a->why), "the exec()ed vdsokit has no such function");
		return;
	}
	if (vk_funcs[f].shape == VK_SHAPE_GETRANDOM && p != VK_PATH_LIBC && p != VK_PATH_SYSCALL &&
	    vk_getrandom_state(use->fn[p][f].getrandom, &state, &state_len)) {
		snprintf(a->why, sizeof(a->why), "the exec()ed vdsokit got no getrandom state");
		return;
	}
	a->ret = vk_call_plain(use->fn[p][f], f, c.id, flags, state, state_len);
	a->sys_ret = vk_call_plain(use->fn[VK_PATH_SYSCALL][f], f, c.id, flags, NULL, 0);
}

int vk_confirm_probe(const char *spec, const char *impl, int fd)
{
	struct answer a = { .why = "" };

	probe(spec, impl, &a);
	return vk_write_all(fd, &a, sizeof(a));
}

/* The exec()ed vdsokit's answer, 0; else -1 and why. */
static int run_probe(char **argv, struct answer *a, char *why, size_t len)
{
	if (vk_exec_self(argv, a, sizeof(*a), TIMEOUT, why, len))
		return -1;
	if (a->why[0])
		snprintf(why, len, "%s", a->why);
	return a->why[0] ? -1 : 0;
}

/* Whether two returns of f differ as a reproducer tells: time()'s are
 * seconds, which may step between the two calls. */
static int differ(enum vk_func f, long a, long b)
{
	if (vk_funcs[f].kind == VK_KIND_TIME && !vk_is_err(a) && !vk_is_err(b))
		return a - b > 1 || b - a > 1;
	return a != b;
}

/* "-22 (EINVAL)", "0": a return as the report gives it. */
static const char *ret_text(char *buf, size_t len, long ret)
{
	if (vk_is_err(ret))
		snprintf(buf, len, "%ld (%s)", ret, vk_errno_name(-ret));
	else
		snprintf(buf, len, "%ld", ret);
	return buf;
}

/* r's plain calls made again: 1 where one still differs from the
 * syscall's; else 0 and what the last showed in why. */
static int repeat(const struct vk_result *r, char *const *argv, const char *impl, char *why,
		  size_t len)
{
	char *args[MAX_ARGS + 4], spec[96], a[32];
	struct vk_clock c;
	int has_id, n = 0, f = vk_api_func(r->api, &c, &has_id);
	struct answer ans;

	while (argv[n] && n < MAX_ARGS)
		args[n] = argv[n], n++;
	args[n + 1] = r->path == VK_PATH_IMPL && impl ? "--impl" : NULL;
	args[n + 2] = (char *)impl;
	args[n + 3] = NULL;
	for (int i = 0; i < r->nplain; i++) {
		snprintf(spec, sizeof(spec), "%d,%d,%u,%s", f, (int)r->path, r->plain[i].flags,
			 c.name);
		args[n] = spec;
		if (run_probe(args, &ans, why, len))
			return 0;
		if (differ(f, ans.ret, ans.sys_ret))
			return 1;
		snprintf(why, len, "a vdsokit exec()ed afresh got %s from %s as from the syscall",
			 ret_text(a, sizeof(a), ans.ret), vk_path_name(r->path));
	}
	return 0;
}

void vk_confirm_results(struct vk_results *rs, char *const *argv, const char *impl)
{
	for (size_t i = 0; i < rs->n; i++) {
		struct vk_result *r = rs->r[i];
		struct vk_clock c;
		int has_id, f = vk_api_func(r->api, &c, &has_id);
		char why[256];

		/* A clock function's call needs its clock. */
		if (r->status != VK_FAIL || !r->nplain || f < 0 ||
		    (vk_funcs[f].shape == VK_SHAPE_CLOCK_TS && !c.name[0]))
			continue;
		if (repeat(r, argv, impl, why, sizeof(why)))
			r->confirm = VK_CONFIRMED;
		else
			vk_result_unconfirm(rs, r, "%s", why);
	}
}

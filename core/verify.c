// SPDX-License-Identifier: MIT
/* verify's driver and what its families of checks share. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isolate.h"
#include "verify.h"

/* <linux/posix-timers.h>: CPU-time clocks of a pid or tid, fd clocks. */
#define CPUCLOCK_SCHED 2
#define CPUCLOCK_PERTHREAD 4
#define CLOCKFD 3
#define MAKE_CPUCLOCK(pid, clock) ((int)(~(unsigned)(pid) << 3) | (clock))

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

void vk_clock_api(char *buf, size_t len, enum vk_func f, const struct vk_clock *c)
{
	static const char *const prefix[VK_NFUNCS] = {
		[VK_FN_CLOCK_GETTIME] = "clock-gettime-",
		[VK_FN_CLOCK_GETRES] = "clock-getres-",
		[VK_FN_CLOCK_GETTIME64] = "clock-gettime64-",
		[VK_FN_CLOCK_GETRES_TIME64] = "clock-getres-time64-",
	};

	snprintf(buf, len, "%s%s", prefix[f] ? prefix[f] : "", c->name);
}

static void add(struct vk_clock *clocks, int *n, int max, int id, const char *name)
{
	if (*n >= max)
		return;
	clocks[*n].id = id;
	snprintf(clocks[*n].name, sizeof(clocks[*n].name), "%s", name);
	(*n)++;
}

/* A pid that existed and is gone: a reaped child's. */
static pid_t dead_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return pid > 0 ? pid : INT_MAX / 8;
}

int vk_clocks_all(struct vk_clock *clocks, int max)
{
	int n = 0, fd = dup(0);
	char name[24];

	for (int id = 0; id < 32; id++) {
		const char *named = vk_clock_name(id);

		snprintf(name, sizeof(name), "id:%d", id);
		add(clocks, &n, max, id, named ? named : name);
	}
	add(clocks, &n, max, -1, "id:-1");
	add(clocks, &n, max, MAKE_CPUCLOCK(getpid(), CPUCLOCK_SCHED), "cpu:self");
	add(clocks, &n, max, MAKE_CPUCLOCK(gettid(), CPUCLOCK_SCHED | CPUCLOCK_PERTHREAD),
	    "cpu:thread");
	add(clocks, &n, max, MAKE_CPUCLOCK(dead_pid(), CPUCLOCK_SCHED), "cpu:dead-pid");
	/* An fd clock of an fd that was open and is now closed. */
	if (fd >= 0)
		close(fd);
	add(clocks, &n, max, MAKE_CPUCLOCK(fd < 0 ? 1000 : fd, CLOCKFD), "fd:closed");
	add(clocks, &n, max, INT_MIN, "id:INT_MIN");
	add(clocks, &n, max, INT_MAX, "id:INT_MAX");
	return n;
}

int vk_clock_parse(const char *name, struct vk_clock *c)
{
	char *end;
	long id;

	for (int i = 0; i < 32; i++) {
		const char *named = vk_clock_name(i);

		if (named && strcmp(name, named) == 0) {
			c->id = i;
			snprintf(c->name, sizeof(c->name), "%s", named);
			return 0;
		}
	}
	if (strncmp(name, "id:", 3) != 0)
		return -1;
	id = strtol(name + 3, &end, 0);
	if (end == name + 3 || *end || id < INT_MIN || id > INT_MAX)
		return -1;
	c->id = id;
	snprintf(c->name, sizeof(c->name), "id:%ld", id);
	return 0;
}

int vk_clock_api_parse(const char *name, enum vk_func *f, struct vk_clock *c)
{
	for (int i = 0; i < VK_NFUNCS; i++) {
		struct vk_clock probe = { .name = "" };
		char prefix[40];
		size_t len;

		if (vk_funcs[i].shape != VK_SHAPE_CLOCK_TS)
			continue;
		vk_clock_api(prefix, sizeof(prefix), i, &probe);
		len = strlen(prefix);
		if (!strncmp(name, prefix, len) && vk_clock_parse(name + len, c) == 0) {
			*f = i;
			return 0;
		}
	}
	return -1;
}

static struct vk_target *target_for(struct vk_target *t, int *n, enum vk_func f)
{
	for (int i = 0; i < *n; i++) {
		if (t[i].func == f)
			return &t[i];
	}
	memset(&t[*n], 0, sizeof(t[*n]));
	t[*n].func = f;
	return &t[(*n)++];
}

int vk_targets_add(struct vk_target *t, int *n, const char *name)
{
	struct vk_target *tg;
	struct vk_clock c;
	enum vk_func f;

	for (f = 0; f < VK_NFUNCS && strcmp(name, vk_funcs[f].name); f++)
		;
	if (f < VK_NFUNCS) {
		tg = target_for(t, n, f);
		if (vk_funcs[f].shape == VK_SHAPE_CLOCK_TS)
			tg->nclocks = vk_clocks_all(tg->clocks, VK_MAX_CLOCKS);
		return 0;
	}
	if (vk_clock_api_parse(name, &f, &c) == 0) {
		tg = target_for(t, n, f);
		if (tg->nclocks < VK_MAX_CLOCKS)
			tg->clocks[tg->nclocks++] = c;
		return 0;
	}
	return -1;
}

/* Every function of this ABI's class: one the vDSO lacks is still called
 * through libc and the syscall, and its vdso path says why it is skipped. */
int vk_targets_all(struct vk_target *t)
{
	int n = 0;

	for (int f = 0; f < VK_NFUNCS; f++) {
		struct vk_api probe = { .func = f };

		if (vk_api_applies(&probe, sizeof(void *) == 8))
			vk_targets_add(t, &n, vk_funcs[f].name);
	}
	return n;
}

static void run_path(struct vk_verify *v, const struct vk_target *t, enum vk_path p)
{
	switch (t->func) {
	case VK_FN_CLOCK_GETTIME:
	case VK_FN_CLOCK_GETTIME64:
		vk_verify_clocks(v, t, p);
		vk_verify_relations(v, t, p);
		vk_verify_threads(v, t, p);
		break;
	case VK_FN_CLOCK_GETRES:
	case VK_FN_CLOCK_GETRES_TIME64:
		vk_verify_getres(v, t, p);
		break;
	case VK_FN_GETTIMEOFDAY:
		vk_verify_gettimeofday(v, p);
		break;
	case VK_FN_TIME:
		vk_verify_time(v, p);
		break;
	case VK_FN_GETCPU:
		vk_verify_getcpu(v, p);
		break;
	case VK_FN_GETRANDOM:
		vk_verify_getrandom(v, p);
		break;
	default:
		break;
	}
}

/* A path without the function, or without its syscall twin, is a SKIP. */
static const char *missing(const struct vk_verify *v, enum vk_func f, enum vk_path p)
{
	if (!v->cs->fn[p][f].p)
		return v->cs->why[p][f];
	if (!v->cs->fn[VK_PATH_SYSCALL][f].p)
		return "no syscall to compare with on this ABI";
	return NULL;
}

/* What a SKIP of a whole target is under: its API when it is one clock's,
 * else its function, whose clocks would only repeat it. */
static void target_name(char *buf, size_t len, const struct vk_target *t)
{
	if (vk_funcs[t->func].shape == VK_SHAPE_CLOCK_TS && t->nclocks == 1)
		vk_clock_api(buf, len, t->func, &t->clocks[0]);
	else
		snprintf(buf, len, "%s", vk_funcs[t->func].name);
}

static void skip_target(struct vk_verify *v, const struct vk_target *t, enum vk_path p,
			const char *why)
{
	char name[40];

	target_name(name, sizeof(name), t);
	vk_result_skip(vk_results_add(v->rs, name, p, "all"), "%s", why);
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
		snprintf(why, len, "could not fork");
		return -1;
	}
	ok = out.len == sizeof(*ret) && out.exited;
	if (ok)
		memcpy(ret, out.data, sizeof(*ret));
	else
		vk_isolated_describe(&out, GUARD_TIMEOUT, why, len);
	vk_isolated_free(&out);
	return ok ? 0 : -1;
}

struct job {
	struct vk_verify *v;
	const struct vk_target *t;
	enum vk_path p;
};

/* In the child: run the checks, then send their results to the parent. */
static void child(void *ctx, int fd)
{
	struct job *j = ctx;
	size_t first = j->v->rs->n;

	run_path(j->v, j->t, j->p);
	for (size_t i = first; i < j->v->rs->n; i++)
		vk_write_all(fd, j->v->rs->r[i], sizeof(struct vk_result));
}

/*
 * A path under test may crash or hang (a libc bug, a broken --impl): the
 * checks of one function on one path run in a child, and its death is a
 * failure of its own.
 */
static void run_isolated(struct vk_verify *v, const struct vk_target *t, enum vk_path p)
{
	struct job j = { v, t, p };
	double timeout = 4 * v->seconds + 20;
	struct vk_isolated out;
	const struct vk_result *r;
	size_t n;
	char why[64];

	if (vk_isolate(child, &j, timeout, &out)) {
		skip_target(v, t, p, "could not fork a child to run the checks in");
		return;
	}
	r = (const struct vk_result *)out.data;
	n = out.len / sizeof(*r);
	for (size_t i = 0; i < n; i++)
		vk_results_append(v->rs, &r[i]);
	if (!out.exited || out.exit_status) {
		vk_isolated_describe(&out, timeout, why, sizeof(why));
		vk_result_fail(v->rs, vk_results_add(v->rs, vk_funcs[t->func].name, p, "survives"),
			       "the checks of %s on the %s path were %s after %zu results",
			       vk_funcs[t->func].name, vk_path_name(p), why, n);
	}
	vk_isolated_free(&out);
}

void vk_verify_run(struct vk_verify *v, const struct vk_target *t)
{
	for (int p = 0; p < VK_NPATHS; p++) {
		const char *why;

		if (!(v->paths & VK_PATH_BIT(p)) || vk_results_full(v->rs))
			continue;
		why = missing(v, t->func, p);
		if (why)
			skip_target(v, t, p, why);
		else
			run_isolated(v, t, p);
	}
}

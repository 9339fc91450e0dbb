// SPDX-License-Identifier: MIT
/*
 * verify's driver: runs each function's family of checks on each path,
 * in a child. The families share core/verify/verify_shared.c, not this file.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/base/isolate.h"
#include "core/base/sysinfo.h"
#include "core/verify/verify.h"

typedef void (*family_fn)(struct vk_verify *v, const struct vk_target *t, enum vk_path p);

/* clock_gettime's families: its clocks, then the relations between them,
 * its threads and the aux clocks, each where it is wanted. */
static void gettime_families(struct vk_verify *v, const struct vk_target *t, enum vk_path p)
{
	vk_verify_clocks(v, t, p);
	vk_verify_settled(v);
	if (vk_verify_wants_family(v, "relations"))
		vk_verify_relations(v, t, p);
	vk_verify_settled(v);
	if (vk_verify_wants_family(v, "threads"))
		vk_verify_threads(v, t, p);
	vk_verify_settled(v);
	if (vk_verify_wants_family(v, "aux"))
		vk_verify_aux(v, t, p);
}

/* A family of a function that takes no clock, as a family_fn. */
#define NO_CLOCK(family)                                                        \
	static void family##_family(struct vk_verify *v, const struct vk_target *t, \
				    enum vk_path p)                             \
	{                                                                       \
		vk_verify_##family(v, t->func, p);                              \
	}
NO_CLOCK(gettimeofday)
NO_CLOCK(time)
NO_CLOCK(getcpu)
NO_CLOCK(getrandom)

/* Each kind's family; NULL: verify has none (abi alone checks it). */
static const family_fn families[VK_NKINDS] = {
	[VK_KIND_GETTIME] = gettime_families,
	[VK_KIND_GETRES] = vk_verify_getres,
	[VK_KIND_TOD] = gettimeofday_family,
	[VK_KIND_TIME] = time_family,
	[VK_KIND_GETCPU] = getcpu_family,
	[VK_KIND_GETRANDOM] = getrandom_family,
};

/* The rules below that call a function as it is (flags 0): a getrandom
 * before the CRNG is ready would block in them, as the kernel says it
 * must, and read as a hang. Its family SKIPs then, and so do they. */
static const char *const calling_rules[] = { "stack", "signal-call", "signal-unwind", "mlockall" };

static int skip_if_blocking(struct vk_verify *v, const struct vk_target *t, enum vk_path p)
{
	char name[40];

	if (vk_funcs[t->func].kind != VK_KIND_GETRANDOM || vk_crng_ready())
		return 0;
	vk_target_name(name, sizeof(name), t);
	for (size_t i = 0; i < ARRAY_SIZE(calling_rules); i++)
		if (vk_verify_wants(v, calling_rules[i]))
			vk_result_skip(vk_results_add(v->rs, name, p, calling_rules[i]),
				       VK_CRNG_NOT_READY);
	return 1;
}

static void run_path(struct vk_verify *v, const struct vk_target *t, enum vk_path p)
{
	family_fn family = families[vk_funcs[t->func].kind];

	if (!family)
		return;
	family(v, t, p);
	vk_verify_settled(v);
	if (skip_if_blocking(v, t, p))
		return;
	if (vk_verify_wants(v, "stack"))
		vk_verify_stack(v, t, p);
	vk_verify_settled(v);
	if (vk_verify_wants(v, "signal-call") || vk_verify_wants(v, "signal-unwind"))
		vk_verify_signals(v, t, p);
	vk_verify_settled(v);
	if (vk_verify_wants(v, "mlockall"))
		vk_verify_mlock(v, t, p);
	/* The data pages are the process's, not a function's: read once. */
	if (p == VK_PATH_VDSO && t->func == VK_FN_CLOCK_GETTIME && vk_verify_wants(v, "vvar-pages"))
		vk_verify_vvar(v, t);
}

/* A path without the function, or without its syscall twin, is a SKIP. */
static const char *missing(const struct vk_verify *v, enum vk_func f, enum vk_path p)
{
	if (!vk_callset_has(v->cs, p, f))
		return v->cs->why[p][f];
	if (!vk_callset_has(v->cs, VK_PATH_SYSCALL, f))
		return vk_no_reference(v->cs, f);
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

struct job {
	struct vk_verify *v;
	const struct vk_target *t;
	int nt;			/* targets: more than one for the edge pass */
	int edge;		/* the second-edge pass, of every target at once */
	enum vk_path p;
	int fd;
	size_t sent;	/* results sent to the parent so far */
	/* In the parent: a pipe's read end whose write end only the child
	 * and what it forked hold, or -1. */
	int held;
};

/*
 * The child's last word: without it, the checks ended early, as when a
 * library under test calls exit(0), however the child ended.
 */
static const char done[] = "done";

/* In the child: send the parent the results settled since the last call. */
static void send_settled(void *ctx)
{
	struct job *j = ctx;

	for (; j->sent < j->v->rs->n; j->sent++)
		vk_write_all(j->fd, j->v->rs->r[j->sent], sizeof(struct vk_result));
}

/* In the child: run the checks, sending each result once it is final. */
static void child(void *ctx, int fd)
{
	struct job *j = ctx;
	struct vk_callset loaded;

	j->fd = fd;
	j->sent = j->v->rs->n;
	j->v->settled = send_settled;
	j->v->settled_ctx = j;
	j->v->cs = vk_callset_child(j->v->cs, VK_PATH_BIT(j->p), &loaded);
	if (j->edge)
		vk_verify_edge(j->v, j->t, j->nt, j->p);
	else
		run_path(j->v, j->t, j->p);
	send_settled(j);
	vk_write_all(fd, done, sizeof(done));
}

/* Whether the child sent its last word after n results. */
static int finished(const struct vk_isolated *out, size_t n)
{
	return out->len == n * sizeof(struct vk_result) + sizeof(done) &&
	       !memcmp(out->data + out->len - sizeof(done), done, sizeof(done));
}

/* "the impl path (./lib.so)": which library a result of the impl path is of. */
static void path_name(char *buf, size_t len, const struct vk_verify *v, enum vk_path p)
{
	if (p == VK_PATH_IMPL && v->cs->impl_path)
		snprintf(buf, len, "the impl path (%s)", v->cs->impl_path);
	else
		snprintf(buf, len, "the %s path", vk_path_name(p));
}

/*
 * The process that disables an aux clock again after a child that
 * enabled it crashed (verify_aux.c) ends after the child: wait for it,
 * so that verify ends with the clock as it found it. The bound only
 * stops a process that kept the pipe by mistake from holding verify up.
 */
#define HELD_SECONDS 10

static void hold(struct job *j, int fds[2])
{
	fds[0] = fds[1] = -1;
	j->held = -1;
	if (!j->edge && vk_verify_wants_family(j->v, "aux") &&
	    vk_verify_aux_may_enable(j->v, j->t) && !pipe2(fds, O_CLOEXEC))
		j->held = fds[0];
}

static void wait_held(struct job *j)
{
	double end = vk_monotonic() + HELD_SECONDS;
	struct pollfd pfd = { .fd = j->held, .events = POLLIN };
	char c;

	if (j->held < 0)
		return;
	while (vk_monotonic() < end) {
		int r = poll(&pfd, 1, (int)((end - vk_monotonic()) * 1000) + 1);

		if (r > 0 && read(j->held, &c, 1) <= 0)
			break;
		if (r < 0 && errno != EINTR)
			break;
	}
	close(j->held);
	j->held = -1;
}

/*
 * A path under test may crash or hang (a libc bug, a broken --impl): the
 * checks of one function on one path run in a child, and its death is a
 * failure of its own.
 */
/* vdsokit's own failure to run t's checks on p, and err's reason. */
static void own_error(struct vk_verify *v, const struct vk_target *t, enum vk_path p,
		      const char *what, int err)
{
	char name[40];

	target_name(name, sizeof(name), t);
	vk_result_error(v->rs, vk_results_add(v->rs, name, p, "all"), "not tested: vdsokit %s: %s",
			what, strerror(err));
}

static double job_timeout(const struct job *j)
{
	return 4 * j->v->seconds + 20 + (j->edge ? VK_EDGE_SECONDS : 0);
}

/* The results of a child started for j, and its death a failure of its own. */
static void collect_job(struct job *j, struct vk_isolating *c)
{
	struct vk_verify *v = j->v;
	const struct vk_target *t = j->t;
	double timeout = job_timeout(j);
	struct vk_isolated out;
	const struct vk_result *r;
	size_t n;
	char why[64], path[300];

	if (vk_isolate_finish(c, timeout, &out)) {
		own_error(v, t, j->p, "could not wait for the child the checks ran in", out.err);
		wait_held(j);
		return;
	}
	wait_held(j);
	r = (const struct vk_result *)out.data;
	n = out.len / sizeof(*r);
	for (size_t i = 0; i < n; i++)
		vk_results_append(v->rs, &r[i]);
	if (!out.exited || out.exit_status || !finished(&out, n)) {
		vk_isolated_describe(&out, timeout, why, sizeof(why));
		path_name(path, sizeof(path), v, j->p);
		vk_result_fail(v->rs, vk_results_add(v->rs, vk_funcs[t->func].name, j->p, "survives"),
			       "the %schecks of %s on %s %s%s after %zu results",
			       j->edge ? "second-edge " : "", vk_funcs[t->func].name, path,
			       out.signal ? "were " : "", why, n);
	}
	vk_isolated_free(&out);
}

static int start_job(struct job *j, struct vk_isolating *c)
{
	int fds[2], r;

	hold(j, fds);
	r = vk_isolate_start(child, j, c);
	if (fds[1] >= 0)
		close(fds[1]);
	if (!r)
		return 0;
	wait_held(j);
	/* "fork a child", or "make a pipe": what vk_isolate_start could not do. */
	if (c->failed && strcmp(c->failed, "fork"))
		own_error(j->v, j->t, j->p, "could not make a pipe to a child to run the checks in",
			  c->err);
	else
		own_error(j->v, j->t, j->p, "could not fork a child to run the checks in", c->err);
	return -1;
}

void vk_verify_run(struct vk_verify *v, const struct vk_target *t)
{
	for (int p = 0; p < VK_NPATHS; p++) {
		struct job j = { .v = v, .t = t, .nt = 1, .p = p, .fd = -1, .held = -1 };
		struct vk_isolating c;
		const char *why;

		if (!(v->paths & VK_PATH_BIT(p)))
			continue;
		why = missing(v, t->func, p);
		if (why)
			skip_target(v, t, p, why);
		else if (!start_job(&j, &c))
			collect_job(&j, &c);
	}
}

void vk_verify_edges_start(struct vk_verify_edges *e, struct vk_verify *v,
			   const struct vk_target *t, int nt)
{
	/* A test hook: the golden files, which must not change with the
	 * machine's load, leave out the one rule whose outcome does. */
	const char *leave_out = getenv("VDSOKIT_NO_SECOND_EDGE");

	for (int p = 0; p < VK_NPATHS; p++) {
		if ((leave_out && *leave_out) || !vk_verify_wants(v, "second-edge")) {
			e->started[p] = 0;
			continue;
		}
		struct job j = { .v = v, .t = t, .nt = nt, .edge = 1, .p = p, .fd = -1, .held = -1 };

		e->started[p] = (v->paths & VK_PATH_BIT(p)) && !start_job(&j, &e->child[p]);
	}
	e->v = v;
	e->t = t;
	e->nt = nt;
}

void vk_verify_edges_finish(struct vk_verify_edges *e)
{
	for (int p = 0; p < VK_NPATHS; p++) {
		struct job j = { .v = e->v, .t = e->t, .nt = e->nt, .edge = 1, .p = p, .fd = -1, .held = -1 };

		if (e->started[p])
			collect_job(&j, &e->child[p]);
	}
}

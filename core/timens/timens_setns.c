// SPDX-License-Identifier: MIT
/*
 * setns() out of the time namespace and back, as the kernel's
 * timens/timens.c selftest and LTP's clock_gettime03 do: the kernel then
 * maps the vDSO's data page of the namespace entered, and a read after
 * each move must give that namespace's time. A process that moves must
 * have one thread, so the moves are made in a child of their own.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/call/targets.h"
#include "core/timens/timens_bracket.h"
#include "core/timens/timens_check.h"
#include "core/timens/timens_rules.h"
#include "core/verify/verify_shared.h"

#define NLEGS 3
#define MOVER_TIMEOUT 5.0

static const char *const legs[NLEGS] = {
	"inside the namespace",
	"after setns() to the parent's time namespace",
	"after setns() back into the namespace",
};
static const int ids[2] = { CLOCK_MONOTONIC, CLOCK_BOOTTIME };

struct moves {
	const struct vk_timens_check *c;
	enum vk_path p;
	enum vk_func f;		/* c->gettime, or a 32-bit ABI's time32 entry */
	int fd[2];		/* the parent's namespace, this one */
	int err;		/* errno of what failed: opening fd[], or setns() */
	int in_setns;
	struct vk_timens_reading r[ARRAY_SIZE(ids)];
};

/* In a child, single-threaded as setns() wants it: read, move out, read,
 * move back, read. */
static void mover(void *arg, int fd)
{
	struct moves *m = arg;
	struct vk_callset loaded;
	const struct vk_callset *cs = vk_callset_child(m->c->cs, VK_PATH_BIT(m->p), &loaded);
	enum vk_func f = m->f, sys = m->c->gettime;

	for (int leg = 0; leg < NLEGS && !m->err; leg++) {
		if (leg && setns(m->fd[leg == 1 ? 0 : 1], CLONE_NEWTIME)) {
			m->err = errno;
			m->in_setns = 1;
		}
		for (size_t i = 0; i < ARRAY_SIZE(ids) && !m->err; i++)
			vk_timens_read_leg(cs->fn[VK_PATH_SYSCALL][sys].clock, cs->fn[m->p][f].clock,
					   vk_funcs[f].time64, ids[i], leg, &m->r[i]);
	}
	vk_write_all(fd, m, sizeof(*m));
}

static void judge(const struct moves *m, int i, int64_t offset, const char *died,
		  struct vk_results *rs)
{
	struct vk_clock clock = { .id = ids[i] };
	struct vk_result *res;
	char api[40];

	snprintf(clock.name, sizeof(clock.name), "%s", vk_clock_name(ids[i]));
	vk_clock_api(api, sizeof(api), m->f, &clock);
	res = vk_results_add(rs, api, m->p, "setns");
	res->calls = NLEGS * VK_TIMENS_TRIES;
	if (*died)
		vk_timens_died(rs, res, died);
	else if (m->in_setns && m->err == EPERM)
		vk_result_skip(res, "setns(CLONE_NEWTIME): %s", strerror(m->err));
	else if (m->err)
		vk_result_error(rs, res, "not tested: %s: %s",
			       m->in_setns ? "setns(CLONE_NEWTIME)" : "opening /proc/PID/ns/time",
			       strerror(m->err));
	else
		vk_timens_judge_reading(&m->r[i], legs, vk_path_name(m->p), ids[i], offset, res, rs);
}

/* One path's moves, in a child under a watchdog: its crash or hang is
 * the path's (an --impl library's), said in died. */
static void move(struct moves *m, char *died, size_t len)
{
	struct vk_isolated out;

	for (size_t i = 0; i < ARRAY_SIZE(ids); i++)
		vk_timens_reading_init(&m->r[i]);
	*died = '\0';
	if (m->err)
		return;
	if (vk_isolate(mover, m, MOVER_TIMEOUT, &out)) {
		vk_isolate_not_tested(&out, died, len);
		return;
	}
	if (out.len == sizeof(*m)) {
		memcpy(m, out.data, sizeof(*m));
	} else {
		int n = snprintf(died, len, "the child that moved between namespaces ");

		vk_isolated_describe(&out, MOVER_TIMEOUT, died + n, len - n);
	}
	vk_isolated_free(&out);
}

/* The clock_gettime entries of this ABI: its 64-bit-time one and, on a
 * 32-bit ABI, the time32 one, which the kernel's vDSO has too. */
static int entries(const struct vk_timens_check *c, enum vk_func f[2])
{
	f[0] = c->gettime;
	f[1] = VK_FN_CLOCK_GETTIME;
	return VK_TIME32_ABI ? 2 : 1;
}

/*
 * In the namespace, whose offsets the kernel shows as offsets[]
 * (MONOTONIC's, BOOTTIME's): each clock whose offset is 1 ms or more, on
 * the vdso and impl paths, through each clock_gettime entry. The
 * parent's namespace is that of this process's parent, which made this
 * one for its children.
 */
void vk_timens_setns(const struct vk_timens_check *c, const int64_t offsets[2],
		     struct vk_results *rs)
{
	static const enum vk_path paths[] = { VK_PATH_VDSO, VK_PATH_IMPL };
	struct moves m = { .c = c };
	enum vk_func f[2];
	int nf = entries(c, f);
	char parent[64], died[160];

	snprintf(parent, sizeof(parent), "/proc/%d/ns/time", (int)getppid());
	m.fd[0] = open(parent, O_RDONLY | O_CLOEXEC);
	m.fd[1] = open("/proc/self/ns/time", O_RDONLY | O_CLOEXEC);
	if (m.fd[0] < 0 || m.fd[1] < 0)
		m.err = errno;
	for (size_t k = 0; k < ARRAY_SIZE(paths); k++) {
		for (int e = 0; e < nf; e++) {
			if (!vk_callset_has(c->cs, paths[k], f[e]))
				continue;
			m.p = paths[k];
			m.f = f[e];
			move(&m, died, sizeof(died));
			for (size_t i = 0; i < ARRAY_SIZE(ids); i++) {
				if (offsets[i] != VK_TIMENS_NONE && llabs(offsets[i]) >= 1000000)
					judge(&m, i, offsets[i], died, rs);
			}
		}
	}
	for (int k = 0; k < 2; k++)
		if (m.fd[k] >= 0)
			close(m.fd[k]);
}

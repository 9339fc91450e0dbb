// SPDX-License-Identifier: MIT
/*
 * verify's checks of getrandom. The vDSO's needs an opaque state per
 * thread, got the documented way: a query call with state_len ~0UL fills
 * vgetrandom_opaque_params, and the state is mmap()ed with the protection
 * and flags it names. libc's getrandom() and the syscall take no state.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/base/children.h"
#include "core/base/isolate.h"
#include "core/base/sysinfo.h"
#include "core/verify/verify_shared.h"

#ifndef GRND_INSECURE
#define GRND_INSECURE 0x0004
#endif
#define BIG (1u << 20)

struct vgetrandom_opaque_params {
	uint32_t size_of_opaque_state;
	uint32_t mmap_prot;
	uint32_t mmap_flags;
	uint32_t reserved[13];
};

struct rnd {
	struct vk_verify *v;
	enum vk_path p;
	vk_getrandom_fn fn, sys;
	struct vgetrandom_opaque_params params;
	void *state;		/* NULL on the libc path */
	size_t state_len;
	unsigned char *buf;
};

static ssize_t call(const struct rnd *g, void *buf, size_t len, unsigned flags)
{
	return g->fn(buf, len, flags, g->state, g->state_len);
}

static struct vk_result *add(struct rnd *g, const char *rule)
{
	return vk_results_add(g->v->rs, "getrandom", g->p, rule);
}

static int get_state(struct rnd *g)
{
	struct vk_result *r = add(g, "query");
	long page = sysconf(_SC_PAGESIZE);
	ssize_t ret = g->fn(NULL, 0, 0, &g->params, ~0UL);

	r->calls = 1;
	if (ret != 0 || g->params.size_of_opaque_state == 0 ||
	    g->params.size_of_opaque_state > (unsigned long)page) {
		vk_result_fail(g->v->rs, r, "the query returned %zd with a state of %u bytes", ret,
			       g->params.size_of_opaque_state);
		return -1;
	}
	g->state = mmap(NULL, page, g->params.mmap_prot, g->params.mmap_flags, -1, 0);
	if (g->state == MAP_FAILED) {
		vk_result_fail(g->v->rs, r, "mmap() with the queried prot %#x, flags %#x failed: %s",
			       g->params.mmap_prot, g->params.mmap_flags, strerror(errno));
		g->state = NULL;
		return -1;
	}
	g->state_len = g->params.size_of_opaque_state;
	return 0;
}

static void lengths(struct rnd *g)
{
	static const size_t lens[] = { 0, 1, 16, 4096, BIG };
	struct vk_result *r = add(g, "length");

	for (size_t i = 0; i < ARRAY_SIZE(lens); i++) {
		ssize_t got = call(g, g->buf, lens[i], 0);

		r->calls++;
		if (got != (ssize_t)lens[i])
			vk_result_fail(g->v->rs, r, "asked for %zu bytes, %s returned %zd", lens[i],
				       vk_path_name(g->p), got);
	}
}

static void flags(struct rnd *g)
{
	static const unsigned all[] = {
		0, GRND_NONBLOCK, GRND_RANDOM, GRND_INSECURE, GRND_NONBLOCK | GRND_INSECURE,
		GRND_RANDOM | GRND_INSECURE, 0x80, ~0u,
	};
	struct vk_result *r = add(g, "flags");

	for (size_t i = 0; i < ARRAY_SIZE(all); i++) {
		ssize_t rs = g->sys(g->buf, 16, all[i], NULL, 0);
		ssize_t rx = call(g, g->buf, 16, all[i]);

		r->calls++;
		if (rs != rx) {
			vk_result_fail(g->v->rs, r, "flags %#x: %s returned %zd, the syscall %zd",
				       all[i], vk_path_name(g->p), rx, rs);
			vk_result_returns(r, rx, rs);
			vk_result_plain(r, all[i]);
		}
	}
}

static void differs(struct rnd *g)
{
	struct vk_result *r = add(g, "differs");
	unsigned char a[16], b[16];

	call(g, a, sizeof(a), 0);
	call(g, b, sizeof(b), 0);
	r->calls = 2;
	if (!memcmp(a, b, sizeof(a)))
		vk_result_fail(g->v->rs, r, "two calls of %s gave the same 16 bytes",
			       vk_path_name(g->p));
}

/* "exited with status 0", "was killed by SIGSEGV": how a child ended. */
static void ended(int status, char *buf, size_t len)
{
	struct vk_isolated how = {
		.exited = WIFEXITED(status),
		.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 0,
		.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0,
	};
	int n = snprintf(buf, len, "%s", how.signal ? "was " : "");

	vk_isolated_describe(&how, 0, buf + n, len - n);
}

/* Parent and child must not share a stream after fork(). */
static void after_fork(struct rnd *g)
{
	struct vk_result *r = add(g, "fork");
	unsigned char mine[32], theirs[32];
	int fds[2], status = 0, err;
	ssize_t got = -1;
	char how[64];
	pid_t pid;

	call(g, mine, sizeof(mine), 0);
	if (pipe(fds)) {
		vk_result_fail(g->v->rs, r, "not tested: vdsokit's pipe() failed: %s", strerror(errno));
		return;
	}
	pid = vk_fork();
	err = errno;
	if (pid == 0) {
		close(fds[0]);
		call(g, theirs, sizeof(theirs), 0);
		_exit(write(fds[1], theirs, sizeof(theirs)) != sizeof(theirs));
	}
	close(fds[1]);
	call(g, mine, sizeof(mine), 0);
	r->calls = 3;
	if (pid > 0) {
		got = read(fds[0], theirs, sizeof(theirs));
		vk_waitpid(pid, &status, 0);
	}
	close(fds[0]);
	ended(status, how, sizeof(how));
	if (pid < 0)
		vk_result_fail(g->v->rs, r, "not tested: vdsokit's fork() failed: %s", strerror(err));
	else if (got != sizeof(theirs))
		vk_result_fail(g->v->rs, r, "the child gave no 32 bytes after fork(): it %s", how);
	else if (!memcmp(mine, theirs, sizeof(mine)))
		vk_result_fail(g->v->rs, r, "parent and child drew the same 32 bytes after fork()");
}

/* A state that crosses a page boundary gets -EFAULT. */
static void straddle(struct rnd *g)
{
	struct vk_result *r = add(g, "straddle");
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *map = mmap(NULL, 2 * page, g->params.mmap_prot, g->params.mmap_flags, -1, 0);
	ssize_t ret;

	if (map == MAP_FAILED) {
		vk_result_fail(g->v->rs, r, "not tested: vdsokit's mmap() of two pages failed: %s",
			       strerror(errno));
		return;
	}
	ret = g->fn(g->buf, 16, 0, map + page - g->state_len / 2, g->state_len);
	r->calls = 1;
	if (ret != -EFAULT)
		vk_result_fail(g->v->rs, r, "a state across a page boundary: %s returned %zd, not -EFAULT",
			       vk_path_name(g->p), ret);
	munmap(map, 2 * page);
}

void vk_verify_getrandom(struct vk_verify *v, enum vk_path p)
{
	struct rnd g = {
		.v = v,
		.p = p,
		.fn = v->cs->fn[p][VK_FN_GETRANDOM].getrandom,
		.sys = v->cs->fn[VK_PATH_SYSCALL][VK_FN_GETRANDOM].getrandom,
	};

	int stateful = p == VK_PATH_VDSO || p == VK_PATH_IMPL;
	static const char *const rules[] = { "length", "flags", "differs", "fork", "straddle" };

	if (!vk_crng_ready()) {
		for (size_t i = 0; i < ARRAY_SIZE(rules); i++)
			vk_result_skip(add(&g, rules[i]), "the CRNG is not ready yet: getrandom would block");
		return;
	}
	g.buf = malloc(BIG);
	if (!g.buf) {
		vk_result_fail(v->rs, add(&g, "length"), "not tested: vdsokit could not allocate %u bytes",
			       BIG);
		return;
	}
	/* A failed query is its own failure; the rules need its state. */
	if (stateful && get_state(&g)) {
		free(g.buf);
		return;
	}
	lengths(&g);
	flags(&g);
	differs(&g);
	after_fork(&g);
	if (stateful)
		straddle(&g);
	else
		vk_result_skip(add(&g, "straddle"), "the %s path takes no state", vk_path_name(p));
	if (g.state)
		munmap(g.state, sysconf(_SC_PAGESIZE));
	free(g.buf);
}

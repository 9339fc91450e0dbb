// SPDX-License-Identifier: MIT
/*
 * verify's checks of getrandom. The vDSO's needs an opaque state per
 * thread, got the documented way: a query call with state_len ~0UL fills
 * vgetrandom_opaque_params, and the state is mmap()ed with the protection
 * and flags it names. libc's getrandom() and the syscall take no state.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/base/children.h"
#include "core/base/isolate.h"
#include "core/base/sysinfo.h"
#include "core/verify/randomness.h"
#include "core/verify/verify_shared.h"

#ifndef GRND_INSECURE
#define GRND_INSECURE 0x0004
#endif
#define BIG (1u << 20)
#define BUFLEN (BIG + 1 + 2 * GUARD)

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
	unsigned char *buf;	/* BUFLEN bytes */
	unsigned char *same;	/* per byte of buf: it matched every fill */
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

/*
 * Each length is drawn once into a buffer filled with each of FILLS, with
 * GUARD bytes either side. A byte the call wrote differs from some fill
 * (that it matches all six by chance is 2^-48 per byte); a byte it did not
 * write never does. So bytes past what it reported must match every fill,
 * and each byte before that must differ from one.
 */
#define GUARD 16
#define FILLS 6

static const unsigned char fills[FILLS] = { 0x00, 0xff, 0x55, 0xaa, 0x0f, 0xf0 };

/* The lengths 0-127 and either side of each boundary an implementation
 * may have: the vDSO's batch of 96 bytes, 1263, a page, a large one. */
static size_t nth_length(size_t i, size_t page)
{
	const size_t edges[] = { 96, 192, 1263, page, 2 * page, 65536 };

	if (i < 128)
		return i;
	i -= 128;
	return i / 3 < ARRAY_SIZE(edges) ? edges[i / 3] - 1 + i % 3 : SIZE_MAX;
}

/* Draws len bytes after each fill; 0 or a failure already reported. */
static int one_length(struct rnd *g, struct vk_result *r, size_t len)
{
	unsigned char *p = g->buf + GUARD;
	size_t end = len + 2 * GUARD, first_unwritten = SIZE_MAX;

	memset(g->same, 1, end);
	for (int f = 0; f < FILLS; f++) {
		ssize_t got;

		memset(g->buf, fills[f], end);
		got = call(g, p, len, 0);
		r->calls++;
		if (got != (ssize_t)len) {
			vk_result_fail(g->v->rs, r, "asked for %zu bytes, %s returned %zd", len,
				       vk_path_name(g->p), got);
			return -1;
		}
		for (size_t i = 0; i < end; i++)
			g->same[i] &= g->buf[i] == fills[f];
	}
	for (size_t i = 0; i < GUARD; i++) {
		if (!g->same[i] || !g->same[GUARD + len + i]) {
			vk_result_fail(g->v->rs, r, "asked for %zu bytes, %s wrote %s the buffer", len,
				       vk_path_name(g->p), g->same[i] ? "past the end of" : "before");
			return -1;
		}
	}
	for (size_t i = 0; i < len && first_unwritten == SIZE_MAX; i++)
		if (g->same[GUARD + i])
			first_unwritten = i;
	if (first_unwritten == SIZE_MAX)
		return 0;
	vk_result_fail(g->v->rs, r, "asked for %zu bytes, %s returned %zu but left byte %zu unwritten",
		       len, vk_path_name(g->p), len, first_unwritten);
	return -1;
}

static void lengths(struct rnd *g)
{
	struct vk_result *r = add(g, "length");
	size_t page = sysconf(_SC_PAGESIZE), len;

	for (size_t i = 0; (len = nth_length(i, page)) != SIZE_MAX; i++)
		if (one_length(g, r, len))
			return;
}

/* Every combination of the three flags, each unknown bit alone, all bits. */
static unsigned nth_flags(unsigned i)
{
	if (i < 8)
		return i;
	return i < 8 + 29 ? 1u << (i - 8 + 3) : ~0u;
}

static void flags(struct rnd *g)
{
	struct vk_result *r = add(g, "flags");

	for (unsigned i = 0; i < 8 + 29 + 1; i++) {
		unsigned f = nth_flags(i);
		ssize_t rs = g->sys(g->buf, 16, f, NULL, 0);
		ssize_t rx = call(g, g->buf, 16, f);

		r->calls++;
		if (rs != rx) {
			vk_result_fail(g->v->rs, r, "flags %#x: %s returned %zd, the syscall %zd",
				       f, vk_path_name(g->p), rx, rs);
			vk_result_returns(r, rx, rs);
			vk_result_plain(r, f, rx, rs);
			vk_result_case(r, "flags %#x", f);
		}
	}
}

/* What statistics draws with: LTP getrandom02's four, and GRND_INSECURE,
 * what the vDSO is for. The ones with GRND_RANDOM come last. */
static const unsigned stat_flags[] = {
	0, GRND_NONBLOCK, GRND_INSECURE, GRND_RANDOM, GRND_RANDOM | GRND_NONBLOCK,
};
static const char *const stat_names[] = {
	"0", "NONBLOCK", "INSECURE", "RANDOM", "RANDOM|NONBLOCK",
};

/* Whether GRND_RANDOM reads the CRNG, as since Linux 5.6, and not a
 * blocking pool that may make a draw wait: 4 KiB without blocking. */
static int random_is_crng(const struct rnd *g)
{
	return g->sys(g->buf, 4096, GRND_RANDOM | GRND_NONBLOCK, NULL, 0) == 4096;
}

/* 1 MiB drawn 4 KiB a call with flags; 0, or -1 with the failure said. */
static int draw_stats(struct rnd *g, struct vk_result *r, size_t k)
{
	char why[160];

	for (size_t off = 0; off < VK_RANDOMNESS_BYTES; off += 4096) {
		ssize_t got = call(g, g->buf + off, 4096, stat_flags[k]);

		r->calls++;
		if (got != 4096) {
			vk_result_fail(g->v->rs, r, "not tested: asked for 4096 bytes with flags %s, %s returned %zd",
				       stat_names[k], vk_path_name(g->p), got);
			return -1;
		}
	}
	switch (vk_randomness_judge(g->buf, VK_RANDOMNESS_BYTES, why, sizeof(why))) {
	case 0:
		return 0;
	case VK_RANDOMNESS_UNJUDGED:
		vk_result_error(g->v->rs, r, "%s", why);
		return -1;
	}
	vk_result_fail(g->v->rs, r, "%s drew 1 MiB with flags %s that fails %s", vk_path_name(g->p),
		       stat_names[k], why);
	return -1;
}

/* 1 MiB with each of stat_flags, judged as a random source must be. */
static void statistics(struct rnd *g)
{
	struct vk_result *r = add(g, "statistics");
	size_t n = ARRAY_SIZE(stat_flags);

	if (!random_is_crng(g))
		n = 3;
	for (size_t k = 0; k < n; k++)
		if (draw_stats(g, r, k))
			return;
	snprintf(r->detail, sizeof(r->detail), "1 MiB with each of flags 0, NONBLOCK, INSECURE%s",
		 n == 3 ? "; not RANDOM: it drew from a blocking pool here (before Linux 5.6)" :
			  ", RANDOM, RANDOM|NONBLOCK");
}

/* 16 bytes into buf, one call counted on r; 0 and r failed if it failed. */
static int draw_16(const struct rnd *g, struct vk_result *r, unsigned char *buf)
{
	ssize_t got = call(g, buf, 16, 0);

	if (got == 16) {
		r->calls++;
		return 1;
	}
	vk_result_fail(g->v->rs, r, "a draw of 16 bytes: %s returned %zd", vk_path_name(g->p), got);
	return 0;
}

static void differs(struct rnd *g)
{
	struct vk_result *r = add(g, "differs");
	unsigned char a[16], b[16];

	if (!draw_16(g, r, a) || !draw_16(g, r, b))
		return;
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
	ssize_t got = -1, drew;
	char how[64];
	pid_t pid;

	/* Before fork(): the state the two must not share is filled. */
	call(g, mine, sizeof(mine), 0);
	if (pipe(fds)) {
		vk_result_error(g->v->rs, r, "not tested: vdsokit's pipe() failed: %s", strerror(errno));
		return;
	}
	pid = vk_fork();
	err = errno;
	if (pid == 0) {
		close(fds[0]);
		_exit(call(g, theirs, sizeof(theirs), 0) != sizeof(theirs) ||
		      write(fds[1], theirs, sizeof(theirs)) != sizeof(theirs));
	}
	close(fds[1]);
	drew = call(g, mine, sizeof(mine), 0);
	if (pid > 0) {
		got = read(fds[0], theirs, sizeof(theirs));
		vk_waitpid(pid, &status, 0);
	}
	close(fds[0]);
	ended(status, how, sizeof(how));
	if (pid < 0)
		vk_result_error(g->v->rs, r, "not tested: vdsokit's fork() failed: %s", strerror(err));
	else if (drew != sizeof(mine))
		vk_result_fail(g->v->rs, r, "the parent's draw of 32 bytes after fork(): %s returned %zd",
			       vk_path_name(g->p), drew);
	else if (got != sizeof(theirs))
		vk_result_fail(g->v->rs, r, "the child gave no 32 bytes after fork(): it %s", how);
	else if (!memcmp(mine, theirs, sizeof(mine)))
		vk_result_fail(g->v->rs, r, "parent and child drew the same 32 bytes after fork()");
	else
		r->calls = 2;
}

/* The vDSO needs no file descriptor: a draw with RLIMIT_NOFILE at 0. */
static void no_files(struct rnd *g)
{
	struct vk_result *r = add(g, "no-files");
	struct rlimit old, none;
	ssize_t got;

	if (getrlimit(RLIMIT_NOFILE, &old)) {
		vk_result_error(g->v->rs, r, "not tested: getrlimit() failed: %s", strerror(errno));
		return;
	}
	none = old;
	none.rlim_cur = 0;
	if (setrlimit(RLIMIT_NOFILE, &none)) {
		vk_result_error(g->v->rs, r, "not tested: setrlimit() failed: %s", strerror(errno));
		return;
	}
	got = call(g, g->buf, 64, 0);
	setrlimit(RLIMIT_NOFILE, &old);
	r->calls = 1;
	if (got != 64)
		vk_result_fail(g->v->rs, r, "with RLIMIT_NOFILE at 0, %s returned %zd for 64 bytes",
			       vk_path_name(g->p), got);
}

#define NTHREADS 4
#define THREAD_CALLS 256

struct drawer {
	const struct rnd *g;
	void *state;		/* its own, or NULL on a stateless path */
	unsigned char first[32];
	ssize_t bad;		/* a return other than the length asked, or 0 */
	atomic_int *stop;	/* if set, draw until it is non-zero */
	pthread_t thread;
};

static void *draw(void *arg)
{
	struct drawer *d = arg;
	unsigned char buf[64];

	for (int i = 0; d->stop ? !atomic_load(d->stop) : i < THREAD_CALLS; i++) {
		ssize_t got = d->g->fn(buf, sizeof(buf), 0, d->state, d->g->state_len);

		if (got != sizeof(buf) && !d->bad)
			d->bad = got ? got : -1;
		if (i == 0 && got == sizeof(buf))
			memcpy(d->first, buf, sizeof(d->first));
	}
	return NULL;
}

/* A state of its own for each thread, as a libc hands them out. */
static void *thread_state(const struct rnd *g)
{
	void *s;

	if (!g->state)
		return NULL;
	s = mmap(NULL, sysconf(_SC_PAGESIZE), g->params.mmap_prot, g->params.mmap_flags, -1, 0);
	return s == MAP_FAILED ? NULL : s;
}

static void thread_states(struct rnd *g)
{
	struct vk_result *r = add(g, "thread-states");
	struct drawer d[NTHREADS] = { 0 };
	int started = 0, err = 0;

	for (; started < NTHREADS; started++) {
		d[started].g = g;
		d[started].state = thread_state(g);
		if (g->state && !d[started].state) {
			err = errno;
			break;
		}
		err = pthread_create(&d[started].thread, NULL, draw, &d[started]);
		if (err)
			break;
	}
	for (int i = 0; i < started; i++)
		pthread_join(d[i].thread, NULL);
	r->calls = (unsigned long)started * THREAD_CALLS;
	if (started < NTHREADS)
		vk_result_error(g->v->rs, r, "not tested: vdsokit could not start %d threads: %s",
			       NTHREADS, strerror(err));
	for (int i = 0; i < started; i++) {
		if (d[i].bad) {
			vk_result_fail(g->v->rs, r, "thread %d, with a state of its own: %s returned %zd for 64 bytes",
				       i, vk_path_name(g->p), d[i].bad);
			continue;
		}
		for (int j = 0; j < i; j++)
			if (!d[j].bad)
			if (!memcmp(d[i].first, d[j].first, sizeof(d[i].first)))
				vk_result_fail(g->v->rs, r, "threads %d and %d drew the same first 32 bytes", j, i);
	}
	for (int i = 0; i < NTHREADS; i++)
		if (d[i].state)
			munmap(d[i].state, sysconf(_SC_PAGESIZE));
}

static void draw_32(void *ctx, int fd)
{
	const struct rnd *g = ctx;
	unsigned char theirs[32];

	if (call(g, theirs, sizeof(theirs), 0) == sizeof(theirs))
		vk_write_all(fd, theirs, sizeof(theirs));
}

#define FORK_TIMEOUT 5.0

/* fork() while another thread draws: the child, left with one thread and
 * whatever that thread held, still draws, and not the parent's bytes. */
static void fork_drawing(struct rnd *g)
{
	struct vk_result *r = add(g, "fork-drawing");
	atomic_int stop = 0;
	struct drawer d = { .g = g, .state = thread_state(g), .stop = &stop };
	struct vk_isolated out = { 0 };
	unsigned char mine[32];
	char how[128];
	ssize_t drew;
	int err;

	if (g->state && !d.state) {
		vk_result_error(g->v->rs, r, "not tested: vdsokit's mmap() failed: %s", strerror(errno));
		return;
	}
	err = pthread_create(&d.thread, NULL, draw, &d);
	if (err) {
		vk_result_error(g->v->rs, r, "not tested: vdsokit could not start a thread: %s", strerror(err));
	} else {
		err = vk_isolate(draw_32, g, FORK_TIMEOUT, &out);
		drew = call(g, mine, sizeof(mine), 0);
		atomic_store(&stop, 1);
		pthread_join(d.thread, NULL);
		r->calls = 2;
		if (err) {
			vk_isolate_not_tested(&out, how, sizeof(how));
			vk_result_error(g->v->rs, r, "%s", how);
		} else if (drew != sizeof(mine)) {
			vk_result_fail(g->v->rs, r, "the parent's draw of 32 bytes while a thread drew: %s returned %zd",
				       vk_path_name(g->p), drew);
		} else if (out.len != sizeof(mine) || !out.exited || out.exit_status) {
			vk_isolated_describe(&out, FORK_TIMEOUT, how, sizeof(how));
			vk_result_fail(g->v->rs, r, "the child of a fork() while a thread drew gave no 32 bytes: %s",
				       how);
		} else if (!memcmp(out.data, mine, sizeof(mine))) {
			vk_result_fail(g->v->rs, r, "parent and child drew the same 32 bytes after a fork() while a thread drew");
		}
		vk_isolated_free(&out);
	}
	if (d.state)
		munmap(d.state, sysconf(_SC_PAGESIZE));
}

/* A state that crosses a page boundary gets -EFAULT. */
static void straddle(struct rnd *g)
{
	struct vk_result *r = add(g, "straddle");
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *map = mmap(NULL, 2 * page, g->params.mmap_prot, g->params.mmap_flags, -1, 0);
	ssize_t ret;

	if (map == MAP_FAILED) {
		vk_result_error(g->v->rs, r, "not tested: vdsokit's mmap() of two pages failed: %s",
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

void vk_verify_getrandom(struct vk_verify *v, enum vk_func f, enum vk_path p)
{
	struct rnd g = {
		.v = v,
		.p = p,
		.fn = v->cs->fn[p][f].getrandom,
		.sys = v->cs->fn[VK_PATH_SYSCALL][f].getrandom,
	};

	int stateful = p == VK_PATH_VDSO || p == VK_PATH_IMPL;
	const char *refused = vk_threads_refused();
	static const char *const rules[] = {
		"length", "flags", "statistics", "differs", "fork", "no-files", "thread-states",
		"fork-drawing", "straddle",
	};
	static void (*const steps[])(struct rnd *) = {
		lengths, flags, statistics, differs, after_fork, no_files, thread_states, fork_drawing,
	};

	if (!vk_crng_ready()) {
		for (size_t i = 0; i < ARRAY_SIZE(rules); i++)
			vk_result_skip(add(&g, rules[i]), VK_CRNG_NOT_READY);
		return;
	}
	g.buf = malloc(BUFLEN);
	g.same = malloc(BUFLEN);
	if (!g.buf || !g.same) {
		vk_result_error(v->rs, add(&g, "length"), "not tested: vdsokit could not allocate %u bytes",
			       BUFLEN);
		free(g.buf);
		free(g.same);
		return;
	}
	/* A failed query is its own failure; the rules need its state. */
	if (stateful && get_state(&g)) {
		free(g.buf);
		free(g.same);
		return;
	}
	/* A crash in one rule must not take the others' results with it. */
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++) {
		if (refused && (steps[i] == thread_states || steps[i] == fork_drawing))
			vk_result_skip(add(&g, rules[i]), "%s", refused);
		else
			steps[i](&g);
		vk_verify_settled(v);
	}
	if (stateful)
		straddle(&g);
	else
		vk_result_skip(add(&g, "straddle"), "the %s path takes no state", vk_path_name(p));
	if (g.state)
		munmap(g.state, sysconf(_SC_PAGESIZE));
	free(g.buf);
	free(g.same);
}

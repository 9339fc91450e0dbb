// SPDX-License-Identifier: MIT
/*
 * The stack rule: the most stack a function uses on a path. Runtimes call
 * the vDSO on small stacks; in Go's issue 20427 a vDSO built with
 * -fstack-check probed 4 KiB below its frame, past the end of Go's. The
 * calls run in a thread whose stack is a painted region above PROT_NONE
 * guard pages (a thread's stack is ours to give on every libc, where
 * makecontext() is not). What it used is how much deeper the lowest
 * touched byte lies than when the same code calls nothing.
 *
 * A probe that writes back the byte it read leaves the paint as it was,
 * and a read leaves no trace at all, so the region below the calling
 * frame is also closed (PROT_NONE) while they run, the calls starting
 * just above a page boundary: each first touch of a page faults, and the
 * handler, on an alternate stack, opens the page and notes the address.
 * The paint then gives the lowest byte written within the pages opened.
 * A probe far below, past the region, lands on the guard pages and is a
 * failure that says how far below.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/base/isolate.h"
#include "core/base/sysinfo.h"
#include "core/call/targets.h"
#include "core/verify/verify_shared.h"

#define STACK (256 * 1024)
#define GUARD (1024 * 1024)	/* PROT_NONE below it: a probe that far is named */
#define ROUNDS 3		/* calls of each clock, or of the function */
#define TIMEOUT 5.0
#define SLACK 256		/* below the calling frame, open: a read there is unseen */

size_t vk_stack_used(const unsigned char *stack, size_t len, unsigned char paint)
{
	size_t i = 0;

	while (i < len && stack[i] == paint)
		i++;
	return len - i;
}

struct probe {
	union vk_fn fn;
	const struct vk_target *t;
	void *state;		/* getrandom's, where the path has one */
	size_t state_len;
	int call;		/* 0: the same code, calling nothing */
	unsigned long long calls;
};

/* noinline: the calls' frames the same with and without the call. */
static __attribute__((noinline)) void call_all(struct probe *pr)
{
	struct vk_kts64 ts;
	struct vk_ktv tv;
	int tz[2];
	unsigned cpu, node;
	vk_klong t;
	unsigned char buf[16];

	for (int i = 0; i < ROUNDS; i++) {
		switch (vk_funcs[pr->t->func].shape) {
		case VK_SHAPE_CLOCK_TS:
			for (int c = 0; c < pr->t->nclocks; c++, pr->calls++)
				if (pr->call)
					pr->fn.clock(pr->t->clocks[c].id, &ts);
			continue;
		case VK_SHAPE_TV_TZ:
			if (pr->call)
				pr->fn.tod(&tv, tz);
			break;
		case VK_SHAPE_TIME:
			if (pr->call)
				pr->fn.time(&t);
			break;
		case VK_SHAPE_GETCPU:
			if (pr->call)
				pr->fn.getcpu(&cpu, &node, NULL);
			break;
		case VK_SHAPE_GETRANDOM:
			if (pr->call)
				pr->fn.getrandom(buf, sizeof(buf), 0, pr->state, pr->state_len);
			break;
		default:
			break;
		}
		pr->calls++;
	}
}

/* What the measuring child tells: bytes used, or a fault. */
struct answer {
	size_t used;		/* below the top, by the calls */
	size_t base;		/* below the top, by the same code calling nothing */
	unsigned long long calls;
	int fault;		/* a fault at addr, maybe on the guard pages */
	int on_guard;
	uintptr_t addr, top;	/* the fault's, and the stack's top */
};

/* The thread's stack, and what a fault handler needs to answer. */
static unsigned char *guard, *top;
static const struct probe *probing;
static struct answer answer;
static int answer_fd;
static size_t page;

/* The pages closed below the calling frame, and the lowest address a
 * fault on them opened: volatile, as the handler changes them. */
static volatile uintptr_t closed_lo, closed_hi, lowest;

/* A first touch of a closed page: open it and note where. 1: it was one. */
static int open_page(uintptr_t at)
{
	uintptr_t pg = at & ~(uintptr_t)(page - 1);

	if (at < closed_lo || at >= closed_hi || mprotect((void *)pg, page, PROT_READ | PROT_WRITE))
		return 0;
	if (at < lowest)
		lowest = at;
	return 1;
}

/* Async-signal-safe: mprotect(), stores, write() and _exit() alone; the
 * errno of the code it interrupted kept. */
static void on_fault(int sig, siginfo_t *si, void *uc)
{
	unsigned char *at = si->si_addr;
	int saved = errno;

	(void)sig;
	(void)uc;
	if (open_page((uintptr_t)at)) {
		errno = saved;
		return;
	}
	answer.fault = 1;
	answer.on_guard = at >= guard && at < guard + GUARD;
	answer.addr = (uintptr_t)at;
	answer.calls = probing->calls + 1;
	vk_write_all(answer_fd, &answer, sizeof(answer));
	_exit(0);
}

/* Close the region's pages wholly below here; open them again. */
static void close_below(const void *here)
{
	uintptr_t hi = (uintptr_t)here & ~(uintptr_t)(page - 1), lo = (uintptr_t)(top - STACK);

	closed_lo = lo;
	closed_hi = hi;
	mprotect((void *)lo, hi - lo, PROT_NONE);
}

/* Cleared after: the call to mprotect() may fault on a closed page. */
static void open_all(void)
{
	mprotect((void *)closed_lo, closed_hi - closed_lo, PROT_READ | PROT_WRITE);
	closed_lo = closed_hi = 0;
}

static void *on_stack(void *ctx)
{
	static unsigned char alt[64 * 1024];
	stack_t ss = { .ss_sp = alt, .ss_size = sizeof(alt) }, old;
	/* Room that brings the calls' frames down to just above a page
	 * boundary, so that what stays open below them is about SLACK bytes,
	 * not up to a page. */
	volatile unsigned char room[(((uintptr_t)&ss - SLACK) & (page - 1)) + 1];

	/* The thread's own alternate stack is given back before it exits:
	 * a runtime that made one (ASan's) unmaps it then. Every page is
	 * open again before, as a fault without it could not be handled. */
	sigaltstack(&ss, &old);
	close_below((const void *)room);
	call_all(ctx);
	open_all();
	sigaltstack(&old, NULL);
	return NULL;
}

/* Bytes below the top of the stack painted with paint that a run in a
 * thread on it touched, written or faulted on; 0: none ran. */
static size_t run_painted(struct probe *pr, unsigned char paint)
{
	pthread_attr_t a;
	pthread_t th;
	size_t painted, faulted;
	int err;

	memset(top - STACK, paint, STACK);
	lowest = (uintptr_t)top;
	if (pthread_attr_init(&a) || pthread_attr_setstack(&a, top - STACK, STACK))
		return 0;
	err = pthread_create(&th, &a, on_stack, pr);
	pthread_attr_destroy(&a);
	if (err || pthread_join(th, NULL))
		return 0;
	painted = vk_stack_used(top - STACK, STACK, paint);
	faulted = (uintptr_t)top - lowest;
	return painted > faulted ? painted : faulted;
}

/* Under two paints: a byte written with one's value is seen by the other. */
static size_t run_on_stack(struct probe *pr)
{
	size_t a = run_painted(pr, 0xa5), b = run_painted(pr, 0x5a);

	return a && b ? (a > b ? a : b) : 0;
}

/* The runs: once first, on this child's own stack, and a thread that
 * calls nothing, as lazy binding's resolver and the first thread's exit
 * run then and are no call's; then the same code calling nothing and
 * calling. */
static void runs(struct probe *pr)
{
	pr->call = 1;
	call_all(pr);
	pr->call = 0;
	run_on_stack(pr);
	answer.base = run_on_stack(pr);
	pr->call = 1;
	pr->calls = 0;
	answer.used = run_on_stack(pr);
	answer.calls = pr->calls;
}

/* In a child, which a fault ends: the answer, or nothing where no thread ran. */
static void measure(void *ctx, int fd)
{
	struct sigaction sa = { .sa_sigaction = on_fault, .sa_flags = SA_SIGINFO | SA_ONSTACK };
	struct sigaction old_segv, old_bus;

	page = sysconf(_SC_PAGESIZE);
	guard = mmap(NULL, GUARD + STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (guard == MAP_FAILED || mprotect(guard, GUARD, PROT_NONE))
		return;
	top = guard + GUARD + STACK;
	probing = ctx;
	answer.top = (uintptr_t)top;
	answer_fd = fd;
	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGBUS, &sa, &old_bus);
	runs(ctx);
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
	munmap(guard, GUARD + STACK);
	if (answer.base && answer.used)
		vk_write_all(fd, &answer, sizeof(answer));
}

void vk_verify_stack(struct vk_verify *v, const struct vk_target *t, enum vk_path p)
{
	struct probe pr = { .fn = v->cs->fn[p][t->func], .t = t };
	struct vk_isolated out;
	struct answer a;
	struct vk_result *r;
	const char *refused;
	char name[40], why[64];

	vk_target_name(name, sizeof(name), t);
	r = vk_results_add(v->rs, name, p, "stack");
	if ((refused = vk_threads_refused())) {
		vk_result_skip(r, "%s", refused);
		return;
	}
	if (vk_funcs[t->func].shape == VK_SHAPE_GETRANDOM && p != VK_PATH_LIBC &&
	    p != VK_PATH_SYSCALL)
		vk_getrandom_state(pr.fn.getrandom, &pr.state, &pr.state_len);
	if (vk_isolate(measure, &pr, TIMEOUT, &out)) {
		char failed[160];

		vk_isolate_failure(&out, failed, sizeof(failed));
		vk_result_error(v->rs, r, "not tested: %s, for a child to measure in", failed);
		return;
	}
	if (out.len != sizeof(a) || !out.exited) {
		vk_isolated_describe(&out, TIMEOUT, why, sizeof(why));
		if (out.exited && !out.exit_status)
			vk_result_skip(r, "could not run a thread on a %d KiB stack above guard pages",
				       STACK / 1024);
		else
			vk_result_fail(v->rs, r, "the calls on a %d KiB stack %s", STACK / 1024, why);
		vk_isolated_free(&out);
		return;
	}
	memcpy(&a, out.data, sizeof(a));
	vk_isolated_free(&out);
	r->calls = a.calls;
	if (a.fault) {
		if (a.on_guard)
			vk_result_fail(v->rs, r, "touched the guard pages %lu bytes below the caller's frame, past the %d KiB stack it had",
				       (unsigned long)(a.top - a.base - a.addr), STACK / 1024);
		else
			vk_result_fail(v->rs, r, "a fault at %#lx, off its %d KiB stack",
				       (unsigned long)a.addr, STACK / 1024);
		return;
	}
	r->bound = VK_BOUND_STACK;
	r->bound_ns = a.used - a.base;
	if (v->max_stack && (unsigned long long)r->bound_ns > v->max_stack)
		vk_result_fail(v->rs, r, "%lld bytes, more than --max-stack %llu", r->bound_ns,
			       v->max_stack);
	else
		snprintf(r->detail, sizeof(r->detail), "%lld bytes", r->bound_ns);
}

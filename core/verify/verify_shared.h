/* SPDX-License-Identifier: MIT */
/*
 * What verify's driver (verify.c) and its families of checks
 * (verify_clock.c, verify_other.c, verify_random.c, verify_relations.c,
 * verify_threads.c, verify_stack.c, verify_mlock.c, verify_signals.c,
 * verify_aux.c, verify_vvar.c) share: the run's
 * settings, each family's entry, and the helpers in verify_shared.c. A
 * family includes this, never verify.h, so the driver sits above the
 * families and nothing calls back into it.
 */
#ifndef VK_VERIFY_SHARED_H
#define VK_VERIFY_SHARED_H

#include "core/call/call.h"
#include "core/base/isolate.h"
#include "core/result/result.h"
#include "core/call/targets.h"

struct vk_verify {
	const struct vk_callset *cs;
	struct vk_results *rs;
	double seconds;		/* budget per API and path */
	unsigned paths;		/* VK_PATH_BIT()s under test */
	int threads;		/* for the threads rule; 0: one per CPU */
	int64_t mono_offset;	/* inside a time namespace: its MONOTONIC offset, s */
	unsigned long long max_stack;	/* the stack rule's limit, bytes; 0: none */
	int aux;		/* enable, step and slew an aux clock (verify's own run) */
	/* vdsokit's verify command, to exec() afresh with a probe's
	 * arguments after it (the mlockall rule); NULL: no such rule. */
	char *const *exec_argv;
	int signals;		/* the signal rules (verify's own run) */
	/* --rules: rule i of vk_verify_rules runs where rules[i]; NULL: all. */
	const unsigned char *rules;
	/* Where set, told of each move between CPUs once made, with the
	 * function and line that made it: off CPU cpu, or (cpu -1) back to
	 * the CPUs the run began with. */
	void (*moved)(const char *fn, int line, int cpu);
	/* Where set, told that every result so far is final (a family calls
	 * vk_verify_settled() between its rules): the driver's child sends
	 * them then, so that a crash later loses none of them. */
	void (*settled)(void *ctx);
	void *settled_ctx;
};

/* The families, one file each. */
void vk_verify_clocks(struct vk_verify *v, const struct vk_target *t, enum vk_path p);
void vk_verify_getres(struct vk_verify *v, const struct vk_target *t, enum vk_path p);
void vk_verify_relations(struct vk_verify *v, const struct vk_target *t, enum vk_path p);
void vk_verify_threads(struct vk_verify *v, const struct vk_target *t, enum vk_path p);
/* Those of the functions that take no clock: f is the target's function,
 * of the family's kind, whose rules are named by the family. */
void vk_verify_gettimeofday(struct vk_verify *v, enum vk_func f, enum vk_path p);
void vk_verify_time(struct vk_verify *v, enum vk_func f, enum vk_path p);
void vk_verify_getcpu(struct vk_verify *v, enum vk_func f, enum vk_path p);
void vk_verify_getrandom(struct vk_verify *v, enum vk_func f, enum vk_path p);
void vk_verify_stack(struct vk_verify *v, const struct vk_target *t, enum vk_path p);
void vk_verify_aux(struct vk_verify *v, const struct vk_target *t, enum vk_path p);
/* Whether vk_verify_aux may enable one of t's clocks: the process that
 * disables it again then may outlive the child the checks ran in. */
int vk_verify_aux_may_enable(const struct vk_verify *v, const struct vk_target *t);
/* Of nt targets at once, as it waits for their clocks' boundaries. */
#define VK_EDGE_SECONDS 10
void vk_verify_edge(struct vk_verify *v, const struct vk_target *t, int nt, enum vk_path p);
void vk_verify_mlock(struct vk_verify *v, const struct vk_target *t, enum vk_path p);
void vk_verify_signals(struct vk_verify *v, const struct vk_target *t, enum vk_path p);

/* What t's results are named: its API where it is one clock's ("clock-
 * gettime-monotonic"), else its function, whose clocks would repeat it. */
void vk_target_name(char *buf, size_t len, const struct vk_target *t);
/* One plain call of fn, function f: clock (for the clock functions),
 * every pointer valid, getrandom's 16 bytes with its state. Its return. */
long vk_call_once(union vk_fn fn, enum vk_func f, int clock, void *state, size_t state_len);

/*
 * The mlockall rule's judgement of faults, the minor page faults of a
 * function's first call after mlockall(MCL_CURRENT | MCL_FUTURE), which
 * failed with lock_errno (0: it locked). promised: the kernel prefaults
 * the vDSO's data then (vk_mlock_promised()). Fails only where promised.
 */
enum vk_status vk_mlock_judge(int promised, int lock_errno, long faults, char *detail,
			      size_t len);
/* Whether a kernel of this release (uname's "7.3.0-1-amd64") prefaults the
 * vDSO's data on mlockall(): Linux 7.3 does (c27e727c9a60), and later. */
int vk_mlock_promised(const char *release);

/*
 * The vvar-pages rule (verify_vvar.c): the vdso path's data pages, [vvar],
 * each read in a child. vk_vvar_pages() gives each of the npages at base
 * its outcome: VK_VVAR_DATA, VK_VVAR_ZERO (every byte 0), or the signal
 * that killed its reader; 0, or -1 where it could not fork or wait.
 * vk_vvar_judge(): a SIGBUS fails where promised (vk_mlock_promised():
 * 7.3 maps zeroed pages instead, 43648f9f3a67), else is a SKIP naming the
 * pages; another signal fails.
 */
#define VK_VVAR_ZERO 0
#define VK_VVAR_DATA (-1)
#define VK_VVAR_MAX_PAGES 64
int vk_vvar_pages(const unsigned char *base, size_t npages, int *outcome);
enum vk_status vk_vvar_judge(int promised, const int *outcome, size_t n, char *detail, size_t len);
void vk_verify_vvar(struct vk_verify *v, const struct vk_target *t);

/* The calling thread on cpu alone, where the kernel lets it; -1: left as it is. */
void vk_pin_thread(int cpu);

/* Between two rules of a family: the results so far are final. */
void vk_verify_settled(struct vk_verify *v);

/* Of a stack painted with paint, len bytes from its lowest, how many
 * from the top down to the lowest byte that no longer holds the paint. */
size_t vk_stack_used(const unsigned char *stack, size_t len, unsigned char paint);

/*
 * The threads rule must see a thread whose clock runs this far (ns)
 * behind another's: the library of issue 22 ran tens of microseconds
 * late, the planted tests/impl/bug-thread-late.c runs 50 us late.
 */
#define VK_THREADS_SKEW 10000
/*
 * Of n threads' tightest hand-offs, tightest[to * n + from] (ns, INT64_MAX
 * where none was seen), the loosest pair's, and that pair.
 */
int64_t vk_threads_reach(const int64_t *tightest, int n, int *from, int *to);
/* VK_PASS where every pair came within VK_THREADS_SKEW, else VK_SKIP;
 * detail says what the run could detect. */
enum vk_status vk_threads_judge(const int64_t *tightest, int n, char *detail, size_t len);

/*
 * The ordered rule (syscall, path, syscall read in turn: the path's
 * reading between the two) sees a path off by more than the tightest
 * such bracket; it must see one off by this much (ns), the threads
 * rule's skew.
 */
#define VK_ORDERED_BOUND VK_THREADS_SKEW
/* VK_PASS where the tightest bracket (ns, INT64_MAX: none) was under
 * VK_ORDERED_BOUND, else VK_SKIP; detail says what the run could detect. */
enum vk_status vk_ordered_judge(int64_t tightest, char *detail, size_t len);

/*
 * coarse-step's judgement of n steps of coarse clock id, whose resolution
 * is res (ns): VK_FAIL only for what the kernel promises, VK_PASS with a
 * note in detail (or none) for a step of part of a resolution.
 */
enum vk_status vk_coarse_steps_judge(int id, int64_t res, const int64_t *steps, int n,
				     char *detail, size_t len);

/* A clock reading in a width-neutral form. */
struct vk_ts {
	int64_t sec;
	int64_t nsec;
};
int vk_clock_call(vk_clock_fn fn, int time64, clockid_t id, struct vk_ts *ts);
int64_t vk_ts_ns(const struct vk_ts *ts);
/* The syscall's reading of clock id, ns, in whichever width this ABI has;
 * INT64_MIN where it fails. */
int64_t vk_sys_clock_ns(const struct vk_verify *v, clockid_t id);
/* A call that may crash, made in a child: 0 and its value, or -1 and why
 * (how it died), or VK_GUARD_NOT_RUN and why: vdsokit could not fork. */
#define VK_GUARD_NOT_RUN (-2)
int vk_guarded(long (*call)(void *ctx), void *ctx, long *ret, char *why, size_t len);

#endif /* VK_VERIFY_SHARED_H */

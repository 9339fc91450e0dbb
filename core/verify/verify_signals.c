// SPDX-License-Identifier: MIT
/*
 * The signals rules: a signal that lands inside a call, as Go's profiler
 * sends them (Go issues 24925, 40697, 55073). A timer signals the calling
 * thread again and again, re-armed from its handler after a short random
 * delay (so that the calls go on however slow the handler is, as under
 * TCG); the handler finds the interrupted PC with the platform's unwinder
 * (_Unwind_Backtrace), and where it lies inside the call (in the vDSO, in
 * the --impl library's code, or below the call's return address), it
 *   signal-call    calls the same function, which must return what its
 *                  plain call does, a reading between two of the
 *                  syscall's; a function that holds a lock across the
 *                  call deadlocks, which the child's watchdog names;
 *   signal-unwind  unwinds from the interrupted frame, which must reach
 *                  the call's return address in the caller. Where it
 *                  stops at code that no unwind information (FDE) covers,
 *                  the code carries none there, which no kernel promises
 *                  everywhere (arm64's vDSO has no .eh_frame by design,
 *                  87676cfca141): that is a SKIP naming the code. Where
 *                  unwind information led it elsewhere, it is wrong: a
 *                  failure.
 * The run ends after HITS signals landed inside, however long they take
 * to, or at a deadline in the child's CPU time, which a loaded machine
 * does not shorten: fewer than MIN_HITS compared too little to pass.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>

#include "core/base/isolate.h"
#include "core/image/image.h"
#include "core/verify/verify_shared.h"

#define VK_NO_UNWINDER "not tested: this build links no unwinder (libgcc's _Unwind_Backtrace)"

#ifdef VK_HAVE_UNWIND
#include <link.h>
#include <ucontext.h>
#include <unwind.h>
#ifndef VK_STATIC
#include <dlfcn.h>
#endif

#define HITS 64			/* signals inside the call: enough, however slow */
#define MIN_HITS 16		/* fewer compared too little to pass */
#define SIGNALS (50 * HITS)	/* in all: where they do not land inside */
#define DEADLINE 2.0		/* s of the child's CPU time: where few land inside */
#define TIMEOUT 5.0		/* s of CPU: a deadlock */
#define FRAMES 64

#ifdef VK_HAVE_FIND_FDE
/* The unwinder's own lookup of the FDE that covers a PC (libgcc's, and
 * LLVM libunwind's): not declared in <unwind.h>. arm's EHABI unwinder
 * has none. */
struct vk_eh_bases {
	void *tbase, *dbase, *func;
};
extern const void *_Unwind_Find_FDE(void *pc, struct vk_eh_bases *bases);
#endif

/* The interrupted PC from the signal's context, on the arches whose
 * libgcc marks no frame as the signal's (arm's EHABI unwinder, mips's):
 * 0 elsewhere, where the unwinder tells it. */
static uintptr_t context_pc(const void *uc)
{
#if defined(__arm__)
	return ((const ucontext_t *)uc)->uc_mcontext.arm_pc;
#elif defined(__mips__)
	return ((const ucontext_t *)uc)->uc_mcontext.pc;
#else
	(void)uc;
	return 0;
#endif
}

/* What the child tells. */
struct answer {
	unsigned long long signals, inside, calls, unwound;
	unsigned long long bad_calls;
	unsigned long long wrong;	/* unwinding went astray or stopped where an FDE covers */
	unsigned long long no_info;	/* it stopped at code no FDE covers */
	unsigned long long no_frame;	/* signals where the unwinder found no signal frame */
	unsigned long long by_context;	/* of those, where the signal's context gave the PC */
	unsigned long long blind;	/* inside, known from the context alone: not unwound */
	int no_lookup;		/* the stop was not looked up: no _Unwind_Find_FDE */
	int calibrated;		/* the caller's return address was found */
	char call_why[256];	/* the first wrong result in the handler */
	char unwind_why[400];	/* the first stop of the kind judged */
	uintptr_t bad_pc, bad_end;	/* the first wrong: its PC and last frame, */
	uintptr_t bad_prev;	/* the frame before the last */
	int astray;		/* or none: the walk reached FRAMES */
	uintptr_t gap_pc, gap_end;	/* the first stop at code without an FDE */
};

/* In shared memory: whether the child was in the handler's call. */
struct shared {
	volatile int in_call;
};

struct run {
	union vk_fn fn, sys;
	enum vk_func f;
	int time64;
	const struct vk_target *t;
	uintptr_t lo, hi;	/* a PC inside the call */
	const struct vk_image *im;	/* the live vDSO, to name a PC in */
	void *state;
	size_t state_len;
	struct shared *sh;
};

static struct run *running;
static struct answer ans;
static uintptr_t ret_addr;	/* where the call returns to in its caller */
static volatile int stop, calling;	/* calling: in call(), on the path */
static unsigned rnd = 12345;

/* Walk of the unwinder: the frames' IPs, and the signal frame's index. */
struct walk {
	uintptr_t ip[FRAMES];
	int n, sig;
};

static _Unwind_Reason_Code step(struct _Unwind_Context *ctx, void *arg)
{
	struct walk *w = arg;
	int before = 0;
	uintptr_t ip = _Unwind_GetIPInfo(ctx, &before);

	if (w->n == FRAMES)
		return _URC_END_OF_STACK;
	if (before && w->sig < 0)
		w->sig = w->n;
	w->ip[w->n++] = ip;
	return _URC_NO_REASON;
}

static inline __attribute__((always_inline)) void walk(struct walk *w)
{
	w->n = 0;
	w->sig = -1;
	_Unwind_Backtrace(step, w);
}

/* The calibrators: called from the call's own site, they note the
 * caller's return address, the frame after theirs. */
static __attribute__((noinline)) void note_caller(void)
{
	struct walk w;

	walk(&w);
	/* Frames: note_caller, the calibrator, its caller. */
	if (w.n > 2)
		ret_addr = w.ip[2];
}

static int cal_clock(clockid_t c, void *ts)
{
	(void)c, (void)ts;
	note_caller();
	return 0;
}

static int cal_tod(void *tv, void *tz)
{
	(void)tv, (void)tz;
	note_caller();
	return 0;
}

static vk_klong cal_time(vk_klong *t)
{
	(void)t;
	note_caller();
	return 0;
}

static int cal_getcpu(unsigned *cpu, unsigned *node, void *cache)
{
	(void)cpu, (void)node, (void)cache;
	note_caller();
	return 0;
}

static ssize_t cal_getrandom(void *buf, size_t len, unsigned flags, void *state, size_t slen)
{
	(void)buf, (void)len, (void)flags, (void)state, (void)slen;
	note_caller();
	return 0;
}

static union vk_fn calibrator(enum vk_func f)
{
	union vk_fn fn;

	switch (vk_funcs[f].shape) {
	case VK_SHAPE_CLOCK_TS:
		fn.clock = cal_clock;
		break;
	case VK_SHAPE_TV_TZ:
		fn.tod = cal_tod;
		break;
	case VK_SHAPE_TIME:
		fn.time = cal_time;
		break;
	case VK_SHAPE_GETCPU:
		fn.getcpu = cal_getcpu;
		break;
	default:
		fn.getrandom = cal_getrandom;
		break;
	}
	return fn;
}

/* noinline: one call site, whose return address the calibrator notes. */
static __attribute__((noinline)) long call(const struct run *r, union vk_fn fn, int clock)
{
	long ret;

	calling = 1;
	ret = vk_call_once(fn, r->f, clock, r->state, r->state_len);
	calling = 0;
	return ret;
}

/* A reading and its return: value is ns, us or s, as the shape gives. */
static long reading(const struct run *r, union vk_fn fn, int clock, int64_t *value)
{
	struct vk_ts ts = { 0, 0 };
	struct vk_ktv tv = { 0, 0 };
	vk_klong t = 0;
	long ret;

	*value = INT64_MIN;
	switch (vk_funcs[r->f].shape) {
	case VK_SHAPE_CLOCK_TS:
		if (vk_funcs[r->f].kind != VK_KIND_GETTIME)
			break;
		ret = vk_clock_call(fn.clock, r->time64, clock, &ts);
		*value = vk_ts_ns(&ts);
		return ret;
	case VK_SHAPE_TV_TZ:
		ret = fn.tod(&tv, NULL);
		*value = (int64_t)tv.sec * 1000000 + tv.usec;
		return ret;
	case VK_SHAPE_TIME:
		/* Its return; what it stores is time-pointer's to check. */
		ret = fn.time(&t);
		*value = ret;
		return ret;
	default:
		break;
	}
	return vk_call_once(fn, r->f, clock, r->state, r->state_len);
}

/* The path's own return for each clock, outside any handler: where it
 * differs from the syscall's, that is errno's finding, not this rule's. */
static long plain[VK_MAX_CLOCKS];
static int clock_now;		/* the index of the clock being called */

static int clock_id(const struct run *r, int k)
{
	return r->t->nclocks ? r->t->clocks[k].id : 0;
}

/* In the handler: the call made again, against its own plain return and
 * the syscall's readings around it. */
static void call_again(const struct run *r, int k)
{
	int64_t a, x, b;
	long sa, rx;
	int clock = clock_id(r, k);

	sa = reading(r, r->sys, clock, &a);
	r->sh->in_call = 1;
	rx = reading(r, r->fn, clock, &x);
	r->sh->in_call = 0;
	reading(r, r->sys, clock, &b);
	ans.calls++;
	/* time() returns its reading, which the syscall's readings bracket. */
	if (vk_funcs[r->f].shape == VK_SHAPE_TIME ? a <= x && x <= b :
	    rx == plain[k] && (rx || sa || x == INT64_MIN || (a <= x && x <= b)))
		return;
	if (!ans.bad_calls++)
		snprintf(ans.call_why, sizeof(ans.call_why),
			 "clock %d: called from a signal handler that interrupted it, it returned %ld (reading %lld), where it returns %ld, and the syscall read %lld then %lld",
			 clock, rx, (long long)x, plain[k], (long long)a, (long long)b);
}

/* Where the code of impl's function fn lies: the executable segment of
 * the object that holds it. */
struct finding {
	uintptr_t at, lo, hi;
	int eh;			/* the object has a PT_GNU_EH_FRAME, not empty */
};

static int find_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct finding *f = arg;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && f->at >= lo &&
		    f->at < lo + ph->p_memsz) {
			f->lo = lo;
			f->hi = lo + ph->p_memsz;
		}
	}
	if (!f->hi)
		return 0;
	/* s390's 6.1 vDSO has one of size 0: no .eh_frame_hdr, so an
	 * unwinder finds none of the FDEs its .eh_frame holds. */
	for (int i = 0; i < info->dlpi_phnum; i++)
		f->eh |= info->dlpi_phdr[i].p_type == PT_GNU_EH_FRAME && info->dlpi_phdr[i].p_memsz;
	return 1;
}

/* Whether the unwinder can see the code at: its libc lists the object. */
static int listed(uintptr_t at, uintptr_t *lo, uintptr_t *hi)
{
	struct finding f = { at, 0, 0, 0 };

	if (!dl_iterate_phdr(find_object, &f))
		return 0;
	*lo = f.lo;
	*hi = f.hi;
	return 1;
}

/* Whether an FDE covers at; -1 where this build cannot look it up. */
static int has_fde(void *at)
{
#ifdef VK_HAVE_FIND_FDE
	struct vk_eh_bases b;

	return _Unwind_Find_FDE(at, &b) != NULL;
#else
	(void)at;
	return -1;
#endif
}

/* Where unwinding from a signal at pc stopped short of the caller. At
 * code that no FDE covers, the code carries no unwind information there,
 * which is not judged; anywhere else (at code an FDE covers, at what is
 * no code, or astray) the unwind information on the way led it wrong. */
static void note_stop(const struct walk *w, uintptr_t pc)
{
	uintptr_t end = w->ip[w->n - 1], lo, hi;
	/* A return address is looked up a byte back, as the unwinder does;
	 * the interrupted PC itself is not. */
	void *at = (void *)(w->n - 1 == w->sig ? end : end - 1);
	int fde;

	if (w->n < FRAMES && listed(end, &lo, &hi) && (fde = has_fde(at)) != 1) {
		ans.no_lookup |= fde < 0;
		if (!ans.no_info++) {
			ans.gap_pc = pc;
			ans.gap_end = end;
		}
	} else if (!ans.wrong++) {
		ans.bad_pc = pc;
		ans.bad_end = end;
		ans.bad_prev = w->ip[w->n > 1 ? w->n - 2 : 0];
		ans.astray = w->n == FRAMES;
	}
}

/* The next signal in 20-83 us: a random phase against the calls. */
static void arm(void)
{
	struct itimerval it = { { 0, 0 }, { 0, 20 } };

	rnd = rnd * 1103515245 + 12345;
	it.it_value.tv_usec += (rnd >> 16) & 63;
	if (!stop)
		setitimer(ITIMER_REAL, &it, NULL);
}

static void on_alarm(int sig, siginfo_t *si, void *uc)
{
	const struct run *r = running;
	struct walk w;
	uintptr_t pc;
	int saved = errno, i;

	(void)sig, (void)si;
	ans.signals++;
	walk(&w);
	if (w.sig >= 0) {
		pc = w.ip[w.sig];
		for (i = w.sig + 1; i < w.n && w.ip[i] != ret_addr; i++)
			;
	} else {
		ans.no_frame++;
		pc = context_pc(uc);
		i = w.n;
		if (!pc)
			goto out;
		ans.by_context++;
	}
	/* Inside: in the path's code, or below the call's return address,
	 * while call() calls it (not vdsokit's own reads of the clock). */
	if (!calling || ((pc < r->lo || pc >= r->hi) && i == w.n))
		goto out;
	ans.inside++;
	if (w.sig < 0)
		ans.blind++;
	else if (i < w.n)
		ans.unwound++;
	else
		note_stop(&w, pc);
	call_again(r, clock_now);
out:
	if (ans.inside >= HITS || ans.signals >= SIGNALS)
		stop = 1;
	arm();
	errno = saved;
}

/* "__vdso_clock_gettime+0x12", the symbol pc lies in, if one is known:
 * the vDSO's from its image, any other object's from the dynamic linker. */
static void name_pc(const struct run *r, uintptr_t pc, char *buf, size_t len)
{
	struct vk_elf_sym s;

	snprintf(buf, len, "%#lx", (unsigned long)pc);
	if (r->im && pc >= r->lo && pc < r->hi) {
		snprintf(buf, len, "the vDSO+%#lx", (unsigned long)(pc - r->lo));
		for (size_t i = 0; i < r->im->elf.nsyms; i++) {
			uintptr_t a;

			if (vk_elf_sym(&r->im->elf, i, &s) || !s.name || !*s.name || !s.size ||
			    !(a = (uintptr_t)vk_image_addr(r->im, &s)))
				continue;
			if (pc >= a && pc - a < s.size) {
				snprintf(buf, len, "%s+%#lx", s.name, (unsigned long)(pc - a));
				return;
			}
		}
		return;
	}
#ifndef VK_STATIC
	Dl_info di;

	if (!dladdr((void *)pc, &di))
		return;
	if (di.dli_sname)
		snprintf(buf, len, "%s+%#lx", di.dli_sname,
			 (unsigned long)(pc - (uintptr_t)di.dli_saddr));
	else if (di.dli_fname)
		snprintf(buf, len, "%s+%#lx", strrchr(di.dli_fname, '/') ?
			 strrchr(di.dli_fname, '/') + 1 : di.dli_fname,
			 (unsigned long)(pc - (uintptr_t)di.dli_fbase));
#endif
}

/* The first stop of the kind judged, in words, named now that the
 * handler is done: a wrong one, else one at code without an FDE. */
static void describe_unwind(const struct run *r)
{
	char pc[96], end[96], prev[96];
	uintptr_t lo, hi;
	struct finding f = { ans.gap_end, 0, 0, 0 };

	if (ans.wrong) {
		name_pc(r, ans.bad_pc, pc, sizeof(pc));
		name_pc(r, ans.bad_end, end, sizeof(end));
		name_pc(r, ans.bad_prev, prev, sizeof(prev));
		if (ans.astray)
			snprintf(ans.unwind_why, sizeof(ans.unwind_why),
				 "unwinding from %s went astray: %d frames, none its caller", pc, FRAMES);
		else if (!listed(ans.bad_end, &lo, &hi))	/* the frame before gave it */
			snprintf(ans.unwind_why, sizeof(ans.unwind_why),
				 "unwinding from %s reached %#lx, which is no code, from %s: the unwind information there is wrong",
				 pc, (unsigned long)ans.bad_end, prev);
		else
			snprintf(ans.unwind_why, sizeof(ans.unwind_why),
				 "unwinding from %s stopped at %s, which unwind information covers, short of the caller",
				 pc, end);
		return;
	}
	if (!ans.no_info)
		return;
	name_pc(r, ans.gap_pc, pc, sizeof(pc));
	name_pc(r, ans.gap_end, end, sizeof(end));
	if (ans.no_lookup) {
		snprintf(ans.unwind_why, sizeof(ans.unwind_why),
			 "unwinding from %s stopped at %s, short of the caller, and this build's unwinder cannot tell whether unwind information covers it (no _Unwind_Find_FDE)",
			 pc, end);
		return;
	}
	dl_iterate_phdr(find_object, &f);
	snprintf(ans.unwind_why, sizeof(ans.unwind_why), "no unwind information covers %s%s%s%s",
		 end, ans.gap_end == ans.gap_pc ? "" : " (a signal at ",
		 ans.gap_end == ans.gap_pc ? "" : pc, ans.gap_end == ans.gap_pc ? "" : ")");
	if (!f.eh)
		snprintf(ans.unwind_why + strlen(ans.unwind_why),
			 sizeof(ans.unwind_why) - strlen(ans.unwind_why),
			 ": its object gives an unwinder none at all (no PT_GNU_EH_FRAME, or an empty one)");
}

static double cpu_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void child(void *ctx, int fd)
{
	struct run *r = ctx;
	struct sigaction sa = { .sa_sigaction = on_alarm, .sa_flags = SA_SIGINFO };
	double deadline;
	int i = 0;

	running = r;
	for (int k = 0; k < r->t->nclocks; k++)
		plain[k] = call(r, r->fn, clock_id(r, k));
	if (!r->t->nclocks)
		plain[0] = call(r, r->fn, 0);
	call(r, calibrator(r->f), 0);
	ans.calibrated = ret_addr != 0;
	if (ans.calibrated) {
		sigemptyset(&sa.sa_mask);
		sigaction(SIGALRM, &sa, NULL);
		deadline = cpu_seconds() + DEADLINE;
		arm();
		while (!stop && cpu_seconds() < deadline) {
			for (int k = 0; k < 64 && !stop; k++) {
				clock_now = r->t->nclocks ? i % r->t->nclocks : 0;
				call(r, r->fn, clock_id(r, clock_now));
			}
			i++;
		}
		stop = 1;
		setitimer(ITIMER_REAL, &(struct itimerval){ { 0, 0 }, { 0, 0 } }, NULL);
		signal(SIGALRM, SIG_IGN);
	}
	describe_unwind(r);
	vk_write_all(fd, &ans, sizeof(ans));
}

static void judge_call(struct vk_results *rs, struct vk_result *r, const struct answer *a)
{
	r->calls = a->calls;
	/* A pass says nothing: the detail of a pass is a note in the report. */
	if (a->bad_calls)
		vk_result_fail(rs, r, "%s (wrong %llu times in %llu calls)", a->call_why,
			       a->bad_calls, a->calls);
}

/* Code without unwind information is not judged: the kernel promises
 * none (doc/skips.md), and an --impl library is held to what the kernel
 * is. Where too few signals were left to judge, that is a SKIP naming
 * the code; else a pass that notes it (i386's __x86.get_pc_thunk.* from
 * crt files has no FDE, and a signal lands in it now and then). */
static void judge_unwind(struct vk_results *rs, struct vk_result *r, const struct answer *a)
{
	r->calls = a->inside - a->blind;
	if (a->wrong)
		vk_result_fail(rs, r, "%s (%llu of %llu signals inside the call)", a->unwind_why,
			       a->wrong, a->inside);
	else if (a->blind && a->inside - a->blind < MIN_HITS)
		vk_result_skip(r, "not tested: this build's unwinder finds no signal frame (of %llu signals inside the call, %llu were known from the signal's context alone)",
			       a->inside, a->blind);
	else if (a->no_info && a->unwound < MIN_HITS)
		vk_result_skip(r, "not tested: %s, where %llu of %llu signals inside the call stopped",
			       a->unwind_why, a->no_info, a->inside);
	else if (a->no_info)
		snprintf(r->detail, sizeof(r->detail),
			 "%llu of %llu signals inside the call stopped where it is not judged: %s",
			 a->no_info, a->inside, a->unwind_why);
}

/* The child's answer in a and 0; else a failure or error of both, -1. */
static int run_child(struct vk_verify *v, struct run *run, struct vk_result *rc,
		     struct vk_result *ru, struct answer *a)
{
	struct vk_isolated out;
	char why[128];

	if (vk_isolate(child, run, TIMEOUT, &out)) {
		vk_isolate_failure(&out, why, sizeof(why));
		vk_result_error(v->rs, rc, "not tested: %s", why);
		vk_result_error(v->rs, ru, "%s", rc->detail);
		return -1;
	}
	if (out.len == sizeof(*a) && out.exited && !out.exit_status) {
		memcpy(a, out.data, sizeof(*a));
		vk_isolated_free(&out);
		return 0;
	}
	vk_isolated_describe(&out, TIMEOUT, why, sizeof(why));
	vk_isolated_free(&out);
	if (run->sh->in_call)
		vk_result_fail(v->rs, rc, "called from a signal handler that interrupted it, it %s: a deadlock, as of a lock held across the call",
			       out.timed_out ? "never returned" : why);
	else
		vk_result_fail(v->rs, rc, "the calls under signals %s", why);
	vk_result_skip(ru, "not tested: the calls under signals ended first");
	return -1;
}

static void judge(struct vk_verify *v, enum vk_path p, struct vk_result *rc,
		  struct vk_result *ru, const struct answer *a)
{
	if (!a->calibrated) {
		vk_result_skip(rc, "not tested: this build's unwinder could not unwind vdsokit's own call");
		vk_result_skip(ru, "%s", rc->detail);
	} else if (a->signals && a->no_frame == a->signals && !a->by_context) {
		vk_result_skip(rc, "not tested: this build's unwinder found no signal frame, so where %llu signals landed is unknown",
			       a->signals);
		vk_result_skip(ru, "%s", rc->detail);
	} else if (a->inside < MIN_HITS) {
		vk_result_skip(rc, "not tested: %llu of %llu signals landed inside the call (in %s, or below it), fewer than %d",
			       a->inside, a->signals, p == VK_PATH_IMPL ? "the library's code" : "the vDSO",
			       MIN_HITS);
		vk_result_skip(ru, "%s", rc->detail);
	} else {
		judge_call(v->rs, rc, a);
		judge_unwind(v->rs, ru, a);
	}
}

void vk_verify_signals(struct vk_verify *v, const struct vk_target *t, enum vk_path p)
{
	struct run run = { .fn = v->cs->fn[p][t->func], .sys = v->cs->fn[VK_PATH_SYSCALL][t->func],
			   .f = t->func, .time64 = vk_funcs[t->func].time64, .t = t };
	struct vk_result *rc, *ru;
	struct vk_image im;
	struct answer a;
	char name[40];

	/* The syscall's path is the kernel itself: no user code to land in. */
	if (!v->signals || p == VK_PATH_SYSCALL || p == VK_PATH_VSYSCALL)
		return;
	vk_target_name(name, sizeof(name), t);
	rc = vk_results_add(v->rs, name, p, "signal-call");
	ru = vk_results_add(v->rs, name, p, "signal-unwind");
	if (p == VK_PATH_IMPL) {
		if (!listed((uintptr_t)run.fn.p, &run.lo, &run.hi)) {
			vk_result_skip(rc, "not tested: the --impl library is not listed by dl_iterate_phdr()");
			vk_result_skip(ru, "%s", rc->detail);
			return;
		}
	} else if (vk_image_open_live(&im)) {
		vk_result_skip(rc, "not tested: no vDSO to land the signals in");
		vk_result_skip(ru, "%s", rc->detail);
		return;
	} else {
		uintptr_t lo, hi;

		run.im = &im;
		run.lo = (uintptr_t)im.elf.base;
		run.hi = run.lo + im.elf.size;
		/* The unwinder finds unwind information through the objects
		 * libc lists: a libc that lists no vDSO (static musl) hides
		 * the vDSO's, which is no fault of the vDSO's. */
		if (!listed(run.lo, &lo, &hi)) {
			vk_result_skip(rc, "not tested: this build's libc does not list the vDSO to its unwinder (dl_iterate_phdr)");
			vk_result_skip(ru, "%s", rc->detail);
			vk_image_close(&im);
			return;
		}
	}
	if (vk_funcs[t->func].shape == VK_SHAPE_GETRANDOM && p != VK_PATH_LIBC)
		vk_getrandom_state(run.fn.getrandom, &run.state, &run.state_len);
	run.sh = mmap(NULL, sizeof(*run.sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (run.sh == MAP_FAILED) {
		vk_result_error(v->rs, rc, "not tested: vdsokit could not map memory to share with the child: %s",
				strerror(errno));
		vk_result_error(v->rs, ru, "%s", rc->detail);
	} else {
		run.sh->in_call = 0;
		if (!run_child(v, &run, rc, ru, &a))
			judge(v, p, rc, ru, &a);
		munmap(run.sh, sizeof(*run.sh));
	}
	if (run.im)
		vk_image_close(&im);
}

#else /* !VK_HAVE_UNWIND */

void vk_verify_signals(struct vk_verify *v, const struct vk_target *t, enum vk_path p)
{
	char name[40];

	if (!v->signals || p == VK_PATH_SYSCALL || p == VK_PATH_VSYSCALL)
		return;
	vk_target_name(name, sizeof(name), t);
	vk_result_skip(vk_results_add(v->rs, name, p, "signal-call"), VK_NO_UNWINDER);
	vk_result_skip(vk_results_add(v->rs, name, p, "signal-unwind"), VK_NO_UNWINDER);
}

#endif

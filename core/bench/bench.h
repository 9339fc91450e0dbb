/* SPDX-License-Identifier: MIT */
/*
 * bench: ns per call of one API on one path, measured as close to the
 * hardware's floor as this machine allows. A batch is a counted loop of
 * calls timed by the fenced counter of timer.h, long enough that the
 * counter's cost and granularity vanish in it; a sample is the fastest of
 * many batches (preemption and interrupts only ever slow a batch down).
 * Samples come in groups: the worker processes of one bench run, each a
 * fresh exec with its own address-space layout and page placement, or
 * the loaded copies of a library in compare. The figure is the median of
 * the groups' medians; its CI and CV are those of the group medians, the
 * spread a new process or a new load of the same code would see.
 */
#ifndef VK_BENCH_H
#define VK_BENCH_H

#include "core/call/call.h"
#include "core/bench/timer.h"

/*
 * A batch lasts at least this long: >= 1000 counter steps, granularity
 * < 0.1%. The text report names it, as what makes the figure unpreempted.
 */
#define VK_BENCH_BATCH_NS 20000.0
/* getrandom's bytes a call: bench --length, 1 to 1 MiB, 16 by default. */
#define VK_BENCH_RANDOM_LEN 16
#define VK_BENCH_MAX_RANDOM_LEN (1 << 20)
#define VK_BENCH_MAX_SAMPLES 512
#define VK_BENCH_MAX_GROUPS 64
#define VK_BENCH_MAX_CASES 256	/* APIs of one run */
#define VK_BENCH_MAX_THREADS 256	/* --threads */
/*
 * --threads' window lasts at least this long, s: several scheduler
 * slices, so that one slice more or less for a thread moves little. A
 * row's scaling is judged only where its threads held their CPUs this
 * share of the window at least (each thread's CPU time over its wall
 * time, their mean): below it they did not all run at once.
 */
#define VK_BENCH_THREAD_WINDOW 0.05
#define VK_BENCH_MIN_AT_ONCE 0.9

struct vk_bench_case {
	char api[40];		/* "clock-gettime-monotonic", "clock-getres-id:15" */
	enum vk_func func;
	int clock;		/* for the clock functions */
	size_t len;		/* getrandom's bytes a call; 0: VK_BENCH_RANDOM_LEN */
};

struct vk_bench_result {
	char api[40];
	enum vk_path path;
	const char *skipped;	/* why the path was not measured, or NULL */
	char why[128];		/* skipped's text: a worker process's, or a failure's */
	/*
	 * Calls that failed, of failed_of, and the last one's errno: a path
	 * whose calls fail has no figure, only these (and skipped says them
	 * in words, vk_bench_failed_why). call: the function, "clock_gettime".
	 */
	unsigned long long failed, failed_of;
	int err;
	const char *call;
	int crashed;		/* its worker process died measuring it: why says how */
	int own_error;		/* vdsokit could not start a worker for it: not
				 * measured for vdsokit's own error */
	double median, min, ci_lo, ci_hi, cv;	/* ns per call; cv in %; NAN: one group */
	double p90, p99;	/* --cold only */
	int n;			/* samples */
	int ngroups;		/* processes or copies; samples[] holds each in turn */
	int group_n[VK_BENCH_MAX_GROUPS];
	unsigned long batch;	/* calls per batch; 1 with --cold */
	int multimodal;
	unsigned long long calls;
	long involuntary_switches;	/* while measuring */
	double samples[VK_BENCH_MAX_SAMPLES];
	/*
	 * --threads: total calls per second of `threads` threads calling at
	 * once and of one thread, each process's (thr_n of them), their
	 * medians, the ns per call in each thread those give, and the
	 * scaling, all_per_s / one_per_s. threads 0: not measured. at_once:
	 * the share of the window the threads held their CPUs (thr_at_once,
	 * each process's; their median); below VK_BENCH_MIN_AT_ONCE they did
	 * not all run at once, and scaling is NAN: it cannot be judged.
	 */
	int threads, thr_n;
	double thr_all[VK_BENCH_MAX_GROUPS], thr_one[VK_BENCH_MAX_GROUPS];
	double thr_at_once[VK_BENCH_MAX_GROUPS];
	double all_per_s, one_per_s, thread_ns, scaling, at_once;
};

struct vk_bench {
	const struct vk_callset *cs;
	const struct vk_timer *timer;
	double seconds;		/* budget per API and path */
	int samples;
	int cold;		/* disturb caches and TLB before each call */
	int max_cold;		/* --cold's most samples (0: VK_BENCH_MAX_SAMPLES) */
	unsigned char *cold_buf;
	size_t cold_len;
};

int vk_bench_init(struct vk_bench *b);
/* Summarise r's samples, r->ngroups groups of r->group_n[] each. */
void vk_bench_summarize_groups(struct vk_bench_result *r);
/*
 * The machine's own speed, by three fixed loops that no change to the
 * vDSO or a library can speed up or slow down: ns per step of four chains
 * of dependent multiply-adds in registers, per load of a word from the L1
 * cache, and per getppid() syscall (the kernel's entry and exit, which a
 * vDSO never serves). The fastest of a few batches of each.
 */
enum vk_bench_ref_kind { VK_REF_CPU, VK_REF_LOADS, VK_REF_SYS, VK_REF_KINDS };

struct vk_bench_ref {
	double ns[VK_REF_KINDS];
};

/* r's failure in words, into r->why, and r skipped for it. */
void vk_bench_failed_why(struct vk_bench_result *r);

void vk_bench_reference(const struct vk_bench *b, struct vk_bench_ref *ref);
/* A random id for a bench run, 32 hex digits, into buf (33 bytes or more). */
void vk_bench_run_id(char *buf, size_t len);
void vk_bench_free(struct vk_bench *b);
void vk_bench_run(struct vk_bench *b, const struct vk_bench_case *c, enum vk_path p,
		  struct vk_bench_result *r);

/*
 * A/B: c on several sides measured in one process, their samples taken in
 * turn, so that the machine's drift between runs, which is larger than
 * many a change worth finding, does not enter their ratios. Each side is
 * one loaded copy of a library (or the vDSO): compare loads each library
 * several times, at other addresses, and sides alternate A, B, A, B. b->cs
 * and b->cold are not used. When any side cannot run, none is measured
 * and each result says why.
 */
struct vk_bench_side {
	const struct vk_callset *cs;
	enum vk_path path;
};

/*
 * Throughput under threads: n threads, thread i pinned to cpu[i], call c
 * on path p at once for b->seconds, VK_BENCH_THREAD_WINDOW at least, each
 * in batches of batch calls; their calls per second summed into *per_s,
 * and into *at_once the share of the window they held their CPUs (each
 * thread's CPU time over its wall time, their mean: near 1 when all ran
 * at once, near 1/n when they took turns on one CPU). 0, or -1 with why
 * in r->skipped (a thread that cannot start or be pinned).
 */
int vk_bench_threads(const struct vk_bench *b, const struct vk_bench_case *c, enum vk_path p,
		     int n, const int *cpu, unsigned long batch, double *per_s, double *at_once,
		     struct vk_bench_result *r);
/* r's thr_n processes' throughputs into its medians, thread_ns and scaling. */
void vk_bench_summarize_threads(struct vk_bench_result *r);

void vk_bench_run_sides(struct vk_bench *b, const struct vk_bench_case *c,
			const struct vk_bench_side *side, int nsides, struct vk_bench_result *r);

/* The loops that make the calls, one per function and per libc or not. */
struct vk_call_site {
	union vk_fn fn;		/* unused by the libc loops, which call libc */
	clockid_t clock;
	void *state;		/* getrandom's opaque state, or NULL */
	size_t state_len;
	struct vk_kts64 ts;	/* large enough for either timespec */
	struct vk_ktv tv;
	unsigned cpu, node;
	unsigned char *buf;	/* getrandom's, len bytes */
	size_t len;
	/*
	 * The errno the kernel's syscall answers this call with, 0 when it
	 * succeeds: failing so is the call's answer (an alarm clock without
	 * an RTC, an id no clock has), whose cost is then what is measured.
	 */
	int expect;
	unsigned long long calls, fails;	/* made by the loop, and of them failed otherwise */
	int err;		/* the last such failure's errno */
};

typedef void (*vk_loop)(struct vk_call_site *s, unsigned long n);
vk_loop vk_loop_for(enum vk_func f, int libc);

#endif /* VK_BENCH_H */

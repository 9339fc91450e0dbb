/* SPDX-License-Identifier: MIT */
/*
 * bench: ns per call of one API on one path, measured as close to the
 * hardware's floor as this machine allows. A batch is a counted loop of
 * calls timed by the fenced counter of timer.h, long enough that the
 * counter's cost and granularity vanish in it; a sample is the fastest of
 * many batches (preemption and interrupts only ever slow a batch down);
 * the figure is the median of the samples, with a bootstrap 95% CI.
 */
#ifndef VK_BENCH_H
#define VK_BENCH_H

#include "call.h"
#include "timer.h"

#define VK_BENCH_MAX_SAMPLES 512

struct vk_bench_case {
	char api[40];		/* "clock-gettime-monotonic", "clock-getres-id:15" */
	enum vk_func func;
	int clock;		/* for the clock functions */
};

struct vk_bench_result {
	char api[40];
	enum vk_path path;
	const char *skipped;	/* why the path was not measured, or NULL */
	double median, min, ci_lo, ci_hi, cv;	/* ns per call; cv in % */
	double p90, p99;	/* --cold only */
	int n;			/* samples */
	unsigned long batch;	/* calls per batch; 1 with --cold */
	int multimodal;
	unsigned long long calls;
	long involuntary_switches;	/* while measuring */
	double samples[VK_BENCH_MAX_SAMPLES];
};

struct vk_bench {
	const struct vk_callset *cs;
	const struct vk_timer *timer;
	double seconds;		/* budget per API and path */
	int samples;
	int cold;		/* disturb caches and TLB before each call */
	unsigned char *cold_buf;
	size_t cold_len;
};

int vk_bench_init(struct vk_bench *b);
void vk_bench_free(struct vk_bench *b);
void vk_bench_run(struct vk_bench *b, const struct vk_bench_case *c, enum vk_path p,
		  struct vk_bench_result *r);

/*
 * A/B: c on two sides measured in one process, their samples taken in
 * turn, so that the machine's drift between runs, which is larger than
 * many a change worth finding, does not enter their ratio. b->cs and
 * b->cold are not used. When either side cannot run, neither is measured
 * and that side's result says why.
 */
struct vk_bench_side {
	const struct vk_callset *cs;
	enum vk_path path;
};

void vk_bench_run_ab(struct vk_bench *b, const struct vk_bench_case *c,
		     const struct vk_bench_side side[2], struct vk_bench_result r[2]);

/* The loops that make the calls, one per function and per libc or not. */
struct vk_call_site {
	union vk_fn fn;		/* unused by the libc loops, which call libc */
	clockid_t clock;
	void *state;		/* getrandom's opaque state, or NULL */
	size_t state_len;
	struct vk_kts64 ts;	/* large enough for either timespec */
	struct vk_ktv tv;
	unsigned cpu, node;
	unsigned char buf[16];
};

typedef void (*vk_loop)(struct vk_call_site *s, unsigned long n);
vk_loop vk_loop_for(enum vk_func f, int libc);

#endif /* VK_BENCH_H */

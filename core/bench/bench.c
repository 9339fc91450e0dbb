// SPDX-License-Identifier: MIT
/*
 * bench's measurement: the timed batches, samples and groups behind each
 * figure, and the run's plan of APIs and paths (bench.h).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/bench/bench.h"
#include "core/bench/stats.h"
#include "core/base/sysinfo.h"

#define MIN_BATCH 60		/* and a multiple of it, so periodic work such as
				 * getrandom's refill every 6 calls is counted whole */
#define MAX_BATCH (1ul << 24)
#define WARMUP_SHARE 0.1	/* of the budget; the first sample is also discarded */
#define MIN_BATCHES 5		/* per sample, whatever the budget */
#define COLD_BYTES (64u << 20)	/* more than any last-level cache here */
#define CI_ITERS 2000
#define REF_STEPS 8192		/* about 20 us of the reference loop */
#define REF_LOADS 32768		/* about 8 us */
#define REF_SYSCALLS 64		/* 10 to 70 us here */
#define REF_BATCHES 10

int vk_bench_init(struct vk_bench *b)
{
	if (!b->cold)
		return 0;
	b->cold_len = COLD_BYTES;
	b->cold_buf = mmap(NULL, b->cold_len, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b->cold_buf == MAP_FAILED) {
		b->cold_buf = NULL;
		return -1;
	}
	memset(b->cold_buf, 1, b->cold_len);
	return 0;
}

void vk_bench_free(struct vk_bench *b)
{
	if (b->cold_buf)
		munmap(b->cold_buf, b->cold_len);
	b->cold_buf = NULL;
}

static long involuntary_switches(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? 0 : ru.ru_nivcsw;
}

/* Nanoseconds for n calls, less the timer's own cost. */
static double time_batch(const struct vk_bench *b, vk_loop loop, struct vk_call_site *s,
			 unsigned long n)
{
	uint64_t t0 = vk_tick_start();

	loop(s, n);
	return ((double)(vk_tick_stop() - t0) - b->timer->overhead) * b->timer->ns_per_tick;
}

static unsigned long pick_batch(const struct vk_bench *b, vk_loop loop, struct vk_call_site *s)
{
	unsigned long n = MIN_BATCH;

	while (n < MAX_BATCH && time_batch(b, loop, s, n) < VK_BENCH_BATCH_NS)
		n *= 2;
	return n;
}

/* The fastest batch within the time given, per call. */
static double sample(const struct vk_bench *b, vk_loop loop, struct vk_call_site *s,
		     unsigned long n, double ns, unsigned long long *calls)
{
	double best = 1e300, spent = 0;
	int i;

	for (i = 0; i < MIN_BATCHES || spent < ns; i++) {
		double t = time_batch(b, loop, s, n);

		spent += t;
		if (t < best)
			best = t;
	}
	*calls += (unsigned long long)i * n;
	return best / n;
}

void vk_bench_summarize_groups(struct vk_bench_result *r)
{
	double sorted[VK_BENCH_MAX_SAMPLES], med[VK_BENCH_MAX_GROUPS];
	int n = 0;

	for (int g = 0; g < r->ngroups; g++) {
		memcpy(sorted, r->samples + n, r->group_n[g] * sizeof(double));
		med[g] = vk_median(sorted, r->group_n[g]);
		n += r->group_n[g];
	}
	memcpy(sorted, r->samples, n * sizeof(double));
	r->n = n;
	vk_sort(sorted, n);
	r->min = sorted[0];
	r->p90 = vk_quantile_sorted(sorted, n, 0.90);
	r->p99 = vk_quantile_sorted(sorted, n, 0.99);
	r->multimodal = vk_multimodal(sorted, n);
	/* One group has no spread between groups to tell. */
	r->cv = r->ci_lo = r->ci_hi = NAN;
	if (r->ngroups > 1) {
		r->cv = vk_cv_pct(med, r->ngroups);
		vk_bootstrap_median_ci(med, r->ngroups, 0.95, CI_ITERS, 1, &r->ci_lo, &r->ci_hi);
	}
	r->median = vk_median(med, r->ngroups);
}

static void summarize(struct vk_bench_result *r, int n)
{
	r->ngroups = 1;
	r->group_n[0] = n;
	vk_bench_summarize_groups(r);
}

/*
 * One side of a measurement: a loop with its call site and result. bench
 * runs one arm at a time; an A/B comparison runs two, sample by sample.
 */
struct arm {
	struct vk_call_site s;
	vk_loop loop;
	enum vk_func func;
	struct vk_bench_result *r;
};

void vk_bench_failed_why(struct vk_bench_result *r)
{
	snprintf(r->why, sizeof(r->why), "%s failed: %s (errno %d), %llu of %llu calls", r->call,
		 strerror(r->err), r->err, r->failed, r->failed_of);
	r->skipped = r->why;
}

/*
 * Whether an arm's calls failed: its time is then that of the failure
 * (an -EINVAL returned at once, a syscall refused), no figure of the call.
 */
static int arm_failed(const struct arm *a)
{
	struct vk_bench_result *r = a->r;

	if (!a->s.fails)
		return 0;
	r->failed = a->s.fails;
	r->failed_of = a->s.calls;
	r->err = a->s.err;
	r->call = vk_funcs[a->func].name;
	vk_bench_failed_why(r);
	return 1;
}

/*
 * Samples of every arm in turn, the order reversed every other round
 * (ABBA) so that a drift of the machine's speed during the run weighs
 * on all arms alike.
 */
static void run_warm(struct vk_bench *b, struct arm *arms, int narms)
{
	double per_sample = b->seconds * (1 - WARMUP_SHARE) * 1e9 / b->samples;
	long switches = involuntary_switches();

	for (int k = 0; k < narms; k++) {
		struct arm *a = &arms[k];

		sample(b, a->loop, &a->s, MIN_BATCH, b->seconds * WARMUP_SHARE * 1e9, &a->r->calls);
		a->r->batch = pick_batch(b, a->loop, &a->s);
		sample(b, a->loop, &a->s, a->r->batch, per_sample, &a->r->calls);
	}
	for (int i = 0; i < b->samples; i++) {
		for (int j = 0; j < narms; j++) {
			struct arm *a = &arms[i % 2 ? narms - 1 - j : j];

			a->r->samples[i] = sample(b, a->loop, &a->s, a->r->batch, per_sample,
						  &a->r->calls);
		}
	}
	for (int k = 0; k < narms; k++) {
		arms[k].r->involuntary_switches = involuntary_switches() - switches;
		summarize(arms[k].r, b->samples);
	}
}

/* Walk a buffer larger than the caches, through more pages than any TLB. */
static void disturb(struct vk_bench *b)
{
	volatile unsigned char *p = b->cold_buf;

	for (size_t i = 0; i < b->cold_len; i += 64)
		p[i]++;
}

static void run_cold(struct vk_bench *b, struct arm *a)
{
	struct vk_bench_result *r = a->r;
	uint64_t deadline_ns = b->seconds * 1e9, spent = 0;
	int n = 0, most = b->max_cold ? b->max_cold : VK_BENCH_MAX_SAMPLES;

	r->batch = 1;
	while (n < most && (n < 20 || spent < deadline_ns)) {
		uint64_t t0 = vk_tick_start();

		disturb(b);
		r->samples[n++] = time_batch(b, a->loop, &a->s, 1);
		spent += (vk_tick_stop() - t0) * b->timer->ns_per_tick;
	}
	r->calls = n;
	summarize(r, n);
}

/*
 * Four independent chains, not one: a call's instructions mostly do not
 * wait on each other, so the reference must feel, as they do, a
 * neighbour taking the core's execution units, not only the clock rate.
 */
static __attribute__((noinline)) unsigned long reference_chains(unsigned long x,
								 unsigned long n)
{
	/* Words, not 64 bits: i386 has registers for four words only. */
	const unsigned long m = (unsigned long)6364136223846793005ULL;
	unsigned long a = x, b = x + 1, c = x + 2, d = x + 3;

	for (unsigned long i = 0; i < n; i++) {
		a = a * m + 1;
		b = b * m + 3;
		c = c * m + 5;
		d = d * m + 7;
		/* One step at a time, never folded or vectorised. */
		__asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d));
	}
	return a ^ b ^ c ^ d;
}

/*
 * Loads alone: a neighbour on the core's other hardware thread can halve
 * their rate while the multiplies above keep theirs, and a call of a few
 * ns (time, getcpu, the coarse clocks) is little but loads, a call and
 * its return.
 */
static __attribute__((noinline)) unsigned long reference_loads(unsigned long x,
								unsigned long n)
{
	static unsigned long word = 1;
	volatile unsigned long *p = &word;

	for (unsigned long i = 0; i < n; i++)
		x += *p;
	return x;
}

static __attribute__((noinline)) unsigned long reference_syscalls(unsigned long x,
								   unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		syscall(SYS_getppid);
	return x;
}

/* ns per step of what runs f(x, n), the fastest of REF_BATCHES batches. */
static double fastest(const struct vk_bench *b, unsigned long (*f)(unsigned long, unsigned long),
		      unsigned long n)
{
	double best = 1e300;
	unsigned long x = 1;

	for (int i = 0; i < REF_BATCHES; i++) {
		uint64_t t0 = vk_tick_start();
		double t;

		x = f(x, n);
		t = ((double)(vk_tick_stop() - t0) - b->timer->overhead) * b->timer->ns_per_tick;
		if (t < best)
			best = t;
	}
	return best / n;
}

void vk_bench_reference(const struct vk_bench *b, struct vk_bench_ref *ref)
{
	static const struct {
		unsigned long (*loop)(unsigned long, unsigned long);
		unsigned long steps;
	} kind[VK_REF_KINDS] = {
		[VK_REF_CPU] = { reference_chains, REF_STEPS },
		[VK_REF_LOADS] = { reference_loads, REF_LOADS },
		[VK_REF_SYS] = { reference_syscalls, REF_SYSCALLS },
	};

	for (int k = 0; k < VK_REF_KINDS; k++)
		ref->ns[k] = fastest(b, kind[k].loop, kind[k].steps);
}

void vk_bench_run_id(char *buf, size_t len)
{
	uint64_t x[2];

	/* Where getrandom is refused (seccomp), the clock and pid still tell runs apart. */
	if (getrandom(x, sizeof(x), GRND_NONBLOCK) != sizeof(x)) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		x[0] = (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
		x[1] = ((uint64_t)getpid() << 32) ^ vk_tick_start();
	}
	snprintf(buf, len, "%016llx%016llx", (unsigned long long)x[0], (unsigned long long)x[1]);
}

/*
 * getrandom's state, the documented way: the query call gives its size
 * and how to map it. The syscall and libc paths take none.
 */
static int getrandom_state(struct vk_call_site *s, long page)
{
	struct {
		uint32_t size, prot, flags, reserved[13];
	} params = { 0 };

	if (s->fn.getrandom(NULL, 0, 0, &params, ~0UL) || !params.size ||
	    params.size > (unsigned long)page)
		return -1;
	s->state = mmap(NULL, page, params.prot, params.flags, -1, 0);
	if (s->state == MAP_FAILED) {
		s->state = NULL;
		return -1;
	}
	s->state_len = params.size;
	return 0;
}

/* getrandom's buffer, len bytes (0: the default); NULL without memory. */
static unsigned char *getrandom_buf(struct vk_call_site *s, size_t len)
{
	s->len = len ? len : VK_BENCH_RANDOM_LEN;
	s->buf = malloc(s->len);
	return s->buf;
}

/*
 * What the kernel's syscall answers c with: 0, or the errno with which it
 * refuses the clock. A refusal of the syscall itself (EPERM from seccomp,
 * ENOSYS) is no answer of the call's: each path's calls must then succeed.
 */
static int kernel_answer(const struct vk_callset *cs, const struct vk_bench_case *c)
{
	vk_clock_fn sys = cs->fn[VK_PATH_SYSCALL][c->func].clock;
	struct vk_kts64 ts;
	int r;

	if (vk_funcs[c->func].shape != VK_SHAPE_CLOCK_TS || !sys)
		return 0;
	r = sys(c->clock, &ts);
	return r >= 0 || r == -EPERM || r == -ENOSYS ? 0 : -r;
}

/* Ready an arm for c on path p of cs; false, with r->skipped, if it cannot run. */
static int arm_open(struct arm *a, const struct vk_callset *cs, const struct vk_bench_case *c,
		    enum vk_path p, struct vk_bench_result *r, long page)
{
	int is_random = vk_funcs[c->func].kind == VK_KIND_GETRANDOM;

	memset(a, 0, sizeof(*a));
	a->s.fn = cs->fn[p][c->func];
	a->s.clock = c->clock;
	a->s.expect = kernel_answer(cs, c);
	a->loop = vk_loop_for(c->func, p == VK_PATH_LIBC);
	a->func = c->func;
	a->r = r;
	memset(r, 0, sizeof(*r));
	memcpy(r->api, c->api, sizeof(r->api));
	r->path = p;
	if (!a->s.fn.p)
		r->skipped = cs->why[p][c->func];
	else if (is_random && !getrandom_buf(&a->s, c->len)) {
		r->skipped = "vdsokit has no memory for getrandom's buffer";
		r->own_error = 1;
	} else if (is_random && !vk_crng_ready())
		r->skipped = VK_CRNG_NOT_READY;
	else if (is_random && (p == VK_PATH_VDSO || p == VK_PATH_IMPL) &&
		 getrandom_state(&a->s, page))
		r->skipped = "its getrandom gives no usable state";
	return !r->skipped;
}

static void arm_close(struct arm *a, long page)
{
	if (a->s.state)
		munmap(a->s.state, page);
	free(a->s.buf);
}

void vk_bench_run(struct vk_bench *b, const struct vk_bench_case *c, enum vk_path p,
		  struct vk_bench_result *r)
{
	long page = sysconf(_SC_PAGESIZE);
	struct arm a;

	if (arm_open(&a, b->cs, c, p, r, page)) {
		if (b->cold)
			run_cold(b, &a);
		else
			run_warm(b, &a, 1);
		arm_failed(&a);
	}
	arm_close(&a, page);
}

void vk_bench_run_sides(struct vk_bench *b, const struct vk_bench_case *c,
			const struct vk_bench_side *side, int nsides, struct vk_bench_result *r)
{
	long page = sysconf(_SC_PAGESIZE);
	struct arm a[2 * VK_BENCH_MAX_GROUPS];
	int ok = 0;

	for (int i = 0; i < nsides; i++)
		ok += arm_open(&a[i], side[i].cs, c, side[i].path, &r[i], page);
	if (ok == nsides)
		run_warm(b, a, nsides);
	for (int i = 0; i < nsides && ok == nsides; i++)
		arm_failed(&a[i]);
	for (int i = 0; i < nsides && ok != nsides; i++) {
		if (!r[i].skipped)
			r[i].skipped = "another side cannot run";
	}
	for (int i = 0; i < nsides; i++)
		arm_close(&a[i], page);
}

/* One of --threads' threads: its own call site (and getrandom state). */
struct runner {
	pthread_t t;
	struct arm a;
	struct vk_bench_result scratch;	/* arm_open's */
	const struct vk_bench *b;
	unsigned long batch;
	int cpu, pinned;
	atomic_int *ready, *go, *stop;
	unsigned long long calls;
	double ns, cpu_ns;	/* its wall time and its CPU time, calling */
};

static double thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void *run_thread(void *p)
{
	struct runner *r = p;
	cpu_set_t set;
	uint64_t t0;

	CPU_ZERO(&set);
	CPU_SET(r->cpu, &set);
	r->pinned = !pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	atomic_fetch_add(r->ready, 1);
	/* Yield while waiting: the threads may share a CPU with the main one. */
	while (!atomic_load(r->go))
		sched_yield();
	r->cpu_ns = -thread_cpu_ns();
	t0 = vk_tick_start();
	while (!atomic_load_explicit(r->stop, memory_order_relaxed)) {
		r->a.loop(&r->a.s, r->batch);
		r->calls += r->batch;
	}
	r->ns = (vk_tick_stop() - t0) * r->b->timer->ns_per_tick;
	r->cpu_ns += thread_cpu_ns();
	return NULL;
}

/* Start the runners that opened; the number started. */
static int start_runners(struct runner *run, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (pthread_create(&run[i].t, NULL, run_thread, &run[i]))
			break;
	}
	return i;
}

int vk_bench_threads(const struct vk_bench *b, const struct vk_bench_case *c, enum vk_path p,
		     int n, const int *cpu, unsigned long batch, double *per_s, double *at_once,
		     struct vk_bench_result *r)
{
	long page = sysconf(_SC_PAGESIZE);
	struct runner *run = calloc(n, sizeof(*run));
	atomic_int ready = 0, go = 0, stop = 0;
	double s = b->seconds > VK_BENCH_THREAD_WINDOW ? b->seconds : VK_BENCH_THREAD_WINDOW;
	struct timespec window = { (time_t)s, (long)((s - (time_t)s) * 1e9) };
	int opened = 0, started = 0, pinned = 0;
	struct arm sum = { .r = r, .func = c->func };
	const char *refused = vk_threads_refused();

	*per_s = *at_once = 0;
	if (refused) {
		free(run);
		r->skipped = refused;
		return -1;
	}
	if (!run) {
		r->skipped = "no memory for --threads' threads";
		return -1;
	}
	for (; opened < n; opened++) {
		run[opened] = (struct runner){ .b = b, .batch = batch, .cpu = cpu[opened],
					       .ready = &ready, .go = &go, .stop = &stop };
		if (!arm_open(&run[opened].a, b->cs, c, p, &run[opened].scratch, page))
			break;
	}
	if (opened == n)
		started = start_runners(run, n);
	while (atomic_load(&ready) < started)
		sched_yield();
	atomic_store(&go, 1);
	if (started == n)
		nanosleep(&window, NULL);
	atomic_store(&stop, 1);
	for (int i = 0; i < started; i++) {
		pthread_join(run[i].t, NULL);
		pinned += run[i].pinned;
		sum.s.calls += run[i].a.s.calls;
		sum.s.fails += run[i].a.s.fails;
		if (run[i].a.s.fails)
			sum.s.err = run[i].a.s.err;
		if (run[i].ns > 0) {
			*per_s += run[i].calls / run[i].ns * 1e9;
			*at_once += run[i].cpu_ns / run[i].ns / n;
		}
	}
	for (int i = 0; i < opened + (opened < n); i++)
		arm_close(&run[i].a, page);
	free(run);
	if (arm_failed(&sum))
		return -1;
	if (opened < n)
		r->skipped = "a thread's call cannot be readied (see the row without --threads)";
	else if (started < n)
		r->skipped = "cannot start --threads' threads";
	else if (pinned < n)
		r->skipped = "cannot pin a thread to its CPU";
	return r->skipped ? -1 : 0;
}

void vk_bench_summarize_threads(struct vk_bench_result *r)
{
	double x[VK_BENCH_MAX_GROUPS];

	if (!r->threads || !r->thr_n)
		return;
	memcpy(x, r->thr_all, r->thr_n * sizeof(*x));
	r->all_per_s = vk_median(x, r->thr_n);
	memcpy(x, r->thr_one, r->thr_n * sizeof(*x));
	r->one_per_s = vk_median(x, r->thr_n);
	r->thread_ns = r->threads * 1e9 / r->all_per_s;
	memcpy(x, r->thr_at_once, r->thr_n * sizeof(*x));
	r->at_once = vk_median(x, r->thr_n);
	/* One thread's run is its own reference: 1 exactly. */
	if (r->threads == 1)
		r->scaling = 1;
	else
		r->scaling = r->at_once < VK_BENCH_MIN_AT_ONCE ? NAN : r->all_per_s / r->one_per_s;
}

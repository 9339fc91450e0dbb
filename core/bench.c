// SPDX-License-Identifier: MIT
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench.h"
#include "stats.h"

#define BATCH_NS 20000.0	/* >= 1000 counter steps: granularity < 0.1% */
#define MIN_BATCH 60		/* and a multiple of it, so periodic work such as
				 * getrandom's refill every 6 calls is counted whole */
#define MAX_BATCH (1ul << 24)
#define WARMUP_SHARE 0.1	/* of the budget; the first sample is also discarded */
#define MIN_BATCHES 5		/* per sample, whatever the budget */
#define COLD_BYTES (64u << 20)	/* more than any last-level cache here */
#define CI_ITERS 2000

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

	while (n < MAX_BATCH && time_batch(b, loop, s, n) < BATCH_NS)
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

static void summarize(struct vk_bench_result *r, int n)
{
	double sorted[VK_BENCH_MAX_SAMPLES];

	memcpy(sorted, r->samples, n * sizeof(double));
	r->n = n;
	r->median = vk_median(sorted, n);
	r->min = sorted[0];
	r->p90 = vk_quantile_sorted(sorted, n, 0.90);
	r->p99 = vk_quantile_sorted(sorted, n, 0.99);
	r->cv = n > 1 ? vk_cv_pct(r->samples, n) : 0;
	r->multimodal = vk_multimodal(sorted, n);
	vk_bootstrap_median_ci(r->samples, n, 0.95, CI_ITERS, 1, &r->ci_lo, &r->ci_hi);
}

static void run_warm(struct vk_bench *b, vk_loop loop, struct vk_call_site *s,
		     struct vk_bench_result *r)
{
	double per_sample = b->seconds * (1 - WARMUP_SHARE) * 1e9 / b->samples;
	long switches = involuntary_switches();

	sample(b, loop, s, MIN_BATCH, b->seconds * WARMUP_SHARE * 1e9, &r->calls);
	r->batch = pick_batch(b, loop, s);
	sample(b, loop, s, r->batch, per_sample, &r->calls);
	for (int i = 0; i < b->samples; i++)
		r->samples[i] = sample(b, loop, s, r->batch, per_sample, &r->calls);
	r->involuntary_switches = involuntary_switches() - switches;
	summarize(r, b->samples);
}

/* Walk a buffer larger than the caches, through more pages than any TLB. */
static void disturb(struct vk_bench *b)
{
	volatile unsigned char *p = b->cold_buf;

	for (size_t i = 0; i < b->cold_len; i += 64)
		p[i]++;
}

static void run_cold(struct vk_bench *b, vk_loop loop, struct vk_call_site *s,
		     struct vk_bench_result *r)
{
	uint64_t deadline_ns = b->seconds * 1e9, spent = 0;
	int n = 0;

	r->batch = 1;
	while (n < VK_BENCH_MAX_SAMPLES && (n < 20 || spent < deadline_ns)) {
		uint64_t t0 = vk_tick_start();

		disturb(b);
		r->samples[n++] = time_batch(b, loop, s, 1);
		spent += (vk_tick_stop() - t0) * b->timer->ns_per_tick;
	}
	r->calls = n;
	summarize(r, n);
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

void vk_bench_run(struct vk_bench *b, const struct vk_bench_case *c, enum vk_path p,
		  struct vk_bench_result *r)
{
	struct vk_call_site s = { .fn = b->cs->fn[p][c->func], .clock = c->clock };
	vk_loop loop = vk_loop_for(c->func, p == VK_PATH_LIBC);
	long page = sysconf(_SC_PAGESIZE);

	memset(r, 0, sizeof(*r));
	memcpy(r->api, c->api, sizeof(r->api));
	r->path = p;
	if (!s.fn.p) {
		r->skipped = b->cs->why[p][c->func];
		return;
	}
	if (c->func == VK_FN_GETRANDOM && (p == VK_PATH_VDSO || p == VK_PATH_IMPL) &&
	    getrandom_state(&s, page)) {
		r->skipped = "its getrandom gives no usable state";
		return;
	}
	if (b->cold)
		run_cold(b, loop, &s, r);
	else
		run_warm(b, loop, &s, r);
	if (s.state)
		munmap(s.state, page);
}

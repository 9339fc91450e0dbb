// SPDX-License-Identifier: MIT
/*
 * The threads rule: threads pinned to different CPUs read a monotonic
 * clock and publish the latest reading; a thread must never read a time
 * earlier than one published before its read began. This is the class of
 * bug that arm64's counter speculation outside the seqlock caused.
 *
 * The rule sees a thread whose clock runs d behind another's only where
 * it read less than d after a reading of the other's that it saw: a
 * hand-off. Each reading is published with its thread's number, so each
 * thread keeps the tightest hand-off from every other, and a run whose
 * weakest pair never came within VK_THREADS_SKEW is a SKIP, not a pass.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/base/sysinfo.h"
#include "core/verify/verify_shared.h"

#define THREADS_SHARE 0.2	/* of the budget, split among the clocks */
#define ROUND 1024
#define MAX_THREADS 64	/* a power of two: a published key's low bits */
#define PATIENCE 5	/* times the share, to reach VK_THREADS_SKEW on a busy machine */
#define NONE INT64_MIN	/* nothing published yet */
#define REL_MAX ((int64_t)1 << 56)	/* a reading's distance from the base, at most */

struct shared {
	vk_clock_fn fn;
	int t64;
	int id;
	double deadline, last_chance;
	int64_t base;		/* a reading before the threads start */
	int nthreads;		/* started */
	/* The latest reading, as a key: its distance from base times
	 * MAX_THREADS, plus the number of the thread that read it. */
	_Atomic int64_t published;
	/* [to][from]: the tightest hand-off seen, ns; INT64_MAX: none yet. */
	_Atomic int64_t tightest[MAX_THREADS][MAX_THREADS];
	atomic_int stop;
	pthread_mutex_t lock;	/* guards the first violation below */
	unsigned long long violations;
	int64_t seen_published, seen_read;
	int seen_thread, seen_cpu;
};

struct worker {
	struct shared *s;
	int index;
	int cpu;		/* -1: not pinned */
	unsigned long long calls;
	pthread_t thread;
};

/* A reading as its distance from base, clamped so that a key cannot overflow. */
static int64_t rel(const struct shared *s, int64_t ns)
{
	int64_t d;

	if (__builtin_sub_overflow(ns, s->base, &d))
		return ns < s->base ? -REL_MAX : REL_MAX;
	return d < -REL_MAX ? -REL_MAX : d > REL_MAX ? REL_MAX : d;
}

static int key_thread(int64_t key)
{
	return (int)(key & (MAX_THREADS - 1));
}

static int64_t key_rel(int64_t key)
{
	return (key - key_thread(key)) / MAX_THREADS;
}

static void violation(struct worker *w, int64_t published, int64_t read)
{
	struct shared *s = w->s;

	pthread_mutex_lock(&s->lock);
	if (!s->violations++) {
		s->seen_published = published;
		s->seen_read = read;
		s->seen_thread = w->index;
		s->seen_cpu = w->cpu;
	}
	pthread_mutex_unlock(&s->lock);
}

/* w read now (from base) after it saw the published key seen. */
static void handed(struct worker *w, int64_t seen, int64_t now)
{
	struct shared *s = w->s;
	int from = key_thread(seen);
	int64_t gap = now - key_rel(seen);
	_Atomic int64_t *t = &s->tightest[w->index][from];

	if (gap < 0)
		violation(w, s->base + key_rel(seen), s->base + now);
	else if (from != w->index && gap < atomic_load_explicit(t, memory_order_relaxed))
		atomic_store_explicit(t, gap, memory_order_relaxed);
}

static void snapshot(struct shared *s, int64_t *tightest)
{
	for (int to = 0; to < s->nthreads; to++)
		for (int from = 0; from < s->nthreads; from++)
			tightest[to * s->nthreads + from] =
				atomic_load_explicit(&s->tightest[to][from], memory_order_relaxed);
}

/* Past its share, the run goes on until every pair came close enough. */
static int done(struct shared *s)
{
	int64_t tightest[MAX_THREADS * MAX_THREADS];
	double now = vk_monotonic();

	if (now < s->deadline)
		return 0;
	if (now > s->last_chance)
		return 1;
	snapshot(s, tightest);
	return vk_threads_reach(tightest, s->nthreads, NULL, NULL) < VK_THREADS_SKEW;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct shared *s = w->s;
	struct vk_ts ts;

	vk_pin_thread(w->cpu);
	while (!atomic_load(&s->stop)) {
		for (int i = 0; i < ROUND; i++) {
			int64_t seen = atomic_load_explicit(&s->published, memory_order_acquire);
			int64_t now;

			if (vk_clock_call(s->fn, s->t64, s->id, &ts))
				continue;
			now = rel(s, vk_ts_ns(&ts));
			if (seen != NONE)
				handed(w, seen, now);
			while ((seen == NONE || key_rel(seen) < now) &&
			       !atomic_compare_exchange_weak_explicit(&s->published, &seen,
								      now * MAX_THREADS + w->index,
								      memory_order_release,
								      memory_order_relaxed))
				;
		}
		w->calls += ROUND;
		/* The first worker, the calling thread, keeps the time. */
		if (w->index == 0 && done(s))
			atomic_store(&s->stop, 1);
	}
	return NULL;
}

int64_t vk_threads_reach(const int64_t *tightest, int n, int *from, int *to)
{
	int64_t reach = -1;

	for (int t = 0; t < n; t++)
		for (int f = 0; f < n; f++) {
			if (f == t || tightest[t * n + f] <= reach)
				continue;
			reach = tightest[t * n + f];
			if (from)
				*from = f;
			if (to)
				*to = t;
		}
	return reach;
}

enum vk_status vk_threads_judge(const int64_t *tightest, int n, char *detail, size_t len)
{
	int from = 0, to = 1;
	int64_t reach = vk_threads_reach(tightest, n, &from, &to);

	if (reach == INT64_MAX) {
		snprintf(detail, len, "cross-CPU: thread %d never read right after a reading of thread %d's: a skew between them was not tested",
			 to, from);
		return VK_SKIP;
	}
	snprintf(detail, len, "cross-CPU: the tightest hand-off was %.1f us (thread %d after thread %d, the loosest of %d threads' pairs): a skew %s that was %stested",
		 reach / 1e3, to, from, n, reach < VK_THREADS_SKEW ? "over" : "under",
		 reach < VK_THREADS_SKEW ? "" : "not ");
	return reach < VK_THREADS_SKEW ? VK_PASS : VK_SKIP;
}

static int allowed_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++) {
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	}
	return n;
}

/* What the run could detect, in words and as a figure. */
static void judge(struct vk_result *r, struct shared *s)
{
	int64_t tightest[MAX_THREADS * MAX_THREADS], reach;

	snapshot(s, tightest);
	r->status = vk_threads_judge(tightest, s->nthreads, r->detail, sizeof(r->detail));
	reach = vk_threads_reach(tightest, s->nthreads, NULL, NULL);
	if (reach != INT64_MAX) {
		r->bound = VK_BOUND_SKEW;
		r->bound_ns = reach;
	}
}

static void run_clock(struct vk_verify *v, struct vk_result *r, struct shared *s, int nthreads)
{
	struct worker w[MAX_THREADS];
	int cpus[MAX_THREADS], ncpus = allowed_cpus(cpus, MAX_THREADS);
	cpu_set_t saved;
	int started = 1, err = 0;

	sched_getaffinity(0, sizeof(saved), &saved);
	for (int i = 0; i < nthreads; i++)
		for (int j = 0; j < nthreads; j++)
			atomic_init(&s->tightest[i][j], INT64_MAX);
	for (int i = 0; i < nthreads; i++) {
		w[i] = (struct worker){ .s = s, .index = i, .cpu = ncpus ? cpus[i % ncpus] : -1 };
		if (i && (err = pthread_create(&w[i].thread, NULL, work, &w[i])) == 0)
			started++;
		else if (i)
			break;
	}
	s->nthreads = started;
	work(&w[0]);
	for (int i = 1; i < started; i++) {
		pthread_join(w[i].thread, NULL);
		r->calls += w[i].calls;
	}
	r->calls += w[0].calls;
	sched_setaffinity(0, sizeof(saved), &saved);
	if (started < 2)
		vk_result_error(v->rs, r, "not tested: vdsokit could not start a second thread: %s",
			       strerror(err));
	else if (s->violations)
		vk_result_fail(v->rs, r, "clock %d: thread %d on CPU %d read %lld ns after %lld ns had been published: %lld ns back (%llu times in %llu reads by %d threads)",
			       s->id, s->seen_thread, s->seen_cpu, (long long)s->seen_read,
			       (long long)s->seen_published,
			       (long long)(s->seen_published - s->seen_read), s->violations,
			       r->calls, started);
	else
		judge(r, s);
}

static int is_threads_clock(int id)
{
	return id == CLOCK_MONOTONIC || id == CLOCK_MONOTONIC_RAW ||
	       id == CLOCK_MONOTONIC_COARSE || id == CLOCK_BOOTTIME;
}

void vk_verify_threads(struct vk_verify *v, const struct vk_target *t, enum vk_path p)
{
	int cpus[MAX_THREADS], n = 0, nthreads = v->threads;
	const char *refused = vk_threads_refused();
	struct vk_result *r;
	struct vk_ts ts;
	char api[40];

	for (int i = 0; i < t->nclocks; i++)
		n += is_threads_clock(t->clocks[i].id);
	if (!nthreads)
		nthreads = allowed_cpus(cpus, MAX_THREADS);
	if (nthreads < 2)
		nthreads = 2;
	if (nthreads > MAX_THREADS)
		nthreads = MAX_THREADS;
	for (int i = 0; i < t->nclocks; i++) {
		struct shared s = {
			.fn = v->cs->fn[p][t->func].clock,
			.t64 = vk_funcs[t->func].time64,
			.id = t->clocks[i].id,
			.lock = PTHREAD_MUTEX_INITIALIZER,
		};

		if (!is_threads_clock(s.id))
			continue;
		s.deadline = vk_monotonic() + v->seconds * THREADS_SHARE / n;
		s.last_chance = s.deadline + v->seconds * THREADS_SHARE / n * (PATIENCE - 1);
		if (vk_clock_call(s.fn, s.t64, s.id, &ts) == 0)
			s.base = vk_ts_ns(&ts);
		atomic_init(&s.published, NONE);
		atomic_init(&s.stop, 0);
		vk_clock_api(api, sizeof(api), t->func, &t->clocks[i]);
		r = vk_results_add(v->rs, api, p, "threads");
		if (refused)
			vk_result_skip(r, "%s", refused);
		else
			run_clock(v, r, &s, nthreads);
	}
}

// SPDX-License-Identifier: MIT
/*
 * The threads rule: threads pinned to different CPUs read a monotonic
 * clock and publish the latest reading; a thread must never read a time
 * earlier than one published before its read began. This is the class of
 * bug that arm64's counter speculation outside the seqlock caused.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "verify_shared.h"

#define THREADS_SHARE 0.2	/* of the budget, split among the clocks */
#define ROUND 1024
#define MAX_THREADS 64

struct shared {
	vk_clock_fn fn;
	int t64;
	int id;
	double deadline;
	_Atomic int64_t published;
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

static void pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
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

static void *work(void *arg)
{
	struct worker *w = arg;
	struct shared *s = w->s;
	struct vk_ts ts;

	pin(w->cpu);
	while (!atomic_load(&s->stop)) {
		for (int i = 0; i < ROUND; i++) {
			int64_t seen = atomic_load_explicit(&s->published, memory_order_acquire);
			int64_t now;

			if (vk_clock_call(s->fn, s->t64, s->id, &ts))
				continue;
			now = vk_ts_ns(&ts);
			if (now < seen)
				violation(w, seen, now);
			while (now > seen &&
			       !atomic_compare_exchange_weak_explicit(&s->published, &seen, now,
								      memory_order_release,
								      memory_order_relaxed))
				;
		}
		w->calls += ROUND;
		/* The first worker, the calling thread, keeps the time. */
		if (w->index == 0 && vk_monotonic() > s->deadline)
			atomic_store(&s->stop, 1);
	}
	return NULL;
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

static void run_clock(struct vk_verify *v, struct vk_result *r, struct shared *s, int nthreads)
{
	struct worker w[MAX_THREADS];
	int cpus[MAX_THREADS], ncpus = allowed_cpus(cpus, MAX_THREADS);
	cpu_set_t saved;
	int started = 1;

	sched_getaffinity(0, sizeof(saved), &saved);
	for (int i = 0; i < nthreads; i++) {
		w[i] = (struct worker){ .s = s, .index = i, .cpu = ncpus ? cpus[i % ncpus] : -1 };
		if (i && pthread_create(&w[i].thread, NULL, work, &w[i]) == 0)
			started++;
		else if (i)
			break;
	}
	work(&w[0]);
	for (int i = 1; i < started; i++) {
		pthread_join(w[i].thread, NULL);
		r->calls += w[i].calls;
	}
	r->calls += w[0].calls;
	sched_setaffinity(0, sizeof(saved), &saved);
	if (started < 2)
		vk_result_skip(r, "could not start a second thread");
	else if (s->violations)
		vk_result_fail(v->rs, r, "clock %d: thread %d on CPU %d read %lld ns after %lld ns had been published: %lld ns back (%llu times in %llu reads by %d threads)",
			       s->id, s->seen_thread, s->seen_cpu, (long long)s->seen_read,
			       (long long)s->seen_published,
			       (long long)(s->seen_published - s->seen_read), s->violations,
			       r->calls, started);
}

static int is_threads_clock(int id)
{
	return id == CLOCK_MONOTONIC || id == CLOCK_MONOTONIC_RAW ||
	       id == CLOCK_MONOTONIC_COARSE || id == CLOCK_BOOTTIME;
}

void vk_verify_threads(struct vk_verify *v, const struct vk_target *t, enum vk_path p)
{
	int cpus[MAX_THREADS], n = 0, nthreads = v->threads;
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
		atomic_init(&s.published, INT64_MIN);
		atomic_init(&s.stop, 0);
		vk_clock_api(api, sizeof(api), t->func, &t->clocks[i]);
		run_clock(v, vk_results_add(v->rs, api, p, "threads"), &s, nthreads);
	}
}

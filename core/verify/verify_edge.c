// SPDX-License-Identifier: MIT
/*
 * The second-edge rule. A reading torn across a second boundary (tv_sec
 * from before it, tv_nsec from after: a whole second back), or across a
 * timekeeper update (a reader without the sequence count), shows only in
 * a call that spans that moment, which a loop of calls meets by chance.
 * So the rule makes calls span it: before two of each clock's second
 * boundaries, chosen by the syscall's time, readers pinned in turn to each
 * CPU are stopped by a signal inside the call under test and held in the
 * handler until the clock has crossed the boundary and the coarse clock has
 * stepped. Each then finishes its call, whose reading must not go back
 * from the reader's reading before it, nor leave the syscall's bracket
 * around the window. A signal that lands outside the call is let go and
 * sent again, so that every reader is held inside one: a reader that reads
 * the time twice without a sequence count tears in about half of them.
 * REALTIME going back is judged only where REALTIME - MONOTONIC, read by
 * the syscall, held still across the window: else the clock was stepped.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/base/sysinfo.h"
#include "core/verify/verify_shared.h"

#define READERS 8	/* per API and window, each held inside a call */
#define WINDOWS 2	/* boundaries each API is read across */
#define HELD 16		/* calls held inside across them: a reader without a
			 * sequence count tears in about half, so that its
			 * odds of passing are about 2^-16 */
#define LEAD 0.3	/* s before a boundary its readers start to be held */
#define GROUP 0.2	/* s: boundaries this close share one window */
#define PASS_LIMIT ((double)VK_EDGE_SECONDS)	/* an API read across fewer boundaries is a SKIP */
#define RETURN_LIMIT 10.0	/* s a held call has to return once let go */
#define TICK_NS 100000	/* between the signals to a reader not yet held */
#define STEP_NS 1000000	/* a move of REALTIME - MONOTONIC over this is a step */
#define MAX_APIS 24
#define MAX_READERS (MAX_APIS * READERS)
#define STACK (1024 * 1024)	/* a reader's: the call under test may use 64 KiB and more */
#define NS 1000000000LL

enum edge_kind { EDGE_CLOCK, EDGE_TOD, EDGE_TIME };

struct edge_api {
	const char *path;
	enum edge_kind kind;
	union vk_fn fn;
	int t64;		/* the clock function's timespec is 64-bit */
	int id;			/* the clock read through the path */
	int ref;		/* the clock whose boundaries are aimed at */
	int64_t gran;		/* ns a reading of it is truncated to */
	struct vk_result *r;
	struct reader *readers;	/* READERS of its own */
	int windows;		/* read across, with a reader held in time */
	unsigned long long held;	/* calls held inside before a boundary */
	int held_now;		/* ...in the window running */
	int64_t boundary;	/* the next aimed at, ns of ref */
	double at;		/* when, on vdsokit's monotonic clock */
	int64_t lo, off;	/* at the window's start: ref, and REALTIME - MONOTONIC */
	int late, stepped;	/* windows that did not count, and why */
};

struct reader {
	pthread_t thread;
	struct edge_api *api;
	int cpu;		/* pinned to, or -1 */
	volatile sig_atomic_t in_call, held;
	int counted;		/* its hold was counted, or not, in time */
	atomic_int window;	/* the window it reads in; futex word */
	timer_t timer;		/* sends it the signal, every TICK_NS */
	atomic_int ready;	/* 1: started, its timer made; -errno: not made */
	unsigned long calls;	/* in this window, once done */
	atomic_int done;
	int gen;		/* release's value while its window reads, set when armed */
	int err;		/* a call that failed: what it returned */
	int64_t prev, lo, hi;	/* the last reading, the least and most */
	int64_t back_from, back_to;	/* the first that went back */
	int back_cpu;		/* the CPU it was read on */
};

/* The pass's state: one at a time in a child, so a file's statics. */
static atomic_int release;	/* futex word the held readers wait on */
static atomic_int quit;
static int hung;		/* a reader never returned: it cannot be joined */
static _Thread_local struct reader *self;
static int hold_signal;

/* <linux/futex.h>'s, which musl-gcc has not. */
#define FUTEX_WAIT_PRIVATE 128
#define FUTEX_WAKE_PRIVATE 129

/* glibc before 2.41 has no name for the field of SIGEV_THREAD_ID's thread. */
#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif
static int cpu_list[64], ncpu;	/* the CPUs this process may run on */

static void futex_wait(atomic_int *word, int val)
{
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(atomic_int *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 0x7fffffff, NULL, NULL, 0);
}

/*
 * Inside a call, wait there until the window's boundary has passed. A
 * signal that comes after its window was let go (sent late) is let go at
 * once, as there is no later release to wait for.
 */
static void on_hold(int sig)
{
	struct reader *r = self;

	(void)sig;
	if (!r || !r->in_call || r->held || atomic_load(&release) != r->gen)
		return;
	r->held = 1;
	while (atomic_load(&release) == r->gen)
		futex_wait(&release, r->gen);
}

/* One call through the path: 0 and the reading in ns, or what it returned. */
static int edge_read(const struct edge_api *a, int64_t *ns)
{
	struct vk_ts ts;
	struct vk_ktv tv;
	int r;

	switch (a->kind) {
	case EDGE_CLOCK:
		r = vk_clock_call(a->fn.clock, a->t64, a->id, &ts);
		*ns = vk_ts_ns(&ts);
		return r;
	case EDGE_TOD:
		r = a->fn.tod(&tv, NULL);
		*ns = (int64_t)tv.sec * NS + (int64_t)tv.usec * 1000;
		return r;
	default:
		*ns = (int64_t)a->fn.time(NULL) * NS;
		return 0;
	}
}

/* Its timer every ns from now, or (0) off. */
static void tick(struct reader *r, long ns)
{
	struct itimerspec it = { { 0, ns }, { 0, ns } };

	timer_settime(r->timer, 0, &it, NULL);
}

/* One window's reading: from armed until let go and two calls more. */
static void read_window(struct reader *r)
{
	int64_t ns;
	unsigned long after = 0, n = 0;

	r->prev = r->lo = INT64_MAX;
	r->hi = INT64_MIN;
	r->err = 0;
	r->back_from = r->back_to = 0;
	while (after < 2) {
		int ret;

		r->in_call = 1;
		atomic_signal_fence(memory_order_seq_cst);
		ret = edge_read(r->api, &ns);
		atomic_signal_fence(memory_order_seq_cst);
		r->in_call = 0;
		/* Nothing shared per call: the less the loop does outside
		 * the call, the more often a signal lands inside it. */
		if (++n == 2)
			tick(r, TICK_NS);
		if (ret) {
			r->err = ret;
			break;
		}
		if (r->prev != INT64_MAX && ns < r->prev && !r->back_from) {
			r->back_from = r->prev;
			r->back_to = ns;
			r->back_cpu = sched_getcpu();
		}
		r->prev = ns;
		r->lo = ns < r->lo ? ns : r->lo;
		r->hi = ns > r->hi ? ns : r->hi;
		if (atomic_load(&release) != r->gen)
			after++;
	}
	tick(r, 0);
	r->calls = n;
}

/*
 * A reader signals itself by a timer of its own: the kernel stops it at a
 * random place, as a tick or a timer interrupt does, whether it is on a
 * CPU when the timer fires or waits for one, and no other thread has to
 * run for it.
 */
static int make_timer(struct reader *r)
{
	struct sigevent ev;

	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = hold_signal;
	ev.sigev_notify_thread_id = (pid_t)syscall(SYS_gettid);
	return timer_create(CLOCK_MONOTONIC, &ev, &r->timer) ? -errno : 1;
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	int seen = 0;

	self = r;
	vk_pin_thread(r->cpu);
	atomic_store(&r->ready, make_timer(r));
	if (atomic_load(&r->ready) < 0)
		return NULL;
	for (;;) {
		int w = atomic_load(&r->window);

		if (atomic_load(&quit))
			return NULL;
		if (w == seen) {
			futex_wait(&r->window, w);
			continue;
		}
		seen = w;
		read_window(r);
		r->held = 0;
		atomic_store(&r->done, 1);
	}
}

static int is_realtime(int id)
{
	return id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE || id == CLOCK_TAI ||
	       id == CLOCK_REALTIME_ALARM;
}

static int64_t realtime_off(const struct vk_verify *v)
{
	return vk_sys_clock_ns(v, CLOCK_REALTIME) - vk_sys_clock_ns(v, CLOCK_MONOTONIC);
}

/* The clocks with second boundaries to aim at: the system's, not a
 * process's CPU time nor an aux clock that may be off. */
static int edge_clock(int id)
{
	return id == CLOCK_REALTIME || id == CLOCK_MONOTONIC || id == CLOCK_MONOTONIC_RAW ||
	       id == CLOCK_REALTIME_COARSE || id == CLOCK_MONOTONIC_COARSE ||
	       id == CLOCK_BOOTTIME || id == CLOCK_REALTIME_ALARM ||
	       id == CLOCK_BOOTTIME_ALARM || id == CLOCK_TAI;
}

/*
 * Keep e as the next API, where the syscall reads its clock and the path
 * reads it too: a path that fails is the errno rule's, and is not held.
 */
static void add_api(struct vk_verify *v, struct edge_api *a, int *n, struct edge_api *e,
		    const char *api, enum vk_path p)
{
	int64_t ns;

	if (*n >= MAX_APIS || vk_sys_clock_ns(v, e->ref) == INT64_MIN || edge_read(e, &ns))
		return;
	e->path = vk_path_name(p);
	e->r = vk_results_add(v->rs, api, p, "second-edge");
	a[(*n)++] = *e;
}

/* The APIs of the targets that read a clock with second boundaries. */
static int collect(struct vk_verify *v, const struct vk_target *t, int nt, enum vk_path p,
		   struct edge_api *a)
{
	int n = 0;
	char api[40];

	for (int i = 0; i < nt; i++) {
		enum vk_func f = t[i].func;
		union vk_fn fn = v->cs->fn[p][f];

		if (!vk_callset_has(v->cs, p, f) || !vk_callset_has(v->cs, VK_PATH_SYSCALL, f))
			continue;
		switch (vk_funcs[f].shape) {
		case VK_SHAPE_CLOCK_TS:
			if (vk_funcs[f].kind != VK_KIND_GETTIME)
				break;
			for (int c = 0; c < t[i].nclocks; c++) {
				int id = t[i].clocks[c].id;

				if (!edge_clock(id))
					continue;
				vk_clock_api(api, sizeof(api), f, &t[i].clocks[c]);
				add_api(v, a, &n, &(struct edge_api){ .kind = EDGE_CLOCK, .fn = fn,
						.t64 = vk_funcs[f].time64, .id = id, .ref = id, .gran = 1 },
					api, p);
			}
			break;
		case VK_SHAPE_TV_TZ:
			add_api(v, a, &n, &(struct edge_api){ .kind = EDGE_TOD, .fn = fn,
					.ref = CLOCK_REALTIME, .gran = 1000 }, "gettimeofday", p);
			break;
		case VK_SHAPE_TIME:
			add_api(v, a, &n, &(struct edge_api){ .kind = EDGE_TIME, .fn = fn,
					.ref = CLOCK_REALTIME_COARSE, .gran = NS }, "time", p);
			break;
		default:
			break;
		}
	}
	return n;
}

/* Aim each API at its next boundary at least LEAD away. */
static void aim(const struct vk_verify *v, struct edge_api *a)
{
	double now = vk_monotonic();
	int64_t ns = vk_sys_clock_ns(v, a->ref);

	a->boundary = (ns / NS + 1) * NS;
	if (a->boundary - ns < (int64_t)((LEAD + 0.05) * NS))
		a->boundary += NS;
	a->at = now + (double)(a->boundary - ns) / NS;
}

static void sleep_until(double when)
{
	double d = when - vk_monotonic();
	struct timespec ts;

	if (d <= 0)
		return;
	ts.tv_sec = (time_t)d;
	ts.tv_nsec = (long)((d - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
}

/* The readers of a seen held since it last looked, counted where its
 * clock is still short of the boundary. */
static void count_held(const struct vk_verify *v, struct edge_api *a)
{
	int seen = 0;

	for (int i = 0; i < READERS; i++)
		if (a->readers[i].held && !a->readers[i].counted)
			seen += a->readers[i].counted = 1;
	if (seen && vk_sys_clock_ns(v, a->ref) < a->boundary)
		a->held_now += seen;
}

/* Let reader r read in window gen. */
static void arm(struct reader *r, int gen)
{
	atomic_store(&r->done, 0);
	r->counted = 0;
	r->gen = atomic_load(&release);	/* here: the reader may wake after release */
	atomic_store(&r->window, gen);
	futex_wake(&r->window);
}

static void fmt_ns(char *buf, size_t len, int64_t ns)
{
	snprintf(buf, len, "%lld.%09lld s", (long long)(ns / NS), (long long)(ns % NS));
}

/* What reader r read in a window of a that was not stepped. */
static void judge_reader(struct vk_verify *v, struct edge_api *a, const struct reader *r,
			 int64_t hi)
{
	char x[40], y[40];
	int cpu = r->back_from ? r->back_cpu : r->cpu >= 0 ? r->cpu : sched_getcpu();
	int64_t lo = a->lo / a->gran * a->gran;

	a->r->calls += r->calls;
	if (r->err) {
		vk_result_fail(v->rs, a->r, "at a second boundary, CPU %d: %s failed with %s after succeeding",
			       cpu, a->path, vk_errno_name(-r->err));
	} else if (r->back_from) {
		fmt_ns(x, sizeof(x), r->back_to);
		fmt_ns(y, sizeof(y), r->back_from);
		vk_result_fail(v->rs, a->r, "at a second boundary, CPU %d: %s read %s after %s: %lld ns back",
			       cpu, a->path, x, y, (long long)(r->back_from - r->back_to));
	} else if (r->lo < lo || r->hi > hi) {
		fmt_ns(x, sizeof(x), r->lo < lo ? r->lo : r->hi);
		fmt_ns(y, sizeof(y), r->lo < lo ? lo : hi);
		vk_result_fail(v->rs, a->r, "at a second boundary, CPU %d: %s read %s, %s the syscall's %s",
			       cpu, a->path, x, r->lo < lo ? "before" : "after", y);
	}
}

/*
 * Hold the readers of the APIs in group: let them read, their timers
 * signalling them until each is stopped inside a call. A hold counts
 * where the syscall, read after it was seen, reads its clock short of the
 * boundary.
 */
static void hold_group(struct vk_verify *v, struct edge_api **group, int ng, int gen)
{
	double deadline = group[0]->at - 0.001;	/* the first boundary */
	int waiting = 1;

	for (int g = 0; g < ng; g++)
		for (int i = 0; i < READERS; i++)
			arm(&group[g]->readers[i], gen);
	while (waiting && vk_monotonic() < deadline) {
		sleep_until(vk_monotonic() + 0.001);
		waiting = 0;
		for (int g = 0; g < ng; g++) {
			count_held(v, group[g]);
			for (int i = 0; i < READERS; i++)
				waiting |= !group[g]->readers[i].held &&
					   !atomic_load(&group[g]->readers[i].done);
		}
	}
	for (int g = 0; g < ng; g++)
		count_held(v, group[g]);
}

/*
 * One window: the readers of the APIs in group held inside a call before
 * the first of their boundaries, let go once each clock has crossed its own
 * and the coarse clock has stepped, then judged.
 */
static void run_window(struct vk_verify *v, struct edge_api **group, int ng,
		       struct reader *rd, int nr, int gen)
{
	int64_t coarse;

	for (int g = 0; g < ng; g++) {
		group[g]->lo = vk_sys_clock_ns(v, group[g]->ref);
		group[g]->off = realtime_off(v);
		group[g]->held_now = 0;
	}
	hold_group(v, group, ng, gen);
	/* A second past when the boundary was due, the clock's syscall is
	 * broken, not slow: the window ends, no later. */
	for (int g = 0; g < ng; g++)
		while (vk_sys_clock_ns(v, group[g]->ref) < group[g]->boundary &&
		       vk_monotonic() < group[g]->at + 1)
			sleep_until(vk_monotonic() + 0.0005);
	/* Across a timekeeper update: the coarse clock steps at each. */
	coarse = vk_sys_clock_ns(v, CLOCK_MONOTONIC_COARSE);
	for (double end = vk_monotonic() + 0.1;
	     vk_sys_clock_ns(v, CLOCK_MONOTONIC_COARSE) == coarse && vk_monotonic() < end;)
		sleep_until(vk_monotonic() + 0.0005);
	atomic_fetch_add(&release, 1);
	futex_wake(&release);
	for (int i = 0; i < nr; i++) {
		double end = vk_monotonic() + RETURN_LIMIT;

		if (atomic_load(&rd[i].window) != gen)
			continue;
		while (!atomic_load(&rd[i].done) && vk_monotonic() < end)
			sleep_until(vk_monotonic() + 0.001);
		if (!atomic_load(&rd[i].done)) {
			vk_result_fail(v->rs, rd[i].api->r, "at a second boundary, CPU %d: a call of %s held across it did not return within %.0f s of being let go",
				       rd[i].cpu, rd[i].api->path, RETURN_LIMIT);
			hung = 1;
			atomic_store(&quit, 1);
			return;
		}
	}
	for (int g = 0; g < ng; g++) {
		struct edge_api *a = group[g];
		int64_t hi = vk_sys_clock_ns(v, a->ref);

		if (is_realtime(a->ref) && llabs(realtime_off(v) - a->off) > STEP_NS) {
			a->stepped++;
			continue;
		}
		for (int i = 0; i < nr; i++)
			if (rd[i].api == a && atomic_load(&rd[i].window) == gen)
				judge_reader(v, a, &rd[i], hi);
		if (!a->held_now) {
			a->late++;
			continue;
		}
		a->windows++;
		a->held += a->held_now;
	}
}

static void read_cpus(void)
{
	cpu_set_t set;

	ncpu = 0;
	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	for (int c = 0; c < CPU_SETSIZE && ncpu < 64; c++)
		if (CPU_ISSET(c, &set))
			cpu_list[ncpu++] = c;
}

static int start_readers(struct vk_verify *v, struct edge_api *a, int n, struct reader *rd)
{
	int nr = 0, err;
	pthread_attr_t attr;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, STACK);
	for (int k = 0; k < n; k++)
		for (int i = 0; i < READERS; i++) {
			struct reader *r = &rd[nr];

			memset(r, 0, sizeof(*r));
			r->api = &a[k];
			if (!i)
				a[k].readers = r;
			r->cpu = ncpu ? cpu_list[i % ncpu] : -1;
			err = pthread_create(&r->thread, &attr, reader_main, r);
			if (err) {
				for (int j = 0; j < n; j++)
					vk_result_error(v->rs, a[j].r, "not tested: vdsokit could not start %d threads: %s",
						       n * READERS, strerror(err));
				pthread_attr_destroy(&attr);
				return -nr - 1;
			}
			nr++;
		}
	pthread_attr_destroy(&attr);
	for (int i = 0; i < nr; i++) {
		while (!atomic_load(&rd[i].ready))
			sleep_until(vk_monotonic() + 0.0005);
		if (atomic_load(&rd[i].ready) < 0) {
			for (int j = 0; j < n; j++)
				vk_result_error(v->rs, a[j].r, "not tested: vdsokit's timer_create() failed: %s",
					       strerror(-atomic_load(&rd[i].ready)));
			return -nr - 1;
		}
	}
	return nr;
}

static void stop_readers(struct reader *rd, int nr)
{
	atomic_store(&quit, 1);
	for (int i = 0; i < nr; i++) {
		atomic_fetch_add(&rd[i].window, 1);
		futex_wake(&rd[i].window);
	}
	for (int i = 0; i < nr && !hung; i++)
		pthread_join(rd[i].thread, NULL);
}

static int edge_done(const struct edge_api *a)
{
	return a->windows >= WINDOWS && a->held >= HELD;
}

static void conclude(struct edge_api *a)
{
	if (a->r->status == VK_FAIL)
		return;
	if (edge_done(a)) {
		snprintf(a->r->detail, sizeof(a->r->detail),
			 "%llu calls held inside across %d second boundaries",
			 a->held, a->windows);
		a->r->bound = VK_BOUND_HELD;
		a->r->bound_ns = (long long)a->held;
		return;
	}
	vk_result_skip(a->r, "held %llu calls inside across %d second boundaries in %.0f s, not %d across %d: %d windows held none before the boundary (a slow or loaded machine), %d were stepped",
		       a->held, a->windows, PASS_LIMIT, HELD, WINDOWS, a->late, a->stepped);
}

static int set_handler(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_hold;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	hold_signal = SIGURG;
	return sigaction(hold_signal, &sa, NULL);
}

void vk_verify_edge(struct vk_verify *v, const struct vk_target *t, int nt, enum vk_path p)
{
	static struct edge_api a[MAX_APIS];
	static struct reader rd[MAX_READERS];
	int n = collect(v, t, nt, p, a), nr, gen = 0;
	const char *refused;
	double end = vk_monotonic() + PASS_LIMIT;

	if (!n)
		return;
	if ((refused = vk_threads_refused())) {
		for (int k = 0; k < n; k++)
			vk_result_skip(a[k].r, "%s", refused);
		return;
	}
	atomic_store(&quit, 0);
	hung = 0;
	if (set_handler()) {
		for (int k = 0; k < n; k++)
			vk_result_error(v->rs, a[k].r, "not tested: vdsokit's sigaction() failed: %s",
				       strerror(errno));
		return;
	}
	read_cpus();
	nr = start_readers(v, a, n, rd);
	if (nr < 0) {
		stop_readers(rd, -nr - 1);
		return;
	}
	for (int k = 0; k < n; k++)
		aim(v, &a[k]);
	while (!atomic_load(&quit)) {
		struct edge_api *group[MAX_APIS], *first = NULL;
		int ng = 0;

		for (int k = 0; k < n; k++)
			if (!edge_done(&a[k]) && a[k].r->status != VK_FAIL &&
			    (!first || a[k].at < first->at))
				first = &a[k];
		if (!first || first->at > end)
			break;
		group[ng++] = first;
		for (int k = 0; k < n; k++)
			if (&a[k] != first && !edge_done(&a[k]) &&
			    a[k].r->status != VK_FAIL && a[k].at < first->at + GROUP)
				group[ng++] = &a[k];
		sleep_until(first->at - LEAD);
		run_window(v, group, ng, rd, nr, ++gen);
		for (int g = 0; g < ng; g++)
			aim(v, group[g]);
	}
	stop_readers(rd, nr);
	for (int k = 0; k < n; k++)
		conclude(&a[k]);
}

// SPDX-License-Identifier: MIT
/*
 * verify's second-edge rule: each time API read through the path,
 * continuously and between syscall brackets, across the moments a torn
 * read shows: its clock's second boundaries and the timekeeper's updates
 * (the moments the coarse clock steps), on every CPU. A library that
 * takes tv_sec from one reading and tv_nsec from the next reads a whole
 * second back there, and nowhere else.
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/verify/verify_shared.h"

#define NS 1000000000LL
#define EDGES 2			/* second boundaries each API is read across */
#define TRIES 8			/* windows at one group's boundaries, at most */
#define LEAD 2000000		/* a window opens this long (ns) before its boundary, */
#define WAKE 10000000		/* or this long without SCHED_FIFO */
#define LATE 50000000		/* and closes at the latest this long after it */
#define AIM 20000		/* from this close (ns), a reading is aimed at it */
#define GAP 200000		/* readings further apart (ns) than this are not continuous */
#define SAME 200000		/* boundaries this close (ns) share a window */
#define UPDATES 2		/* timekeeper updates read across on each CPU */
#define UPDATE_WAIT 0.2		/* seconds to wait for them, at most */
#define STEP 100000		/* REALTIME - MONOTONIC moving further (ns) is a step */
#define SAMPLES 16		/* the gaps (reading - left bracket) aiming learns from */
#define MAX_APIS (VK_NPATHS * (2 * VK_MAX_CLOCKS + 2))

/* One time API, read through the path and bracketed by a syscall clock. */
struct edge_api {
	struct vk_result *r;
	enum vk_path p;
	union vk_fn fn;		/* the path's */
	enum vk_func f;
	int id;			/* the clock read; gettimeofday, time: the bracket's */
	int64_t unit;		/* the API's resolution, ns: 1, 1000 or NS */
	int realtime;		/* it follows REALTIME, which may be stepped */
	int coarse;		/* it moves by ticks: its second rolls over at one */
	int group;		/* the APIs whose seconds roll over with it */
	int64_t edge;		/* the open window's boundary, in its own ns */
	int64_t a, b;		/* the last reading's brackets */
	int64_t span;		/* from its last right bracket to this one */
	int64_t prev;		/* the last reading, INT64_MIN: none */
	int64_t before;		/* the left bracket of the last reading before edge */
	int crossed;		/* the open window read across edge */
	int past;		/* its readings past edge in the open window */
	int late, held;		/* windows opened past edge; read across it with a GAP */
	int landed;		/* its aimed reading of the open window hit edge */
	int edges, updates;	/* second boundaries and updates read across */
	int hits;		/* its aimed readings that hit their boundary */
	int slow;		/* reads 1.5 syscalls' time after its bracket: room to tear */
	int64_t tightest;	/* its narrowest bracket, ns */
	int64_t gap[SAMPLES];	/* reading - left bracket, ns */
	int ngap;
	unsigned long long pending;	/* suspect readings of the open window */
	char first[400];	/* the first one's words */
};

/* APIs whose second boundaries come at the same moment. */
struct edge_group {
	int64_t phase;		/* MONOTONIC ns, mod NS, at which they roll over */
	int windows;
	int hits;		/* of its windows' aimed readings, those that hit */
};

struct edge {
	struct vk_verify *v;
	vk_clock_fn sys;	/* the syscall's clock_gettime */
	int sys64;
	struct edge_api api[MAX_APIS];
	struct edge_group group[MAX_APIS];
	int n, ngroups;
	int cpu;		/* where the reads run, -1: not pinned */
	int ncpus;		/* CPUs read on */
	int pin_err, pin_cpu;	/* a refused sched_setaffinity, and where to */
	int nice;		/* the reader's, kept when its policy changes */
	int no_fifo;		/* SCHED_FIFO was refused */
	int steps;		/* windows REALTIME was stepped in */
	int64_t step_ns;	/* the largest of those steps */
	int64_t syscall;	/* a syscall's time, ns */
	char cpus[120];		/* the CPUs the boundaries were read across on */
};

static int64_t sys_ns(const struct edge *e, int id)
{
	struct vk_ts ts = { 0, 0 };

	vk_clock_call(e->sys, e->sys64, id, &ts);
	return vk_ts_ns(&ts);
}

/* The syscall's reading in the API's unit: its bracket. */
static int64_t bracket(const struct edge *e, const struct edge_api *x)
{
	int64_t t = sys_ns(e, x->id);

	return t - t % x->unit;
}

/* The path's reading, ns; nonzero where the call failed (errno's rule). */
static int reading(const struct edge_api *x, int64_t *ns)
{
	struct vk_ktv tv = { 0, 0 };
	struct vk_ts ts = { 0, 0 };
	int r;

	switch (x->f) {
	case VK_FN_GETTIMEOFDAY:
		r = x->fn.tod(&tv, NULL);
		*ns = ((int64_t)tv.sec * 1000000 + tv.usec) * 1000;
		return r;
	case VK_FN_TIME:
		*ns = (int64_t)x->fn.time(NULL) * NS;
		return 0;
	default:
		r = vk_clock_call(x->fn.clock, vk_funcs[x->f].time64, x->id, &ts);
		*ns = vk_ts_ns(&ts);
		return r;
	}
}

static int is_realtime(int id)
{
	return id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE || id == CLOCK_TAI ||
	       id == CLOCK_REALTIME_ALARM;
}

static int is_coarse(int id)
{
	return id == CLOCK_REALTIME_COARSE || id == CLOCK_MONOTONIC_COARSE;
}

/* The fine clock whose second a coarse one rolls over with, a tick late. */
static int fine_of(int id)
{
	if (id == CLOCK_REALTIME_COARSE)
		return CLOCK_REALTIME;
	return id == CLOCK_MONOTONIC_COARSE ? CLOCK_MONOTONIC : id;
}

static void fmt_ns(char *buf, size_t len, int64_t ns)
{
	int64_t s = ns / NS, f = ns % NS;

	if (f < 0) {
		s--;
		f += NS;
	}
	snprintf(buf, len, "%lld.%09lld s", (long long)s, (long long)f);
}

/* Where a clock's seconds roll over: it less MONOTONIC, mod 1 s. */
static int64_t phase_of(const struct edge *e, int id)
{
	int64_t m0 = sys_ns(e, CLOCK_MONOTONIC), t = sys_ns(e, fine_of(id));
	int64_t m1 = sys_ns(e, CLOCK_MONOTONIC);

	return ((t - m0 / 2 - m1 / 2) % NS + NS) % NS;
}

/* The group of boundaries at phase, made if none is SAME close. */
static int group_of(struct edge *e, int64_t phase)
{
	for (int g = 0; g < e->ngroups; g++) {
		int64_t d = llabs(e->group[g].phase - phase);

		if (d < SAME || NS - d < SAME)
			return g;
	}
	e->group[e->ngroups].phase = phase;
	e->group[e->ngroups].windows = 0;
	e->group[e->ngroups].hits = 0;
	return e->ngroups++;
}

static void add_api(struct edge *e, enum vk_path p, enum vk_func f, const struct vk_clock *c)
{
	struct edge_api *x = &e->api[e->n];
	char name[40];

	if (e->n == MAX_APIS)
		return;
	memset(x, 0, sizeof(*x));
	x->tightest = INT64_MAX;
	x->p = p;
	x->fn = e->v->cs->fn[p][f];
	x->f = f;
	x->unit = 1;
	x->id = c ? c->id : CLOCK_REALTIME;
	if (f == VK_FN_GETTIMEOFDAY)
		x->unit = 1000;
	/* time() is the coarse clock's seconds, and may read a second
	 * behind a CLOCK_REALTIME read before it (doc/method.md): its
	 * brackets are the coarse clock's. */
	if (f == VK_FN_TIME) {
		x->id = CLOCK_REALTIME_COARSE;
		x->unit = NS;
	}
	x->realtime = is_realtime(x->id);
	x->coarse = is_coarse(x->id);
	x->group = group_of(e, phase_of(e, x->id));
	if (c)
		vk_clock_api(name, sizeof(name), f, c);
	else
		snprintf(name, sizeof(name), "%s", vk_funcs[f].name);
	x->r = vk_results_add(e->v->rs, name, p, "second-edge");
	e->n++;
}

/* A CPU-time clock's seconds pass only as it runs: no boundary comes. */
static int has_edges(const struct edge *e, int id)
{
	struct vk_ts ts;

	if (id < 0 || id == CLOCK_PROCESS_CPUTIME_ID || id == CLOCK_THREAD_CPUTIME_ID)
		return 0;
	return vk_clock_call(e->sys, e->sys64, id, &ts) == 0;
}

static void add_target(struct edge *e, const struct vk_target *t, enum vk_path p)
{
	if (!vk_callset_has(e->v->cs, p, t->func) ||
	    !vk_callset_has(e->v->cs, VK_PATH_SYSCALL, t->func))
		return;
	switch (t->func) {
	case VK_FN_CLOCK_GETTIME:
	case VK_FN_CLOCK_GETTIME64:
		for (int i = 0; i < t->nclocks; i++) {
			if (has_edges(e, t->clocks[i].id))
				add_api(e, p, t->func, &t->clocks[i]);
		}
		break;
	case VK_FN_GETTIMEOFDAY:
	case VK_FN_TIME:
		add_api(e, p, t->func, NULL);
		break;
	default:
		break;
	}
}

/* Pin to cpu; a refusal is kept, to be said: vdsokit's limit, not a pass. */
static int move_to(struct edge *e, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		e->pin_err = errno;
		e->pin_cpu = cpu;
		return -1;
	}
	if (e->v->moved && e->cpu != cpu)
		e->v->moved(__func__, __LINE__, e->cpu);
	e->cpu = cpu;
	return 0;
}

/* The CPU of set after cpu, in turn; -1 if none. */
static int next_cpu(const cpu_set_t *set, int cpu)
{
	for (int n = 1; n <= CPU_SETSIZE; n++) {
		if (CPU_ISSET((cpu + n) % CPU_SETSIZE, set))
			return (cpu + n) % CPU_SETSIZE;
	}
	return -1;
}

static void window_open(struct edge_api *x, int64_t edge)
{
	x->edge = edge;
	x->b = INT64_MAX;
	x->span = 0;
	x->prev = INT64_MIN;
	x->before = INT64_MIN;
	x->crossed = 0;
	x->past = 0;
	x->landed = 0;
	x->pending = 0;
	x->ngap = 0;
}

/* A reading out of its brackets or behind the one before: kept until the
 * window shows whether REALTIME was stepped meanwhile. */
static void suspect(const struct edge *e, struct edge_api *x, const char *where, int64_t r)
{
	char sa[40], sr[40], sb[40], sp[40];

	if (x->pending++)
		return;
	fmt_ns(sa, sizeof(sa), x->a);
	fmt_ns(sr, sizeof(sr), r);
	fmt_ns(sb, sizeof(sb), x->b);
	fmt_ns(sp, sizeof(sp), x->prev);
	if (x->prev != INT64_MIN && r < x->prev)
		snprintf(x->first, sizeof(x->first),
			 "%s, CPU %d: %s read %s after %s: %lld ns back (syscall %s, then %s, then syscall %s)",
			 where, e->cpu, vk_path_name(x->p), sr, sp, (long long)(x->prev - r), sa,
			 sr, sb);
	else
		snprintf(x->first, sizeof(x->first),
			 "%s, CPU %d: syscall %s, then %s %s, then syscall %s", where, e->cpu, sa,
			 vk_path_name(x->p), sr, sb);
}

/* One reading between two syscall brackets. */
static void triple(const struct edge *e, struct edge_api *x, const char *where)
{
	int64_t r, b = x->b;
	int err;

	x->a = bracket(e, x);
	err = reading(x, &r);
	x->b = bracket(e, x);
	if (b != INT64_MAX)
		x->span = x->b - b;
	if (x->a <= x->b && x->b - x->a < x->tightest)
		x->tightest = x->b - x->a;
	x->r->calls++;
	if (err)
		return;
	if (r < x->a || r > x->b || (x->prev != INT64_MIN && r < x->prev))
		suspect(e, x, where, r);
	if (x->ngap < SAMPLES && r >= x->a)
		x->gap[x->ngap++] = r - x->a;
	x->prev = r;
}

static int cmp64(const void *p, const void *q)
{
	int64_t a = *(const int64_t *)p, b = *(const int64_t *)q;

	return (a > b) - (a < b);
}

/* The median of its readings' gaps after their left brackets, ns. */
static int64_t median_gap(const struct edge_api *x)
{
	int64_t g[SAMPLES];

	memcpy(g, x->gap, sizeof(g[0]) * x->ngap);
	qsort(g, x->ngap, sizeof(g[0]), cmp64);
	return g[x->ngap / 2];
}

/* A syscall's time: the least of a few back-to-back readings' gaps. */
static int64_t syscall_ns(const struct edge *e)
{
	int64_t least = INT64_MAX, t = sys_ns(e, CLOCK_MONOTONIC), u;

	for (int i = 0; i < 32; i++, t = u) {
		u = sys_ns(e, CLOCK_MONOTONIC);
		if (u - t < least)
			least = u - t;
	}
	return least;
}

/*
 * The aimed reading: syscall readings one at a time until the path's
 * next reading, a bracket later, lands within a syscall's time after
 * the boundary, where the halves of a torn read fall on either side.
 */
static int aim(const struct edge *e, struct edge_api *x, const char *where)
{
	int64_t gap, t0, t, step;

	if (x->ngap < 4)
		return 0;
	gap = median_gap(x);
	t0 = sys_ns(e, x->id);
	t = sys_ns(e, x->id);
	if (t >= x->edge || t <= t0)
		return 0;
	/* A syscall's time: the least step, as an interrupt lengthens some. */
	step = t - t0;
	while (x->edge - t > gap + step) {
		t0 = t;
		t = sys_ns(e, x->id);
		if (t < t0)	/* stepped back: no aim */
			return 0;
		if (t - t0 < step)
			step = t - t0;
	}
	triple(e, x, where);
	/* Hit: it read within half a syscall's time after the boundary, so
	 * that a torn read's first half fell before it, or a second back. */
	x->landed = x->a < x->edge && x->prev != INT64_MIN &&
		    ((x->prev >= x->edge && x->prev - x->edge < step / 2) || x->prev < x->a);
	return 1;
}

static int64_t rt_offset(const struct edge *e)
{
	return sys_ns(e, CLOCK_REALTIME) - sys_ns(e, CLOCK_MONOTONIC);
}

/* Whether REALTIME was stepped in a window: REALTIME - MONOTONIC, by
 * the syscall, moved by more than NTP's slew could move it. */
static int stepped(struct edge *e, int64_t moved)
{
	if (llabs(moved) <= STEP)
		return 0;
	e->steps++;
	if (llabs(moved) > llabs(e->step_ns))
		e->step_ns = moved;
	return 1;
}

/*
 * Close a window: its suspect readings fail the rule, unless REALTIME
 * was stepped and the API follows it. Returns whether they counted.
 */
static int window_close(struct edge *e, struct edge_api *x, int step)
{
	if (x->realtime && step)
		return 0;
	if (x->pending) {
		vk_result_fail(e->v->rs, x->r, "%s", x->first);
		x->r->fails += x->pending - 1;
	}
	return 1;
}

/* Its reading after the boundary, against the last before it. */
static void past_edge(struct edge_api *x)
{
	if (x->past++)
		return;
	/* A coarse reading moves by ticks: its brackets say nothing of how
	 * continuous the readings were. */
	if (x->before == INT64_MIN)
		x->late++;
	else if (x->coarse || x->unit == NS || x->b - x->before <= GAP)
		x->crossed = 1;
	else
		x->held++;
}

static void add_cpu(struct edge *e)
{
	size_t l = strlen(e->cpus);
	char c[16];

	snprintf(c, sizeof(c), "%d", e->cpu);
	if (e->cpu >= 0 && !strstr(e->cpus, c) && l + strlen(c) + 2 < sizeof(e->cpus))
		snprintf(e->cpus + l, sizeof(e->cpus) - l, "%s%s", l ? ", " : "", c);
}

/* The kernel's struct sched_attr, which glibc 2.36 does not declare. */
struct edge_sched_attr {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t priority;
	uint64_t runtime, deadline, period;
};

/*
 * How a window's reader is scheduled. Beside CPU hogs on a loaded host
 * a reader woke 3-20 ms late and was preempted within its default slice
 * (0.75-3 ms), and so missed most boundaries. Where vdsokit may (root,
 * CAP_SYS_NICE), a window runs SCHED_FIFO, as cyclictest's readers do:
 * for LEAD and a tick or so at most, then back. Elsewhere the reader
 * asks for a 30 ms slice (sched_runtime, Linux 6.12+), so that once it
 * runs it reads across the boundary unpreempted, and wakes WAKE early.
 */
static int fifo(struct edge *e, int on)
{
#ifdef SYS_sched_setattr
	struct edge_sched_attr a = { .size = sizeof(a), .policy = SCHED_OTHER };

	if (on && e->no_fifo)
		return -1;
	if (on) {
		a.policy = SCHED_FIFO;
		a.priority = 1;
	} else {
		a.nice = e->nice;
		a.runtime = 30000000;
	}
	if (syscall(SYS_sched_setattr, 0, &a, 0)) {
		e->no_fifo |= on;
		return -1;
	}
	return 0;
#else
	(void)e, (void)on;
	return -1;
#endif
}

/* Sleep until lead before the next boundary of group g, MONOTONIC ns. */
static int64_t sleep_to(const struct edge *e, int g, int64_t lead)
{
	int64_t m = sys_ns(e, CLOCK_MONOTONIC);
	int64_t at = m + NS - (m + e->group[g].phase) % NS;
	struct timespec ts;

	if (at - m < 2 * WAKE)
		at += NS;
	ts.tv_sec = (at - lead) / NS;
	ts.tv_nsec = (at - lead) % NS;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	return at;
}

/* Which of group g's fine APIs a window aims at: each in turn, once the
 * one before was hit. */
static struct edge_api *aimed(struct edge *e, int g)
{
	int n = 0, k;

	for (int i = 0; i < e->n; i++)
		n += e->api[i].group == g && !e->api[i].coarse && e->api[i].unit < NS;
	k = n ? e->group[g].hits % n : -1;
	for (int i = 0; i < e->n; i++) {
		struct edge_api *x = &e->api[i];

		if (x->group == g && !x->coarse && x->unit < NS && !k--)
			return x;
	}
	return NULL;
}

/*
 * A window at a second boundary of group g: asleep until LEAD before it,
 * then each API read in turn, bracketed, one reading aimed at it, until
 * each has read past it (a coarse one a tick late).
 */
static void boundary(struct edge *e, int g)
{
	const char *where = "at a second boundary";
	struct edge_api *shot = aimed(e, g), *target = shot;
	int rt = !fifo(e, 1);
	int64_t at = sleep_to(e, g, rt ? LEAD : WAKE), off = rt_offset(e);
	double late = vk_monotonic() + (double)(at + LATE - sys_ns(e, CLOCK_MONOTONIC)) / NS;
	int left, step;

	for (int i = 0; i < e->n; i++) {
		struct edge_api *x = &e->api[i];

		/* The nearest whole second of its fine clock: a late sleep
		 * gives one already past, which is not read across. */
		if (x->group == g)
			window_open(x, (sys_ns(e, fine_of(x->id)) + NS / 2) / NS * NS);
	}
	do {
		left = 0;
		for (int i = 0; i < e->n; i++) {
			struct edge_api *x = &e->api[i];

			if (x->group != g)
				continue;
			/* Within a round or two of it: readings of the others
			 * wait while it is aimed. */
			if (x == shot && x->b < x->edge && x->edge - x->b < AIM + 2 * x->span &&
			    aim(e, x, where))
				shot = NULL;
			else
				triple(e, x, where);
			if (x->b < x->edge) {
				x->before = x->a;
				left++;
			} else {
				past_edge(x);
			}
		}
	} while (left && vk_monotonic() < late);
	if (rt)
		fifo(e, 0);
	/* The vDSO and a pass-through to the syscall read half a syscall
	 * and one after their bracket; a reading made of two syscalls, as a
	 * torn one is, two. */
	for (int i = 0; i < e->n; i++) {
		struct edge_api *x = &e->api[i];

		if (x->group == g && x->ngap >= 4 && median_gap(x) >= 3 * e->syscall / 2)
			x->slow = 1;
	}
	step = stepped(e, rt_offset(e) - off);
	for (int i = 0; i < e->n; i++) {
		struct edge_api *x = &e->api[i];

		if (x->group != g || !window_close(e, x, step))
			continue;
		x->edges += x->crossed;
		x->hits += x == target && x->landed;
		e->group[g].hits += x == target && x->landed;
	}
	e->group[g].windows++;
	add_cpu(e);
}

/*
 * On the current CPU: every API read in turn, bracketed, across UPDATES
 * steps of MONOTONIC_COARSE, each a timekeeper update. Returns whether
 * REALTIME was stepped meanwhile (its APIs' readings then not judged).
 */
static int updates_once(struct edge *e)
{
	const char *where = "across a timekeeper update";
	int64_t off = rt_offset(e), c0 = sys_ns(e, CLOCK_MONOTONIC_COARSE), c;
	double end = vk_monotonic() + UPDATE_WAIT;
	int seen = 0, step;

	for (int i = 0; i < e->n; i++)
		window_open(&e->api[i], 0);
	while (seen < UPDATES && vk_monotonic() < end) {
		for (int i = 0; i < e->n; i++)
			triple(e, &e->api[i], where);
		c = sys_ns(e, CLOCK_MONOTONIC_COARSE);
		seen += c != c0;
		c0 = c;
	}
	step = stepped(e, rt_offset(e) - off);
	for (int i = 0; i < e->n; i++) {
		if (window_close(e, &e->api[i], step))
			e->api[i].updates += seen;
	}
	return step;
}

/* A host whose REALTIME is stepped (here, every few seconds) gets a few
 * tries, each a tick or two. */
static void updates(struct edge *e)
{
	for (int i = 0; i < 3 && updates_once(e); i++)
		;
}

/*
 * Whether group g still needs a boundary read across, or hit: a torn
 * read shows only to a reading whose halves fall either side of it. A
 * reading of one syscall or less leaves no room between halves for a
 * bracketed aim to find: its misses would cost a second each, for
 * nothing.
 */
static int wanting(const struct edge *e, int g)
{
	int slow = 0, passing = 0;

	for (int i = 0; i < e->n; i++) {
		const struct edge_api *x = &e->api[i];

		if (x->group != g || x->r->status != VK_PASS)
			continue;
		if (x->edges < EDGES)
			return 1;
		passing = 1;
		slow |= x->slow;
	}
	return passing && slow && e->group[g].hits < EDGES;
}

/* Of the groups that need one, the one whose boundary comes first. */
static int next_group(const struct edge *e)
{
	int64_t m = sys_ns(e, CLOCK_MONOTONIC), best = INT64_MAX;
	int g = -1;

	for (int i = 0; i < e->ngroups; i++) {
		int64_t wait = NS - (m + e->group[i].phase) % NS;

		if (wait < 2 * WAKE)
			wait += NS;
		if (wanting(e, i) && e->group[i].windows < TRIES && wait < best) {
			best = wait;
			g = i;
		}
	}
	return g;
}

static void judge(const struct edge *e, struct edge_api *x)
{
	char step[160] = "";

	if (x->r->status != VK_PASS)
		return;
	if (e->steps)
		snprintf(step, sizeof(step), "; REALTIME was stepped by %lld ns in %d windows, whose readings were not judged",
			 (long long)e->step_ns, e->steps);
	/* vdsokit's own limit, not the path's: a failure, as a SKIP would
	 * read as not applicable here (tests/cases/verify.sh). */
	if (e->pin_err && e->pin_cpu < 0)
		vk_result_fail(e->v->rs, x->r, "not tested on every CPU: vdsokit's sched_getaffinity() failed: %s%s",
			       strerror(e->pin_err), step);
	else if (e->pin_err)
		vk_result_fail(e->v->rs, x->r, "not tested on every CPU: vdsokit could not pin itself to CPU %d: sched_setaffinity() failed: %s%s",
			       e->pin_cpu, strerror(e->pin_err), step);
	else if (x->edges < EDGES)
		vk_result_skip(x->r, "read continuously across %d of %d second boundaries in %d windows: in %d the sleep woke past the boundary, in %d the readings either side of it were over %d us apart (preempted)%s",
			       x->edges, EDGES, e->group[x->group].windows, x->late, x->held,
			       GAP / 1000, step);
	else if (x->updates < UPDATES * e->ncpus)
		vk_result_skip(x->r, "read across %d timekeeper updates, not %d on each of %d CPUs: MONOTONIC_COARSE stood still for %.1f s%s",
			       x->updates, UPDATES, e->ncpus, UPDATE_WAIT, step);
	else if (x->tightest != INT64_MAX) {
		/* As ordered's: the text report sums it up in "Tested:". */
		x->r->bound = VK_BOUND_ORDER;
		x->r->bound_ns = x->tightest;
		snprintf(x->r->detail, sizeof(x->r->detail),
			 "read across %d second boundaries (on CPUs %s; %d readings aimed at one hit it) and %d timekeeper updates (%d on each of %d CPUs), each reading between syscall brackets%s",
			 x->edges, e->cpus, x->hits, x->updates, UPDATES, e->ncpus, step);
	}
}

static void init(struct edge *e, struct vk_verify *v)
{
	memset(e, 0, sizeof(*e));
	e->v = v;
	e->cpu = -1;
	e->sys = v->cs->fn[VK_PATH_SYSCALL][VK_FN_CLOCK_GETTIME].clock;
	if (!e->sys) {
		e->sys = v->cs->fn[VK_PATH_SYSCALL][VK_FN_CLOCK_GETTIME64].clock;
		e->sys64 = 1;
	}
}

void vk_verify_edges(struct vk_verify *v, const struct vk_target *t, int nt, unsigned paths)
{
	static struct edge e;	/* a few hundred APIs' samples: off the stack */
	cpu_set_t saved;
	int g, cpu = -1;

	init(&e, v);
	for (int k = 0; k < nt; k++) {
		for (int p = 0; p < VK_NPATHS; p++) {
			if (paths & VK_PATH_BIT(p))
				add_target(&e, &t[k], p);
		}
	}
	if (!e.n || !e.sys)
		return;
	errno = 0;
	e.nice = getpriority(PRIO_PROCESS, 0);
	e.no_fifo = errno != 0;
	fifo(&e, 0);
	e.syscall = syscall_ns(&e);
	if (sched_getaffinity(0, sizeof(saved), &saved)) {
		e.pin_err = errno;
		e.pin_cpu = -1;
		CPU_ZERO(&saved);
	}
	while ((cpu = next_cpu(&saved, cpu)) >= 0 && !e.pin_err && !move_to(&e, cpu)) {
		updates(&e);
		if (++e.ncpus == CPU_COUNT(&saved))
			break;
	}
	if (!e.ncpus) {
		updates(&e);
		e.ncpus = 1;
	}
	/* The boundaries on the CPUs in turn. */
	while ((g = next_group(&e)) >= 0) {
		if (!e.pin_err && (cpu = next_cpu(&saved, cpu)) >= 0)
			move_to(&e, cpu);
		boundary(&e, g);
	}
	if (CPU_COUNT(&saved) && !sched_setaffinity(0, sizeof(saved), &saved) && v->moved)
		v->moved(__func__, __LINE__, -1);
	for (int k = 0; k < e.n; k++)
		judge(&e, &e.api[k]);
}

// SPDX-License-Identifier: MIT
/*
 * stress's run: the reader threads, the fault thread, and the child that
 * holds them while the parent keeps what it must put back (stress.h).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/base/api.h"
#include "core/base/children.h"
#include "core/base/sysinfo.h"
#include "core/stress/stress.h"
#include "core/stress/stress_faults.h"

#define NSEC 1000000000LL

/* What one reader saw on one path during one step. */
struct cell {
	unsigned long long calls, errors, misordered, backs, jumps;
	int64_t back[VK_STRESS_MAX_CLOCKS];	/* the largest step back, ns */
	int64_t latency;			/* the longest call, ns */
	char first[160];			/* the first failure */
};

/* The call a reader is in, to name the code that crashed, exited or
 * hung: path + 1 (0: none), the function and its clock. */
struct in_call {
	int path, fn, clock;
};

/* Shared by the parent and the child, which may die at any point. */
struct shared {
	int step;		/* the step being injected */
	unsigned gen;		/* odd while a fault is being injected */
	int unstarted;		/* no reader thread could start */
	int done;
	struct in_call in[VK_STRESS_MAX_THREADS];
	int64_t max_jump;	/* ns a monotonic clock may move on between two reads */
	unsigned long long beat[VK_STRESS_MAX_THREADS];
	int64_t latest[VK_NPATHS][VK_STRESS_MAX_CLOCKS];	/* across threads */
	int injected[VK_STRESS_MAX_STEPS];	/* 1 done, 2 and broke a rule, 3 and a rule
						 * could not be tested, -1 failed */
	char why[VK_STRESS_MAX_STEPS][320];
	struct cell cells[];	/* [thread][step][path] */
};

struct reader {
	const struct vk_stress *st;
	struct shared *sh;
	int id;
	long ncpus;		/* configured: getcpu's answer is below */
	int64_t last[VK_NPATHS][VK_STRESS_MAX_CLOCKS];
};

static int64_t raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * NSEC + ts.tv_nsec;
}

static int64_t ns_of(const struct vk_kts *t)
{
	return (int64_t)t->sec * NSEC + t->nsec;
}

static struct cell *cell_of(const struct reader *r, int step, int path)
{
	size_t i = ((size_t)r->id * VK_STRESS_MAX_STEPS + step) * VK_NPATHS + path;

	return &r->sh->cells[i];
}

/* Keep the first failure a reader saw in this cell. */
static void note(struct cell *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct cell *c, const char *fmt, ...)
{
	va_list ap;

	if (c->first[0])
		return;
	va_start(ap, fmt);
	vsnprintf(c->first, sizeof(c->first), fmt, ap);
	va_end(ap);
}

/*
 * Record a read v and what it broke (prev: what it must not be below):
 * the largest step back of any clock, REALTIME's jumps among them, and
 * publish it to the other threads if it must not step back.
 */
static void record(struct reader *r, struct cell *c, int p, int ci, int64_t prev, int64_t v,
		   int bad)
{
	int clock = r->st->clocks[ci];
	int64_t *latest = &r->sh->latest[p][ci];

	r->last[p][ci] = v;
	if (v < prev && prev - v > c->back[ci])
		c->back[ci] = prev - v;
	if (bad & VK_STRESS_BACK) {
		c->backs++;
		note(c, "%s stepped back %lld ns (%lld -> %lld)", vk_clock_name(clock),
		     (long long)(prev - v), (long long)prev, (long long)v);
	}
	if (bad & VK_STRESS_JUMP) {
		c->jumps++;
		note(c, "%s jumped %lld ns between two reads (%lld -> %lld)", vk_clock_name(clock),
		     (long long)(v - prev), (long long)prev, (long long)v);
	}
	for (int64_t l = __atomic_load_n(latest, __ATOMIC_RELAXED);
	     vk_stress_monotonic(clock) && l < v;)
		if (__atomic_compare_exchange_n(latest, &l, v, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
			break;
}

/* The step a call belongs to, loaded after it: a read that saw a fault's
 * effect counts in that fault's step. */
static struct cell *cell_now(const struct reader *r, int p)
{
	return cell_of(r, __atomic_load_n(&r->sh->step, __ATOMIC_ACQUIRE), p);
}

static void enter(struct reader *r, int p, int fn, int clock)
{
	struct in_call *in = &r->sh->in[r->id];

	__atomic_store_n(&in->fn, fn, __ATOMIC_RELAXED);
	__atomic_store_n(&in->clock, clock, __ATOMIC_RELAXED);
	__atomic_store_n(&in->path, p + 1, __ATOMIC_RELEASE);
}

static void leave(struct reader *r)
{
	__atomic_store_n(&r->sh->in[r->id].path, 0, __ATOMIC_RELEASE);
}

static void read_clock(struct reader *r, int p, int ci)
{
	const struct vk_callset *cs = r->st->cs;
	vk_clock_fn sys = cs->fn[VK_PATH_SYSCALL][VK_FN_CLOCK_GETTIME].clock;
	struct cell *c;
	int clock = r->st->clocks[ci];
	unsigned g = __atomic_load_n(&r->sh->gen, __ATOMIC_ACQUIRE);
	int64_t seen = __atomic_load_n(&r->sh->latest[p][ci], __ATOMIC_ACQUIRE), t0, t1, prev;
	struct vk_kts a, b, d;
	int ret, quiet, bad;

	sys(clock, &a);
	enter(r, p, VK_FN_CLOCK_GETTIME, clock);
	t0 = raw_ns();
	ret = cs->fn[p][VK_FN_CLOCK_GETTIME].clock(clock, &b);
	t1 = raw_ns();
	leave(r);
	sys(clock, &d);
	c = cell_now(r, p);
	c->calls++;
	if (t1 - t0 > c->latency)
		c->latency = t1 - t0;
	if (ret) {
		c->errors++;
		note(c, "%s returned %d", vk_clock_name(clock), ret);
		return;
	}
	/* Another thread's latest counts only for the clocks that must not
	 * step back; REALTIME's last read shows its jumps. */
	prev = vk_stress_monotonic(clock) && seen > r->last[p][ci] ? seen : r->last[p][ci];
	quiet = !(g & 1) && g == __atomic_load_n(&r->sh->gen, __ATOMIC_ACQUIRE);
	bad = vk_stress_judge(clock, prev, ns_of(&a), ns_of(&b), ns_of(&d), quiet,
			      r->last[p][ci] ? r->sh->max_jump : 0);
	record(r, c, p, ci, prev, ns_of(&b), bad);
	if (bad & VK_STRESS_ORDER) {
		c->misordered++;
		note(c, "%s read %lld ns, not between the syscall's %lld and %lld",
		     vk_clock_name(clock), (long long)ns_of(&b), (long long)ns_of(&a),
		     (long long)ns_of(&d));
	}
}

static void read_getcpu(struct reader *r, int p)
{
	unsigned cpu = ~0u, node = ~0u;
	int64_t t0, t1;
	struct cell *c;
	int ret;

	enter(r, p, VK_FN_GETCPU, -1);
	t0 = raw_ns();
	ret = r->st->cs->fn[p][VK_FN_GETCPU].getcpu(&cpu, &node, NULL);
	t1 = raw_ns();
	leave(r);
	c = cell_now(r, p);
	c->calls++;
	if (t1 - t0 > c->latency)
		c->latency = t1 - t0;
	if (ret || cpu >= (unsigned)r->ncpus) {
		c->errors++;
		note(c, "getcpu returned %d, cpu %u", ret, cpu);
	}
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	const struct vk_stress *st = r->st;

	while (!__atomic_load_n(&r->sh->done, __ATOMIC_ACQUIRE)) {
		for (int p = 0; p < VK_NPATHS; p++) {
			if (!(st->paths & VK_PATH_BIT(p)))
				continue;
			for (int ci = 0; ci < st->nclocks; ci++)
				if (st->cs->fn[p][VK_FN_CLOCK_GETTIME].p)
					read_clock(r, p, ci);
			if (st->getcpu && st->cs->fn[p][VK_FN_GETCPU].p)
				read_getcpu(r, p);
		}
		__atomic_add_fetch(&r->sh->beat[r->id], 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

static void sleep_for(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s, .tv_nsec = (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* A slew or leap step's outcome from vk_fault_rate() or vk_fault_leap():
 * see injected[]. */
static int rated(int rate)
{
	return rate > 0 ? 2 : rate < 0 ? 3 : 1;
}

/* The child: readers, and the faults in turn in this thread. */
static void child(const struct vk_stress *parent, struct shared *sh,
		  const struct vk_fault_step *s, int n, const struct vk_stress_saved *saved,
		  int threads)
{
	static struct reader r[VK_STRESS_MAX_THREADS];
	static struct vk_callset loaded;
	struct vk_stress mine = *parent, *st = &mine;
	pthread_t t[VK_STRESS_MAX_THREADS];
	int started = 0;

	/* A group of its own, ended with it. */
	setpgid(0, 0);
	mine.cs = vk_callset_child(parent->cs, parent->paths, &loaded);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	for (; started < threads; started++) {
		r[started] = (struct reader){ .st = st, .sh = sh, .id = started,
					     .ncpus = sysconf(_SC_NPROCESSORS_CONF) };
		if (pthread_create(&t[started], NULL, reader_main, &r[started]))
			break;
	}
	sh->unstarted = !started;
	for (int i = 0; i < n; i++) {
		__atomic_store_n(&sh->step, i, __ATOMIC_RELEASE);
		__atomic_add_fetch(&sh->gen, 1, __ATOMIC_ACQ_REL);
		if (!s[i].skip[0]) {
			int got = vk_fault_apply(st, &s[i], saved, sh->why[i], sizeof(sh->why[i]));

			sh->injected[i] = got < 0 ? -1 : got ? 2 : 1;
		}
		if (s[i].op == VK_OP_TIMEZONE && sh->injected[i] == 1)
			sh->injected[i] = rated(vk_fault_timezone(st->cs, st->paths, &s[i], sh->why[i],
								  sizeof(sh->why[i])));
		/* The leap's watch judges the readers again once it is past. */
		if (s[i].op == VK_OP_LEAP && sh->injected[i] == 1)
			sh->injected[i] = rated(vk_fault_leap(st->cs, st->paths, &sh->gen, saved,
							      sh->why[i], sizeof(sh->why[i])));
		else
			__atomic_add_fetch(&sh->gen, 1, __ATOMIC_ACQ_REL);
		if ((s[i].op == VK_OP_FREQ || s[i].op == VK_OP_TICK) && sh->injected[i] == 1)
			sh->injected[i] = rated(vk_fault_rate(&s[i], st->seconds / n, sh->why[i],
							      sizeof(sh->why[i])));
		else
			sleep_for(st->seconds / n);
	}
	__atomic_store_n(&sh->done, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	_exit(started ? 0 : 3);
}

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC + ts.tv_nsec;
}

static void end_child(pid_t pid)
{
	kill(-pid, SIGKILL);
	while (vk_waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* The API a function and clock are, "getcpu" or "clock-gettime-monotonic". */
static const char *api_of(int fn, int clock)
{
	for_each_api(a) {
		if ((int)a->func == fn && a->clock == clock)
			return a->name;
	}
	return vk_funcs[fn].name;
}

/* " in LIB's clock_gettime (clock-gettime-monotonic), on the impl path",
 * or "" when the reader was in no call. */
static void call_of(const struct vk_stress *st, const struct in_call *in, char *buf,
		    size_t len)
{
	int p = __atomic_load_n(&in->path, __ATOMIC_ACQUIRE) - 1;
	int fn = __atomic_load_n(&in->fn, __ATOMIC_RELAXED);

	buf[0] = 0;
	if (p < 0 || p >= VK_NPATHS || fn < 0 || fn >= VK_NFUNCS)
		return;
	snprintf(buf, len, " in %s%s%s (%s), on the %s path",
		 p == VK_PATH_IMPL && st->cs->impl_path ? st->cs->impl_path : "",
		 p == VK_PATH_IMPL && st->cs->impl_path ? "'s " : "", vk_funcs[fn].name,
		 api_of(fn, __atomic_load_n(&in->clock, __ATOMIC_RELAXED)), vk_path_name(p));
}

/* The call the readers were in when the child ended: the impl path's
 * first, the code most likely to have ended it. */
static void where_ended(const struct vk_stress *st, const struct shared *sh, char *buf,
			size_t len)
{
	buf[0] = 0;
	for (int i = 0; i < VK_STRESS_MAX_THREADS; i++) {
		if (__atomic_load_n(&sh->in[i].path, __ATOMIC_ACQUIRE) == VK_PATH_IMPL + 1) {
			call_of(st, &sh->in[i], buf, len);
			return;
		}
	}
	for (int i = 0; i < VK_STRESS_MAX_THREADS && !buf[0]; i++)
		call_of(st, &sh->in[i], buf, len);
}

/* The child ended with status: 0 when it ran to its end, else what
 * became of it, and in which call. An exit before the end is no pass,
 * whatever its status. */
static int ended(const struct vk_stress *st, const struct shared *sh, int status, char *what,
		 size_t len)
{
	char where[320];

	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && sh->done)
		return 0;
	where_ended(st, sh, where, sizeof(where));
	if (WIFSIGNALED(status))
		snprintf(what, len, "crashed: the readers were killed by signal %d (%s)%s",
			 WTERMSIG(status), strsignal(WTERMSIG(status)), where);
	else if (sh->unstarted)
		snprintf(what, len, "no reader thread could start");
	else
		snprintf(what, len, "exited with status %d before its end%s", WEXITSTATUS(status),
			 where);
	return -1;
}

/*
 * Wait for the child; a reader that makes no call for HANG seconds is a
 * hang. 0 when it ended well, else what became of it in what.
 */
static int watch(const struct vk_stress *st, struct shared *sh, pid_t pid, int threads,
		 char *what, size_t len)
{
	const int64_t hang = VK_STRESS_HANG_SECONDS * NSEC;
	int64_t since[VK_STRESS_MAX_THREADS], start = mono_ns(), now;
	unsigned long long last[VK_STRESS_MAX_THREADS] = { 0 };
	char where[320];
	int status;

	for (int i = 0; i < threads; i++)
		since[i] = start;
	for (;;) {
		if (vk_exited(pid)) {
			/* Nothing it forked (a library's helper) outlives it. */
			vk_end_group(pid);
			while (vk_waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			return ended(st, sh, status, what, len);
		}
		if (*st->stop) {
			end_child(pid);
			snprintf(what, len, "interrupted");
			return -1;
		}
		now = mono_ns();
		for (int i = 0; i < threads; i++) {
			unsigned long long b = __atomic_load_n(&sh->beat[i], __ATOMIC_ACQUIRE);

			if (b != last[i]) {
				last[i] = b;
				since[i] = now;
			} else if (now - since[i] > hang) {
				end_child(pid);
				call_of(st, &sh->in[i], where, sizeof(where));
				snprintf(what, len, "hang: reader %d made no call for %d s%s", i,
					 VK_STRESS_HANG_SECONDS, where);
				return -1;
			}
		}
		if (now - start > (int64_t)(st->seconds * NSEC) + hang) {
			end_child(pid);
			snprintf(what, len, "hang: the faults did not end %d s after --duration",
				 VK_STRESS_HANG_SECONDS);
			return -1;
		}
		sleep_for(0.05);
	}
}

/* The cells of every reader for one step and path, merged. */
static struct cell merge(const struct vk_stress *st, const struct shared *sh, int threads,
			 int step, int p)
{
	struct cell m = { 0 };

	for (int t = 0; t < threads; t++) {
		const struct cell *c = &sh->cells[((size_t)t * VK_STRESS_MAX_STEPS + step) * VK_NPATHS + p];

		m.calls += c->calls;
		m.errors += c->errors;
		m.misordered += c->misordered;
		m.backs += c->backs;
		m.jumps += c->jumps;
		for (int ci = 0; ci < st->nclocks; ci++)
			m.back[ci] = c->back[ci] > m.back[ci] ? c->back[ci] : m.back[ci];
		m.latency = c->latency > m.latency ? c->latency : m.latency;
		if (!m.first[0])
			memcpy(m.first, c->first, sizeof(m.first));
	}
	return m;
}

/* "step back: monotonic 0 ns, realtime 3600000000000 ns; latency 12 us" */
static void figures(const struct vk_stress *st, const struct cell *m, char *buf, size_t len)
{
	size_t n = snprintf(buf, len, "max step back:");

	for (int ci = 0; ci < st->nclocks && n < len; ci++)
		n += snprintf(buf + n, len - n, "%s %s %lld ns", ci ? "," : "",
			      vk_clock_name(st->clocks[ci]), (long long)m->back[ci]);
	if (n < len)
		snprintf(buf + n, len - n, "%smax latency %lld ns", st->nclocks ? "; " : " none; ",
			 (long long)m->latency);
}

static void result(const struct vk_stress *st, const struct shared *sh, int threads,
		   const struct vk_fault_step *s, int i, int p, const char *what,
		   struct vk_results *rs)
{
	struct vk_result *r = vk_results_add(rs, s->name, p, "stress");
	struct cell m = merge(st, sh, threads, i, p);
	unsigned long long bad = m.errors + m.misordered + m.backs + m.jumps;
	char fig[320], more[512];

	figures(st, &m, fig, sizeof(fig));
	/* What the fault thread saw of the step, then what the readers did. */
	snprintf(more, sizeof(more), "%s%s%s", sh->why[i], sh->why[i][0] ? "; " : "", fig);
	r->calls = m.calls;
	if (s->skip[0])
		vk_result_skip(r, "%s", s->skip);
	else if (i > sh->step)
		vk_result_skip(r, "not reached: %s", what);
	else if (sh->injected[i] < 0)
		vk_result_skip(r, "could not be injected: %s", sh->why[i]);
	else if (sh->injected[i] == 2)
		vk_result_fail(rs, r, "%s%s%s", m.first, bad ? "; " : "", more);
	else if (bad)
		vk_result_fail(rs, r, "%s; %s", m.first, more);
	else if (what[0] && i == sh->step && strcmp(what, "interrupted"))
		vk_result_fail(rs, r, "%s; %s", what, more);
	else if (sh->injected[i] == 3)
		vk_result_skip(r, "%s", more);
	else
		snprintf(r->detail, sizeof(r->detail), "%s", more);
	if (bad)
		r->fails = bad;
}

int vk_stress_run(const struct vk_stress *st, struct vk_results *rs, struct vk_stress_end *end,
		  char *err, size_t len)
{
	static struct vk_fault_step steps[VK_STRESS_MAX_STEPS];
	const char *refused;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int threads = st->threads ? st->threads : online > 0 ? (int)online : 1;
	size_t size;
	struct shared *sh;
	pid_t pid;
	int n;

	/* Each reading is judged by the syscall's around it, in threads. */
	if (!vk_callset_has(st->cs, VK_PATH_SYSCALL, VK_FN_CLOCK_GETTIME)) {
		snprintf(err, len, "%s", vk_no_reference(st->cs, VK_FN_CLOCK_GETTIME));
		return -1;
	}
	if ((refused = vk_threads_refused())) {
		snprintf(err, len, "%s", refused);
		return -1;
	}
	if (threads > VK_STRESS_MAX_THREADS)
		threads = VK_STRESS_MAX_THREADS;
	size = sizeof(*sh) + (size_t)threads * VK_STRESS_MAX_STEPS * VK_NPATHS * sizeof(struct cell);
	sh = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		snprintf(err, len, "mmap: %s", strerror(errno));
		return -1;
	}
	if (vk_stress_save(&end->saved, st->faults, err, len)) {
		munmap(sh, size);
		return -1;
	}
	n = vk_fault_steps(st->faults, st->pause, &end->saved, steps, VK_STRESS_MAX_STEPS);
	/* More than a pause and a hang is a jump. */
	sh->max_jump = (int64_t)(st->pause + VK_STRESS_HANG_SECONDS) * NSEC;
	fflush(NULL);
	pid = vk_fork();
	if (pid == 0)
		child(st, sh, steps, n, &end->saved, threads);
	if (pid > 0)
		setpgid(pid, pid);
	if (pid < 0)
		snprintf(end->what, sizeof(end->what), "fork: %s", strerror(errno));
	else if (watch(st, sh, pid, threads, end->what, sizeof(end->what)) == 0)
		end->what[0] = 0;
	end->restored = vk_stress_restore(&end->saved, end->restore_err, sizeof(end->restore_err)) == 0;
	end->threads = threads;
	for (int i = 0; i < n; i++)
		for (int p = 0; p < VK_NPATHS; p++)
			if (st->paths & VK_PATH_BIT(p))
				result(st, sh, threads, &steps[i], i, p, end->what, rs);
	munmap(sh, size);
	return 0;
}

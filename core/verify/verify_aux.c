// SPDX-License-Identifier: MIT
/*
 * verify's checks of an auxiliary clock (CLOCK_AUX + 0..7: ids 16-23,
 * Linux 6.17+ with CONFIG_POSIX_AUX_CLOCKS) while it moves. One that was
 * disabled is enabled through sysfs, read on the path between two reads
 * of the syscall, stepped (clock_adjtime's ADJ_SETOFFSET) and slewed
 * (ADJ_FREQUENCY) and read again, then disabled, as it was found. The
 * kernel's vDSO reads an enabled aux clock from its own data
 * (lib/vdso/gettimeofday.c's do_aux) and leaves a disabled one to the
 * syscall, which fails it with ENODEV (kernel/time/timekeeping.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/timex.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/verify/verify_shared.h"

#define AUX_DIR "/sys/kernel/time/aux_clocks"
#define AUX_FIRST 16
#define AUX_LAST 23
#define AUX_STEP 1000		/* s: far past any bracket of the syscall's */
#define AUX_PPM 500		/* the most ADJ_FREQUENCY takes */
#define AUX_ROUND 64		/* syscall, path, syscall triples per round */

static void enable_file(char *buf, size_t len, int id)
{
	snprintf(buf, len, AUX_DIR "/%d/aux_clock_enable", id - AUX_FIRST);
}

/* 1 enabled, 0 disabled, -1 unreadable. */
static int aux_enabled(int id)
{
	char path[80], c = 0;
	int fd, n;

	enable_file(path, sizeof(path), id);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, &c, 1);
	close(fd);
	return n == 1 ? c == '1' : -1;
}

/* 0, or -errno of the open or the write. */
static int aux_set(int id, int on)
{
	char path[80];
	int fd, r = 0;

	enable_file(path, sizeof(path), id);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, on ? "1\n" : "0\n", 2) != 2)
		r = -errno;
	close(fd);
	return r;
}

/* The highest of t's aux clocks that is disabled (the low ones are the
 * likelier in use), or 0 where none is. */
static int pick(const struct vk_target *t)
{
	int best = 0;

	for (int i = 0; i < t->nclocks; i++) {
		int id = t->clocks[i].id;

		if (id >= AUX_FIRST && id <= AUX_LAST && id > best && aux_enabled(id) == 0)
			best = id;
	}
	return best;
}

static int has_aux(const struct vk_target *t)
{
	for (int i = 0; i < t->nclocks; i++)
		if (t->clocks[i].id >= AUX_FIRST && t->clocks[i].id <= AUX_LAST)
			return 1;
	return 0;
}

int vk_verify_aux_may_enable(const struct vk_verify *v, const struct vk_target *t)
{
	return v->aux && has_aux(t) && vk_funcs[t->func].kind == VK_KIND_GETTIME;
}

/*
 * A process that disables clock id once the pipe's write end closes,
 * that is once this one ends, however it ends: a path that crashes or
 * hangs (and is killed) leaves the clock as it was found. It leads a
 * process group of its own and is no vk_fork() child, as the group this
 * one leads is killed the moment it ends (vk_isolate), and it ignores
 * the signals a terminal sends: it outlives this process by one write.
 * It keeps every descriptor it was born with, so that verify's driver,
 * which waits for the end of one of them, knows when it has written.
 */
static pid_t watch(int id, int *wfd)
{
	int fds[2];
	pid_t pid;
	char c;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		signal(SIGINT, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		close(fds[1]);
		while (read(fds[0], &c, 1) < 0 && errno == EINTR)
			;
		aux_set(id, 0);
		_exit(0);
	}
	close(fds[0]);
	if (pid < 0) {
		close(fds[1]);
		return -1;
	}
	/* Here too, as the process may not have run yet when this one dies
	 * and its group is killed: a loaded machine's CI met that. */
	setpgid(pid, pid);
	*wfd = fds[1];
	return pid;
}

struct aux {
	struct vk_verify *v;
	vk_clock_fn sys, fn;
	int t64, id;
	const char *path;
	struct vk_result *ordered, *monotonic;
	int64_t tightest;
};

static int adjust(int id, struct timex *tx)
{
	return clock_adjtime(id, tx) < 0 ? -errno : 0;
}

/* One phase of reads: each of the path's between two of the syscall's,
 * none before the one it read before. How many succeeded. */
static unsigned long long read_phase(struct aux *a, double secs, const char *phase)
{
	double deadline = vk_monotonic() + secs;
	unsigned long long read = a->monotonic->calls;
	int64_t prev = INT64_MIN;
	struct vk_ts s0, x, s1;

	do {
		for (int i = 0; i < AUX_ROUND; i++) {
			int r0 = vk_clock_call(a->sys, a->t64, a->id, &s0);
			int rx = vk_clock_call(a->fn, a->t64, a->id, &x);
			int r1 = vk_clock_call(a->sys, a->t64, a->id, &s1);

			a->ordered->calls++;
			if (rx != r0 || rx != r1) {
				vk_result_fail(a->v->rs, a->ordered,
					       "clock %d %s: %s returned %d, the syscall %d before and %d after",
					       a->id, phase, a->path, rx, r0, r1);
				continue;
			}
			if (rx)
				continue;
			if (vk_ts_ns(&s1) - vk_ts_ns(&s0) < a->tightest)
				a->tightest = vk_ts_ns(&s1) - vk_ts_ns(&s0);
			if (x.nsec < 0 || x.nsec >= 1000000000 || vk_ts_ns(&x) < vk_ts_ns(&s0) ||
			    vk_ts_ns(&x) > vk_ts_ns(&s1))
				vk_result_fail(a->v->rs, a->ordered,
					       "clock %d %s: syscall %lld.%09lld s, then %s %lld.%09lld s, then syscall %lld.%09lld s",
					       a->id, phase, (long long)s0.sec, (long long)s0.nsec,
					       a->path, (long long)x.sec, (long long)x.nsec,
					       (long long)s1.sec, (long long)s1.nsec);
			a->monotonic->calls++;
			if (vk_ts_ns(&x) < prev)
				vk_result_fail(a->v->rs, a->monotonic,
					       "clock %d %s: %s read %lld ns after %lld ns",
					       a->id, phase, a->path, (long long)vk_ts_ns(&x),
					       (long long)prev);
			prev = vk_ts_ns(&x);
		}
	} while (!vk_result_cut(a->v->rs, a->ordered, a->ordered->fails + a->monotonic->fails) &&
		 vk_monotonic() < deadline);
	return a->monotonic->calls - read;
}

/* The step moved the syscall's reading by AUX_STEP s, give or take the
 * time the reads around it took on MONOTONIC_RAW, which an aux clock
 * follows at the frequency it was enabled with. */
static void check_step(struct aux *a, struct vk_result *r)
{
	struct timex tx = { .modes = ADJ_SETOFFSET | ADJ_NANO };
	struct timespec raw0, raw1;
	struct vk_ts s0, s1;
	int64_t moved, took;
	int e, r0, r1;

	tx.time.tv_sec = AUX_STEP;
	clock_gettime(CLOCK_MONOTONIC_RAW, &raw0);
	r0 = vk_clock_call(a->sys, a->t64, a->id, &s0);
	e = adjust(a->id, &tx);
	r1 = vk_clock_call(a->sys, a->t64, a->id, &s1);
	clock_gettime(CLOCK_MONOTONIC_RAW, &raw1);
	r->calls = 1;
	if (e || r0 || r1) {
		vk_result_fail(a->v->rs, r, "clock %d: %s failed: %s", a->id,
			       e ? "clock_adjtime(ADJ_SETOFFSET)" : "the syscall's read around the step",
			       strerror(e ? -e : -(r0 ? r0 : r1)));
		return;
	}
	moved = vk_ts_ns(&s1) - vk_ts_ns(&s0) - (int64_t)AUX_STEP * 1000000000;
	took = (raw1.tv_sec - raw0.tv_sec) * 1000000000LL + raw1.tv_nsec - raw0.tv_nsec;
	if (moved < 0 || moved > took + took / 1000 + 1000)
		vk_result_fail(a->v->rs, r,
			       "clock %d: a step of %d s moved the syscall's reading by %d s and %lld ns, in %lld ns",
			       a->id, AUX_STEP, AUX_STEP, (long long)moved, (long long)took);
}

static void check_disabled(struct aux *a, struct vk_result *r)
{
	struct vk_ts s, x;
	int rs = vk_clock_call(a->sys, a->t64, a->id, &s);
	int rx = vk_clock_call(a->fn, a->t64, a->id, &x);

	r->calls = 1;
	if (rs != rx) {
		vk_result_fail(a->v->rs, r, "clock %d disabled again: %s returned %d (%s), the syscall %d (%s)",
			       a->id, a->path, rx, rx ? strerror(-rx) : "success", rs,
			       rs ? strerror(-rs) : "success");
		vk_result_returns(r, rx, rs);
	}
}

/* Enabled, stepped, slewed: a share of the budget each. */
static void run_enabled(struct aux *a, const char *api, enum vk_path p)
{
	struct vk_verify *v = a->v;
	double share = v->seconds / 8;
	struct timex tx = { .modes = ADJ_FREQUENCY, .freq = AUX_PPM << 16 };
	struct vk_result *slew;
	int e;

	a->ordered = vk_results_add(v->rs, api, p, "aux-ordered");
	a->monotonic = vk_results_add(v->rs, api, p, "aux-monotonic");
	a->tightest = INT64_MAX;
	read_phase(a, share, "enabled");
	check_step(a, vk_results_add(v->rs, api, p, "aux-step"));
	read_phase(a, share, "stepped");
	slew = vk_results_add(v->rs, api, p, "aux-slew");
	slew->calls = 1;
	e = adjust(a->id, &tx);
	if (e)
		vk_result_fail(v->rs, slew, "clock %d: clock_adjtime(ADJ_FREQUENCY, %d ppm) failed: %s",
			       a->id, AUX_PPM, strerror(-e));
	else if (!read_phase(a, share, "slewed"))
		vk_result_skip(slew, "no read of clock %d succeeded while slewed", a->id);
	else if (slew->status == VK_PASS)
		snprintf(slew->detail, sizeof(slew->detail),
			 "read in order while slewed by %d ppm (the rate itself is not judged)",
			 AUX_PPM);
	if (a->ordered->status == VK_PASS)
		a->ordered->status = vk_ordered_judge(a->tightest, a->ordered->detail,
						      sizeof(a->ordered->detail));
	if (!a->monotonic->calls && a->monotonic->status == VK_PASS)
		vk_result_skip(a->monotonic, "no read of clock %d succeeded", a->id);
	tx.freq = 0;
	adjust(a->id, &tx);
}

void vk_verify_aux(struct vk_verify *v, const struct vk_target *t, enum vk_path p)
{
	struct aux a = { .v = v, .sys = v->cs->fn[VK_PATH_SYSCALL][t->func].clock,
			 .fn = v->cs->fn[p][t->func].clock, .t64 = vk_funcs[t->func].time64,
			 .path = vk_path_name(p) };
	struct vk_clock c = { 0 };
	struct vk_result *r;
	char api[40];
	int e, wfd;
	pid_t watcher;

	if (!v->aux || !has_aux(t))
		return;
	a.id = pick(t);
	c.id = a.id ? a.id : AUX_LAST;
	snprintf(c.name, sizeof(c.name), "id:%d", c.id);
	vk_clock_api(api, sizeof(api), t->func, &c);
	r = vk_results_add(v->rs, api, p, "aux-enable");
	if (access(AUX_DIR, F_OK)) {
		vk_result_skip(r, "no " AUX_DIR ": the kernel has no aux clocks (CONFIG_POSIX_AUX_CLOCKS, Linux 6.17+)");
		return;
	}
	if (!a.id) {
		vk_result_skip(r, "every aux clock selected is enabled: vdsokit changes only one it enabled itself");
		return;
	}
	watcher = watch(a.id, &wfd);
	if (watcher < 0) {
		vk_result_error(v->rs, r, "not tested: vdsokit could not fork the process "
			       "that disables clock %d again: %s", a.id, strerror(errno));
		return;
	}
	e = aux_set(a.id, 1);
	if (e == -EACCES || e == -EPERM) {
		vk_result_skip(r, "cannot enable clock %d (%s): it takes root and CAP_SYS_TIME",
			       a.id, strerror(-e));
	} else if (e == -EROFS) {
		vk_result_skip(r, "cannot enable clock %d: sysfs is mounted read-only here", a.id);
	} else if (e) {
		vk_result_fail(v->rs, r, "enabling clock %d through sysfs failed: %s", a.id,
			       strerror(-e));
	} else {
		r->calls = 1;
		snprintf(r->detail, sizeof(r->detail), "clock %d enabled through " AUX_DIR, a.id);
		run_enabled(&a, api, p);
		aux_set(a.id, 0);
		check_disabled(&a, vk_results_add(v->rs, api, p, "aux-disable"));
	}
	close(wfd);
	waitpid(watcher, NULL, 0);
}

// SPDX-License-Identifier: MIT
/*
 * vfork() and exec() out of the process that made the namespace, as the
 * kernel's timens/vfork_exec.c selftest does. After unshare(CLONE_NEWTIME)
 * that process stays in its own namespace, and its vDSO data with it; a
 * vfork()ed child shares its memory, so it enters the new namespace only
 * at exec(), with a vDSO of its own, and a thread it starts is in the
 * namespace too. Each: rule vfork-exec (the maker before and after, and
 * the child), vfork-exec-thread (the child's thread).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/base/sysinfo.h"
#include "core/call/targets.h"
#include "core/timens/timens_exec.h"
#include "core/timens/timens_rules.h"

#define MAKER_TIMEOUT 10.0

static const char *const maker_legs[] = {
	"in the process that made the namespace, before vfork()",
	"in the process that made the namespace, after vfork() and exec()",
};
static const char *const child_leg[] = { "after vfork() and exec()" };
static const char *const thread_leg[] = { "in a thread after vfork() and exec()" };

/* What the maker writes back. */
struct vfork_read {
	int64_t pre[2], post[2];	/* its syscall, just before vfork() and after the child */
	struct vk_timens_reading own[2];	/* its vDSO, by maker_legs */
	struct vk_timens_exec_read child;
	char died[160];		/* why the child wrote nothing, or "" */
	int refused;		/* vfork() refused as kernels before 6.2 do */
};

static void read_own(const struct vk_timens_check *c, int leg, struct vfork_read *v)
{
	enum vk_func f = c->gettime;

	for (size_t i = 0; i < 2; i++)
		vk_timens_read_leg(c->cs->fn[VK_PATH_SYSCALL][f].clock, c->cs->fn[VK_PATH_VDSO][f].clock,
				   vk_funcs[f].time64, vk_timens_exec_ids[i], leg, &v->own[i]);
}

/* The child's readings from fd, and its status: why not in v->died. */
static void collect(int fd, pid_t pid, struct vfork_read *v)
{
	struct vk_isolated out = { 0 };
	size_t got = 0;
	ssize_t n = 1;
	int status;

	while (got < sizeof(v->child) && n > 0) {
		n = read(fd, (char *)&v->child + got, sizeof(v->child) - got);
		if (n > 0)
			got += (size_t)n;
		else if (n < 0 && errno == EINTR)
			n = 1;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got == sizeof(v->child))
		return;
	out.exited = WIFEXITED(status);
	out.exit_status = WEXITSTATUS(status);
	out.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	vk_timens_exec_died(&out, "vdsokit vfork()ed and exec()ed", MAKER_TIMEOUT, v->died,
			    sizeof(v->died));
}

static void vfork_exec(const struct vk_timens_check *c, struct vfork_read *v)
{
	int p[2], e;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC)) {
		snprintf(v->died, sizeof(v->died), "not tested: pipe: %s", strerror(errno));
		return;
	}
	fflush(NULL);
	pid = vfork();
	if (pid == 0) {
		if (dup2(p[1], STDOUT_FILENO) >= 0)
			execv("/proc/self/exe", c->exec_argv);
		_exit(VK_TIMENS_EXEC_FAILED);
	}
	e = errno;
	close(p[1]);
	/* Until 6.2 ("fs/exec: switch timens when a task gets a new mm")
	 * no child could share the memory of a process whose children go
	 * to another time namespace: EINVAL, by design. */
	v->refused = pid < 0 && e == EINVAL && vk_kernel_before(6, 2);
	if (v->refused)
		snprintf(v->died, sizeof(v->died), "the kernel refuses vfork() in the process that "
			 "made the namespace (EINVAL), as kernels before 6.2 do");
	else if (pid < 0)
		snprintf(v->died, sizeof(v->died), "vfork() in the process that made the namespace: %s",
			 strerror(e));
	else
		collect(p[0], pid, v);
	close(p[0]);
}

/* In the process that made the namespace, still outside it. */
static void maker(void *arg, int fd)
{
	const struct vk_timens_check *c = arg;
	struct vfork_read v = { .died = "" };

	for (size_t i = 0; i < 2; i++)
		vk_timens_reading_init(&v.own[i]);
	read_own(c, 0, &v);
	vk_timens_exec_read_sys(c, v.pre);
	vfork_exec(c, &v);
	vk_timens_exec_read_sys(c, v.post);
	read_own(c, 1, &v);
	vk_write_all(fd, &v, sizeof(v));
}

/*
 * The maker's syscall read its own namespace's time (between this
 * process's reads, before and after), and its vDSO read between its
 * syscall's reads; 1 if it failed or could not be told apart.
 */
static int judge_maker(const struct vfork_read *v, size_t i, const int64_t *before,
		       const int64_t *after, int64_t offset, struct vk_result *res,
		       struct vk_results *rs)
{
	const char *clock = vk_clock_name(vk_timens_exec_ids[i]);

	for (int k = 0; k < 2; k++) {
		int64_t x = k ? v->post[i] : v->pre[i];

		if (x != VK_TIMENS_NONE && x >= before[i] && x <= after[i])
			continue;
		vk_result_fail(rs, res, "%s: %s by the syscall %lld ns, where its parent read %lld then %lld ns: it left its own time namespace",
			       maker_legs[k], clock, (long long)x, (long long)before[i],
			       (long long)after[i]);
		return 1;
	}
	vk_timens_judge_reading(&v->own[i], maker_legs, "vdso", vk_timens_exec_ids[i], offset,
				res, rs);
	return res->status != VK_PASS;
}

static void judge(const struct vk_timens_check *c, const struct vk_timens_set *s,
		  const struct vfork_read *v, const int64_t *before, const int64_t *after,
		  struct vk_results *rs)
{
	const int64_t offsets[2] = { s->mono_ns, s->boot_ns };
	char rule[2][48];

	snprintf(rule[0], sizeof(rule[0]), "%.23s:vfork-exec", s->name);
	snprintf(rule[1], sizeof(rule[1]), "%.23s:vfork-exec-thread", s->name);
	for (size_t i = 0; i < 2; i++) {
		/* This process's reads, not the maker's: the child's are told
		 * apart from the maker's even where the maker left. */
		int64_t lo = before[i] + offsets[i], hi = after[i] + offsets[i];
		struct vk_result *res, *th;

		/* As exec's: an offset under 1 ms is not told apart. */
		if (llabs(offsets[i]) < 1000000)
			continue;
		res = vk_timens_exec_result(c, i, rule[0], rs);
		th = vk_timens_exec_result(c, i, rule[1], rs);
		if (v->refused) {
			vk_result_skip(res, "%s", v->died);
			vk_result_skip(th, "%s", v->died);
			continue;
		}
		if (*v->died) {
			vk_timens_died(rs, res, v->died);
			vk_timens_died(rs, th, v->died);
			continue;
		}
		if (!judge_maker(v, i, before, after, offsets[i], res, rs))
			vk_timens_judge_exec(&v->child.main, child_leg, i, lo, hi, offsets[i], res, rs);
		vk_timens_judge_thread(&v->child, thread_leg, i, lo, hi, offsets[i], th, rs);
	}
}

void vk_timens_vfork_exec(const struct vk_timens_check *c, const struct vk_timens_set *s,
			  struct vk_results *rs)
{
	int64_t before[2], after[2];
	struct vfork_read v = { .died = "" };
	struct vk_isolated out;
	char why[160];
	int err;

	if (!c->exec_argv || !vk_callset_has(c->cs, VK_PATH_VDSO, c->gettime))
		return;
	vk_timens_exec_read_sys(c, before);
	if (vk_timens_isolate_maker(s, maker, (void *)c, MAKER_TIMEOUT, &out, why, sizeof(why), &err)) {
		snprintf(v.died, sizeof(v.died), "not tested: %.140s", why);
	} else {
		int n;

		if (out.len == sizeof(v)) {
			memcpy(&v, out.data, sizeof(v));
		} else {
			n = snprintf(v.died, sizeof(v.died), "the process that made the namespace ");
			vk_isolated_describe(&out, MAKER_TIMEOUT, v.died + n, sizeof(v.died) - n);
		}
		vk_isolated_free(&out);
	}
	vk_timens_exec_read_sys(c, after);
	judge(c, s, &v, before, after, rs);
}

// SPDX-License-Identifier: MIT
/*
 * exec() inside the time namespace, as the kernel's timens/exec.c
 * selftest does: the kernel maps the new image's vDSO and its data anew,
 * and that vDSO must read the namespace's time, not its parent's. The
 * process execs vdsokit again (the check's exec_argv), which reads each
 * clock through its vDSO between two syscall reads (vk_timens_exec_read),
 * then does the same in a thread it starts, and writes the readings
 * back. Its own syscall must read the namespace's time too (between this
 * process's reads before and after), as the selftest checks: an exec()
 * that left the namespace is caught there.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/base/isolate.h"
#include "core/base/sysinfo.h"
#include "core/call/targets.h"
#include "core/image/image.h"
#include "core/timens/timens_exec.h"
#include "core/timens/timens_rules.h"

#define EXEC_TIMEOUT 5.0

const int vk_timens_exec_ids[2] = { CLOCK_MONOTONIC, CLOCK_BOOTTIME };
static const int *const ids = vk_timens_exec_ids;

static enum vk_func gettime_of_abi(void)
{
	return VK_TIME32_ABI ? VK_FN_CLOCK_GETTIME64 : VK_FN_CLOCK_GETTIME;
}

struct reader {
	const struct vk_callset *cs;
	struct vk_timens_exec_side *side;
};

static void *read_side(void *arg)
{
	const struct reader *rd = arg;
	enum vk_func f = gettime_of_abi();
	vk_clock_fn sys = rd->cs->fn[VK_PATH_SYSCALL][f].clock;

	for (size_t i = 0; i < 2; i++) {
		rd->side->first[i] = vk_timens_read_ns(sys, vk_funcs[f].time64, ids[i]);
		vk_timens_reading_init(&rd->side->r[i]);
		vk_timens_read_leg(sys, rd->cs->fn[VK_PATH_VDSO][f].clock, vk_funcs[f].time64,
				   ids[i], 0, &rd->side->r[i]);
	}
	return NULL;
}

/* The same reads in a thread of this process: its errno into *err if it
 * could not start; -1 where this build cannot wait for one. */
static void read_in_thread(struct reader *rd, int *err)
{
	pthread_t th;

	*err = vk_threads_refused() ? -1 : pthread_create(&th, NULL, read_side, rd);
	if (!*err)
		pthread_join(th, NULL);
}

void vk_timens_exec_read(int fd)
{
	enum vk_func f = gettime_of_abi();
	struct vk_timens_exec_read e;
	struct vk_callset cs;
	struct vk_image im;
	struct reader rd = { &cs, &e.main };
	char err[160];

	/* Nothing written: the parent says what was not read. */
	if (vk_image_open_live(&im) || vk_callset_init(&cs, &im, NULL, err, sizeof(err)) ||
	    !vk_callset_has(&cs, VK_PATH_VDSO, f) || !vk_callset_has(&cs, VK_PATH_SYSCALL, f))
		return;
	read_side(&rd);
	rd.side = &e.thread;
	read_in_thread(&rd, &e.thread_err);
	vk_write_all(fd, &e, sizeof(e));
}

void vk_timens_exec_died(const struct vk_isolated *out, const char *who, double timeout,
			 char *died, size_t len)
{
	int n;

	if (out->exited && out->exit_status == VK_TIMENS_EXEC_FAILED) {
		snprintf(died, len, "not tested: vdsokit could not exec /proc/self/exe");
	} else if (out->exited && !out->exit_status) {
		snprintf(died, len, "not tested: the exec()ed vdsokit found no vDSO clock_gettime to read");
	} else {
		n = snprintf(died, len, "%s ", who);
		vk_isolated_describe(out, timeout, died + n, len - n);
	}
}

static void exec_self(void *ctx, int fd)
{
	char *const *argv = ctx;

	if (dup2(fd, STDOUT_FILENO) >= 0)
		execv("/proc/self/exe", argv);
	_exit(VK_TIMENS_EXEC_FAILED);
}

/* The exec()ed vdsokit's readings into e, else why not in died. */
static void run_exec(const struct vk_timens_check *c, struct vk_timens_exec_read *e, char *died,
		     size_t len)
{
	struct vk_isolated out;

	*died = '\0';
	fflush(NULL);
	if (vk_isolate(exec_self, (void *)c->exec_argv, EXEC_TIMEOUT, &out)) {
		vk_isolate_not_tested(&out, died, len);
		return;
	}
	if (out.len == sizeof(*e))
		memcpy(e, out.data, sizeof(*e));
	else
		vk_timens_exec_died(&out, "vdsokit exec()ed in the namespace", EXEC_TIMEOUT, died,
				    len);
	vk_isolated_free(&out);
}

void vk_timens_judge_exec(const struct vk_timens_exec_side *s, const char *const *leg, size_t i,
			  int64_t before, int64_t after, int64_t offset, struct vk_result *res,
			  struct vk_results *rs)
{
	if (s->first[i] == VK_TIMENS_NONE || s->first[i] < before || s->first[i] > after)
		vk_result_fail(rs, res, "%s: %s by the syscall %lld ns, where this namespace read %lld then %lld ns: the exec()ed process is not in the namespace",
			       *leg, vk_clock_name(ids[i]), (long long)s->first[i],
			       (long long)before, (long long)after);
	else if (after - before >= llabs(offset))
		vk_result_skip(res, "the namespace's reads around the exec() were %lld ns apart, not under the offset of %lld ns: a process outside it was not told apart",
			       (long long)(after - before), (long long)offset);
	else
		vk_timens_judge_reading(&s->r[i], leg, "vdso", ids[i], offset, res, rs);
}

void vk_timens_judge_thread(const struct vk_timens_exec_read *e, const char *const *leg, size_t i,
			    int64_t before, int64_t after, int64_t offset, struct vk_result *res,
			    struct vk_results *rs)
{
	const char *refused = vk_threads_refused();

	if (e->thread_err < 0)
		vk_result_skip(res, "%s", refused ? refused : "the exec()ed vdsokit started no thread");
	else if (e->thread_err)
		vk_result_error(rs, res, "not tested: %s: the exec()ed vdsokit could not start a thread: %s",
			       *leg, strerror(e->thread_err));
	else
		vk_timens_judge_exec(&e->thread, leg, i, before, after, offset, res, rs);
}

void vk_timens_exec_read_sys(const struct vk_timens_check *c, int64_t ns[2])
{
	for (size_t i = 0; i < 2; i++)
		ns[i] = vk_timens_read_ns(c->cs->fn[VK_PATH_SYSCALL][c->gettime].clock,
				vk_funcs[c->gettime].time64, ids[i]);
}

struct vk_result *vk_timens_exec_result(const struct vk_timens_check *c, size_t i,
					const char *rule, struct vk_results *rs)
{
	struct vk_clock clock = { .id = ids[i] };
	struct vk_result *res;
	char api[40];

	snprintf(clock.name, sizeof(clock.name), "%s", vk_clock_name(ids[i]));
	vk_clock_api(api, sizeof(api), c->gettime, &clock);
	res = vk_results_add(rs, api, VK_PATH_VDSO, rule);
	res->calls = VK_TIMENS_TRIES;
	return res;
}

void vk_timens_exec(const struct vk_timens_check *c, const int64_t offsets[2],
		    struct vk_results *rs)
{
	static const char *const after_exec[] = { "after exec()" };
	static const char *const in_thread[] = { "in a thread after exec()" };
	int64_t before[2], after[2];
	struct vk_timens_exec_read e;
	char died[160];

	if (!c->exec_argv || !vk_callset_has(c->cs, VK_PATH_VDSO, c->gettime))
		return;
	vk_timens_exec_read_sys(c, before);
	run_exec(c, &e, died, sizeof(died));
	vk_timens_exec_read_sys(c, after);
	for (size_t i = 0; i < 2; i++) {
		struct vk_result *res, *th;

		if (offsets[i] == VK_TIMENS_NONE || llabs(offsets[i]) < 1000000)
			continue;
		res = vk_timens_exec_result(c, i, "exec", rs);
		th = vk_timens_exec_result(c, i, "exec-thread", rs);
		if (*died) {
			vk_timens_died(rs, res, died);
			vk_timens_died(rs, th, died);
			continue;
		}
		vk_timens_judge_exec(&e.main, after_exec, i, before[i], after[i], offsets[i], res, rs);
		vk_timens_judge_thread(&e, in_thread, i, before[i], after[i], offsets[i], th, rs);
	}
}

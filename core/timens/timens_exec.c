// SPDX-License-Identifier: MIT
/*
 * exec() inside the time namespace, as the kernel's timens/exec.c
 * selftest does: the kernel maps the new image's vDSO and its data anew,
 * and that vDSO must read the namespace's time, not its parent's. The
 * process execs vdsokit again (the check's exec_argv), which reads each
 * clock through its vDSO between two syscall reads (vk_timens_exec_read)
 * and writes the readings back. Its own syscall must read the namespace's
 * time too (between this process's reads before and after), as the
 * selftest checks: an exec() that left the namespace is caught there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/base/isolate.h"
#include "core/call/targets.h"
#include "core/image/image.h"
#include "core/timens/timens_bracket.h"
#include "core/timens/timens_check.h"
#include "core/timens/timens_rules.h"

#define EXEC_TIMEOUT 5.0
#define EXEC_FAILED 127

static const char *const legs[] = { "after exec()" };
static const int ids[2] = { CLOCK_MONOTONIC, CLOCK_BOOTTIME };

/* What the exec()ed vdsokit writes back. */
struct exec_read {
	int64_t first[ARRAY_SIZE(ids)];	/* its syscall's first read of each clock */
	struct vk_timens_reading r[ARRAY_SIZE(ids)];
};

static enum vk_func gettime_of_abi(void)
{
	return VK_TIME32_ABI ? VK_FN_CLOCK_GETTIME64 : VK_FN_CLOCK_GETTIME;
}

void vk_timens_exec_read(int fd)
{
	enum vk_func f = gettime_of_abi();
	struct exec_read e;
	struct vk_callset cs;
	struct vk_image im;
	char err[160];

	/* Nothing written: the parent says what was not read. */
	if (vk_image_open_live(&im) || vk_callset_init(&cs, &im, NULL, err, sizeof(err)) ||
	    !vk_callset_has(&cs, VK_PATH_VDSO, f) || !vk_callset_has(&cs, VK_PATH_SYSCALL, f))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(ids); i++) {
		e.first[i] = vk_timens_read_ns(cs.fn[VK_PATH_SYSCALL][f].clock, vk_funcs[f].time64, ids[i]);
		vk_timens_reading_init(&e.r[i]);
		vk_timens_read_leg(cs.fn[VK_PATH_SYSCALL][f].clock, cs.fn[VK_PATH_VDSO][f].clock,
				   vk_funcs[f].time64, ids[i], 0, &e.r[i]);
	}
	vk_write_all(fd, &e, sizeof(e));
}

static void exec_self(void *ctx, int fd)
{
	char *const *argv = ctx;

	if (dup2(fd, STDOUT_FILENO) >= 0)
		execv("/proc/self/exe", argv);
	_exit(EXEC_FAILED);
}

/* The exec()ed vdsokit's readings into e, else why not in died. */
static void run_exec(const struct vk_timens_check *c, struct exec_read *e, char *died, size_t len)
{
	struct vk_isolated out;
	int n;

	*died = '\0';
	fflush(NULL);
	if (vk_isolate(exec_self, (void *)c->exec_argv, EXEC_TIMEOUT, &out)) {
		snprintf(died, len, "not tested: vdsokit could not fork");
		return;
	}
	if (out.len == sizeof(*e)) {
		memcpy(e, out.data, sizeof(*e));
	} else if (out.exited && out.exit_status == EXEC_FAILED) {
		snprintf(died, len, "not tested: vdsokit could not exec /proc/self/exe");
	} else if (out.exited && !out.exit_status) {
		snprintf(died, len, "not tested: the exec()ed vdsokit found no vDSO clock_gettime to read");
	} else {
		n = snprintf(died, len, "vdsokit exec()ed in the namespace ");
		vk_isolated_describe(&out, EXEC_TIMEOUT, died + n, len - n);
	}
	vk_isolated_free(&out);
}

/* Clock i after exec(): in the namespace, and its vDSO's reads right. */
static void judge(const struct exec_read *e, size_t i, const int64_t *before, const int64_t *after,
		  int64_t offset, struct vk_result *res, struct vk_results *rs)
{
	if (e->first[i] == VK_TIMENS_NONE || e->first[i] < before[i] || e->first[i] > after[i])
		vk_result_fail(rs, res, "after exec(): %s by the syscall %lld ns, where this namespace read %lld then %lld ns: the exec()ed process is not in the namespace",
			       vk_clock_name(ids[i]), (long long)e->first[i], (long long)before[i],
			       (long long)after[i]);
	else
		vk_timens_judge_reading(&e->r[i], legs, "vdso", ids[i], offset, res, rs);
}

static void read_sys(const struct vk_timens_check *c, int64_t *ns)
{
	for (size_t i = 0; i < ARRAY_SIZE(ids); i++)
		ns[i] = vk_timens_read_ns(c->cs->fn[VK_PATH_SYSCALL][c->gettime].clock,
				vk_funcs[c->gettime].time64, ids[i]);
}

void vk_timens_exec(const struct vk_timens_check *c, const int64_t offsets[2],
		    struct vk_results *rs)
{
	int64_t before[ARRAY_SIZE(ids)], after[ARRAY_SIZE(ids)];
	struct exec_read e;
	char died[160], api[40];

	if (!c->exec_argv || !vk_callset_has(c->cs, VK_PATH_VDSO, c->gettime))
		return;
	read_sys(c, before);
	run_exec(c, &e, died, sizeof(died));
	read_sys(c, after);
	for (size_t i = 0; i < ARRAY_SIZE(ids); i++) {
		struct vk_clock clock = { .id = ids[i] };
		struct vk_result *res;

		if (offsets[i] == VK_TIMENS_NONE || llabs(offsets[i]) < 1000000)
			continue;
		snprintf(clock.name, sizeof(clock.name), "%s", vk_clock_name(ids[i]));
		vk_clock_api(api, sizeof(api), c->gettime, &clock);
		res = vk_results_add(rs, api, VK_PATH_VDSO, "exec");
		res->calls = VK_TIMENS_TRIES;
		if (*died)
			vk_result_fail(rs, res, "%s", died);
		else
			judge(&e, i, before, after, offsets[i], res, rs);
	}
}

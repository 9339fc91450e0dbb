// SPDX-License-Identifier: MIT
/*
 * The mlockall rule: a latency-sensitive program locks its memory with
 * mlockall(MCL_CURRENT | MCL_FUTURE) so as to take no page fault later,
 * and Linux 7.3 prefaults the vDSO's data pages then (c27e727c9a60), which
 * mlock() otherwise passes over. A fork()ed child shares its parent's
 * touched pages, so each function's first call is made in a vdsokit
 * exec()ed afresh, whose vDSO data no call has read: it locks, reads the
 * vDSO's own text pages (as its dynamic linker did), and counts the minor
 * faults (getrusage's ru_minflt) around that one call.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/image/image.h"
#include "core/verify/verify.h"

#define TIMEOUT 10.0

/* What the exec()ed vdsokit tells. */
struct answer {
	int lock_errno;		/* mlockall()'s, 0: locked */
	long faults;		/* minor faults around the first call */
	char why[160];		/* why it could not call, or "" */
};

int vk_mlock_promised(const char *release)
{
	int major, minor;

	if (sscanf(release, "%d.%d", &major, &minor) != 2)
		return 0;	/* unknown: no promise to hold it to */
	return major > 7 || (major == 7 && minor >= 3);
}

enum vk_status vk_mlock_judge(int promised, int lock_errno, long faults, char *detail,
			      size_t len)
{
	if (lock_errno) {
		snprintf(detail, len, "not tested: mlockall(MCL_CURRENT|MCL_FUTURE) was refused (%s): raise RLIMIT_MEMLOCK or run with CAP_IPC_LOCK",
			 strerror(lock_errno));
		return VK_SKIP;
	}
	if (!faults) {
		*detail = '\0';	/* a pass: nothing to note */
		return VK_PASS;
	}
	snprintf(detail, len, "%ld page fault%s in the first call after mlockall(MCL_CURRENT|MCL_FUTURE)%s",
		 faults, faults == 1 ? "" : "s",
		 promised ? ": Linux 7.3 and later prefault the vDSO's data then (c27e727c9a60)"
			  : "; a note: kernels before 7.3 do not prefault the vDSO's data (c27e727c9a60)");
	return promised ? VK_FAIL : VK_SKIP;
}

/* Read a byte of each page of the live vDSO, as its dynamic linker did. */
static void touch_vdso(void)
{
	struct vk_image im;
	const volatile unsigned char *byte;
	long page = sysconf(_SC_PAGESIZE);

	if (vk_image_open_live(&im))
		return;
	byte = im.elf.base;
	for (size_t off = 0; off < im.elf.size; off += (size_t)page)
		(void)byte[off];	/* volatile: a read the compiler keeps */
	vk_image_close(&im);
}

/* In the exec()ed vdsokit: spec is "FUNC,CLOCK,PATH" (numbers). */
static void probe(const char *spec, const char *impl, struct answer *a)
{
	struct vk_callset cs, mine;
	const struct vk_callset *use;
	struct vk_image im;
	struct rusage before, after;
	unsigned f, p;
	int clock;
	void *state = NULL;
	size_t state_len = 0;
	char err[256];

	if (sscanf(spec, "%u,%d,%u", &f, &clock, &p) != 3 || f >= VK_NFUNCS || p >= VK_NPATHS) {
		snprintf(a->why, sizeof(a->why), "a bad probe: %s", spec);
		return;
	}
	if (vk_image_open_live(&im) || vk_callset_init(&cs, &im, impl, err, sizeof(err))) {
		snprintf(a->why, sizeof(a->why), "the exec()ed vdsokit could not find the paths");
		return;
	}
	use = vk_callset_child(&cs, VK_PATH_BIT(p), &mine);
	if (!vk_callset_has(use, p, f)) {
		snprintf(a->why, sizeof(a->why), "the exec()ed vdsokit has no such function");
		return;
	}
	if (vk_funcs[f].shape == VK_SHAPE_GETRANDOM && p != VK_PATH_LIBC && p != VK_PATH_SYSCALL)
		vk_getrandom_state(use->fn[p][f].getrandom, &state, &state_len);
	touch_vdso();
	if (mlockall(MCL_CURRENT | MCL_FUTURE)) {
		a->lock_errno = errno;
		return;
	}
	getrusage(RUSAGE_SELF, &before);
	vk_call_once(use->fn[p][f], f, clock, state, state_len);
	getrusage(RUSAGE_SELF, &after);
	a->faults = after.ru_minflt - before.ru_minflt;
}

int vk_verify_mlock_probe(const char *spec, const char *impl, int fd)
{
	struct answer a = { .why = "" };

	probe(spec, impl, &a);
	return vk_write_all(fd, &a, sizeof(a));
}

void vk_verify_mlock(struct vk_verify *v, const struct vk_target *t, enum vk_path p)
{
	char *argv[16], spec[48], name[40], why[160], detail[sizeof(((struct vk_result *)0)->detail)];
	struct vk_result *r;
	struct answer a;
	struct utsname u;
	enum vk_status st;
	int n = 0;

	/* The syscall's path reads no vDSO data; vsyscall's faults by design. */
	if (!v->exec_argv || p == VK_PATH_SYSCALL || p == VK_PATH_VSYSCALL)
		return;
	vk_target_name(name, sizeof(name), t);
	r = vk_results_add(v->rs, name, p, "mlockall");
	snprintf(spec, sizeof(spec), "%d,%d,%d", (int)t->func, t->nclocks ? t->clocks[0].id : 0,
		 (int)p);
	while (v->exec_argv[n] && n < 10)
		argv[n] = v->exec_argv[n], n++;
	argv[n++] = "--mlock-probe";
	argv[n++] = spec;
	if (p == VK_PATH_IMPL && v->cs->impl_path) {
		argv[n++] = "--impl";
		argv[n++] = (char *)v->cs->impl_path;
	}
	argv[n] = NULL;
	switch (vk_exec_self(argv, &a, sizeof(a), TIMEOUT, why, sizeof(why))) {
	case -1:
		vk_result_error(v->rs, r, "not tested: %s", why);
		return;
	case -2:
		vk_result_fail(v->rs, r, "the exec()ed vdsokit %s", why);
		return;
	}
	if (*a.why) {
		vk_result_skip(r, "not tested: %s", a.why);
		return;
	}
	r->calls = 1;
	st = vk_mlock_judge(!uname(&u) && vk_mlock_promised(u.release), a.lock_errno, a.faults,
			    detail, sizeof(detail));
	if (st == VK_FAIL)
		vk_result_fail(v->rs, r, "%s", detail);
	else if (st == VK_SKIP)
		vk_result_skip(r, "%s", detail);
}

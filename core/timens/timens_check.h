/* SPDX-License-Identifier: MIT */
/*
 * timens's run of one set of offsets: a child in a new time namespace
 * reads every clock (and, on a 32-bit ABI, each time32 entry) and runs
 * verify's clock checks on the vdso path; the parent reads the clocks
 * outside before and after, and timens_rules.h judges the lot.
 */
#ifndef VK_TIMENS_CHECK_H
#define VK_TIMENS_CHECK_H

#include <stdint.h>

#include "core/call/call.h"
#include "core/fallback/fallback.h"
#include "core/result/result.h"
#include "core/call/targets.h"
#include "core/timens/timens.h"

/* The calls probed for syscalls inside and outside: clock_gettime of
 * REALTIME, MONOTONIC and BOOTTIME (on a 32-bit ABI through its time32
 * entry too), then every function every command calls that takes no
 * clock (gettimeofday, time, getcpu, getrandom). */
enum {
	VK_TIMENS_NSTAYS = 6
#define VK_FUNC(id, name, api, libc, syscall, sysno, shape, kind, every, ...)                  \
	+((every) && VK_SHAPE_##shape != VK_SHAPE_CLOCK_TS)
#include "core/base/apis.def"
};

struct vk_timens_check {
	const struct vk_callset *cs;
	double seconds;		/* verify's budget per API inside */
	struct vk_target t[VK_NFUNCS];
	int nt;
	enum vk_func gettime;	/* the 64-bit-time clock_gettime of this ABI */
	/* How to run vdsokit so that it calls vk_timens_exec_read() on its
	 * stdout (argv for /proc/self/exe), or NULL: no exec rule. */
	char *const *exec_argv;
	int64_t mono_offset;	/* the set's, in seconds */
	int64_t base_ns[2];	/* vdsokit's own namespace's offsets, which
				 * the set's are written on top of */
	int nclocks;		/* t[0..nclocks) are the clock APIs, checked in
				 * every set; the rest in the first that runs */
	int sets_run;
	/* What each call of VK_TIMENS_NSTAYS, on the vdso and impl paths, made
	 * outside the namespace under fallback's seccomp filter: inside it
	 * must make the same. */
	struct vk_fallback outside[2][VK_TIMENS_NSTAYS];
};

/* The APIs checked inside, on cs; seconds is the caller's. */
void vk_timens_check_init(struct vk_timens_check *c, const struct vk_callset *cs);
/* One set's results into rs: 0 if it ran, else the errno that kept the
 * namespace from being made (-1: another reason; VK_TIMENS_NOT_RUN:
 * vdsokit could not fork), said in why. */
int vk_timens_check_set(struct vk_timens_check *c, const struct vk_timens_set *s,
			struct vk_results *rs, char *why, size_t len);

/* What /proc/self/timens_offsets refuses, each a result of "timens"
 * on the syscall path (timens_refusals.c). */
void vk_timens_refusals(struct vk_results *rs);

/* In the namespace: clock_nanosleep(TIMER_ABSTIME) to its MONOTONIC and
 * BOOTTIME times, each a result on the syscall path (timens_sleep.c). */
void vk_timens_sleep(struct vk_results *rs);

/* In the namespace, whose MONOTONIC and BOOTTIME offsets the kernel shows
 * as offsets[]: a process that setns() to the parent's time namespace and
 * back reads each one's time there, on the vdso and impl paths; each a
 * result "setns" (timens_setns.c). */
void vk_timens_setns(const struct vk_timens_check *c, const int64_t offsets[2],
		     struct vk_results *rs);

/* In the namespace, whose MONOTONIC and BOOTTIME offsets the kernel shows
 * as offsets[]: vdsokit exec()ed with c->exec_argv reads each one's time
 * through the new image's vDSO, in a thread it starts too; each a result
 * "exec", "exec-thread" (timens_exec.c). */
void vk_timens_exec(const struct vk_timens_check *c, const int64_t offsets[2],
		    struct vk_results *rs);
/* The set's namespace made by a process that stays outside it: its
 * clocks stay its own while a vfork()ed child exec()s vdsokit inside, and
 * that vdsokit, and a thread it starts, read the namespace's time; each
 * a result "SET:vfork-exec", "SET:vfork-exec-thread" (timens_vfork.c). */
void vk_timens_vfork_exec(const struct vk_timens_check *c, const struct vk_timens_set *s,
			  struct vk_results *rs);
/* What the exec()ed vdsokit does: read those clocks, in a thread it
 * starts too, write them to fd. */
void vk_timens_exec_read(int fd);

#endif /* VK_TIMENS_CHECK_H */

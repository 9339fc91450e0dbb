/* SPDX-License-Identifier: MIT */
/*
 * fallback: does a call stay in userspace? It is made in a child under a
 * seccomp filter that traps every syscall, of any ABI, but the few the
 * child needs once the call is over; the first one trapped ends the call
 * and is named. A call that made some other syscall than its own (read()
 * of a file, adjtimex()) has not stayed in userspace either.
 */
#ifndef VK_FALLBACK_H
#define VK_FALLBACK_H

#include "core/call/call.h"
#include "core/base/sysinfo.h"

enum vk_fallback_kind {
	VK_USERSPACE,		/* no syscall was made */
	VK_SYSCALL,		/* the call made syscall `nr` */
	VK_PROBE_DIED,		/* the child died or hung first */
	VK_PROBE_NOT_RUN,	/* vdsokit's own error: no child, no filter */
};

struct vk_fallback {
	enum vk_fallback_kind kind;
	long nr;
	char syscall[48];	/* its name, or "syscall N [of another ABI]" */
	char why[128];		/* for VK_PROBE_DIED, what it did after "the probe";
				 * for _NOT_RUN, what vdsokit could not do */
};

/* Whether seccomp can be used here; a reason if not. */
const char *vk_fallback_unsupported(void);
void vk_fallback_probe(const struct vk_callset *cs, enum vk_path p, enum vk_func f,
		       int clock, struct vk_fallback *out);

/*
 * Whether the current clocksource serves the vDSO. A vDSO that exports
 * no clock_gettime (cs->why VK_WHY_NOT_EXPORTED) reads none, whatever
 * vdsokit's table says: no, and why (cs->vdso_nulled: the kernel nulled
 * out its entries' names). Else, where the table does not know the name
 * (si->cs_vdso VK_UNKNOWN), it is measured: the vDSO's
 * clock_gettime(CLOCK_MONOTONIC) under the seccomp filter either stays in
 * userspace, as it does where the vDSO reads the clocksource's counter,
 * or makes the syscall. cs holds the live vDSO's functions, or is NULL
 * for none. si->cs_note then says what was seen or measured, or why
 * nothing could be.
 */
void vk_fallback_clocksource(const struct vk_callset *cs, struct vk_sysinfo *si);

/* Why a call on a path fell back, as far as can be known. */
const char *vk_fallback_reason(enum vk_path p, enum vk_func f, int clock,
			       enum vk_tristate cs_vdso);

#endif /* VK_FALLBACK_H */

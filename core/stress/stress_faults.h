/* SPDX-License-Identifier: MIT */
/*
 * The faults stress injects, as a list of steps, each held for a while
 * as the readers go on. Private to core/stress*.c.
 */
#ifndef VK_STRESS_FAULTS_H
#define VK_STRESS_FAULTS_H

#include <stdint.h>

#include "core/stress/stress.h"

enum vk_fault_op {
	VK_OP_NONE,		/* the baseline, or a step to skip */
	VK_OP_CLOCKSOURCE,	/* write cs to current_clocksource */
	VK_OP_SETTIMEOFDAY,	/* REALTIME += arg s by settimeofday() */
	VK_OP_CLOCK_SETTIME,	/* REALTIME += arg s by clock_settime() */
	VK_OP_SETTIME_AT,	/* REALTIME = arg ns by clock_settime() */
	VK_OP_REALTIME_BACK,	/* REALTIME as it would be without the steps */
	VK_OP_FREQ,		/* adjtimex ADJ_FREQUENCY = arg (scaled ppm) */
	VK_OP_SETOFFSET,	/* adjtimex ADJ_SETOFFSET by arg s */
	VK_OP_CPU_OFFLINE,	/* cpu arg offline */
	VK_OP_CPU_ONLINE,
	VK_OP_PAUSE,		/* vdsokit vm's host stops the guest for arg s */
	VK_OP_TIMENS,		/* read the clocks in a new time namespace */
};

struct vk_fault_step {
	char name[40];		/* "clocksource:hpet", "settimeofday:+3600s" */
	enum vk_fault_kind kind;
	enum vk_fault_op op;
	int64_t arg;
	char cs[64];
	char skip[96];		/* why this step is not injected, or "" */
};

/* The steps of the kinds in mask, the baseline first; their number. */
int vk_fault_steps(unsigned mask, int pause, const struct vk_stress_saved *saved,
		   struct vk_fault_step *s, int max);
/* Inject a step: 0, or -1 and why not, or 1 and the rule it saw broken
 * (a pause the clocks outran); what it saw in err either way. */
int vk_fault_apply(const struct vk_stress *st, const struct vk_fault_step *s,
		   const struct vk_stress_saved *saved, char *err, size_t len);
/*
 * Hold a frequency step for seconds and measure MONOTONIC's rate against
 * MONOTONIC_RAW's over it: it must be the frequency set (MONOTONIC follows
 * the slew, MONOTONIC_RAW never does). 0, 1 if it is not, -1 where the
 * step was too short or its ends read too loosely to tell (not tested);
 * what was measured in err each way.
 */
int vk_fault_rate(const struct vk_fault_step *s, double seconds, char *err, size_t len);
/* The time namespace step, as vk_fault_apply (core/stress/stress_timens.c). */
int vk_stress_timens(const struct vk_stress *st, char *err, size_t len);

#endif /* VK_STRESS_FAULTS_H */

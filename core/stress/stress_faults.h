/* SPDX-License-Identifier: MIT */
/*
 * The faults stress injects: their kinds, as --faults names them; what
 * the machine was like before, and putting it back; and core/stress's
 * own list of steps, each held for a while as the readers go on.
 */
#ifndef VK_STRESS_FAULTS_H
#define VK_STRESS_FAULTS_H

#include <stddef.h>
#include <stdint.h>

struct vk_stress;
struct vk_callset;

/* The fault kinds, bits of the --faults mask. */
enum vk_fault_kind {
	VK_FAULT_CLOCKSOURCE,	/* every available clocksource in turn */
	VK_FAULT_SETTIME,	/* REALTIME stepped forwards and backwards */
	VK_FAULT_SLEW,		/* adjtimex: +-500 ppm by frequency and tick, ADJ_SETOFFSET */
	VK_FAULT_HOTPLUG,	/* a CPU offline and back */
	VK_FAULT_PAUSE,		/* vdsokit vm's host stops the whole guest */
	VK_FAULT_TIMENS,	/* a time namespace entered */
	VK_FAULT_LEAP,		/* a leap second inserted at a UTC midnight */
	VK_FAULT_TIMEZONE,	/* the kernel's timezone set by settimeofday */
	VK_NFAULTS
};

/* What the machine was like before: what restore puts back. */
struct vk_stress_saved {
	char clocksource[64];	/* "" if sysfs has none */
	long freq;		/* adjtimex's, scaled ppm */
	long tick;		/* adjtimex's, us per USER_HZ tick */
	int64_t real_ns, mono_ns;	/* read together */
	uint64_t online;	/* CPUs 1..63 online (bit n: cpu n) */
	unsigned faults;	/* the kinds the run injects: what restore puts back */
	int status, tai;	/* adjtimex's, for leap */
	int tz[2];		/* minuteswest, dsttime, for timezone */
};

/* Why stress may not run here (NULL: it may): checked before anything. */
const char *vk_stress_refusal(int accepted);
/* Fault kinds by name, "clocksource,settime,slew,hotplug,pause,timens,leap,
 * timezone" or "all"; -1: unknown. */
int vk_stress_faults_parse(const char *list, unsigned *mask);
const char *vk_fault_name(enum vk_fault_kind k);
/* Note what the machine is like now, for the faults of mask; 0, or -1
 * and what failed. */
int vk_stress_save(struct vk_stress_saved *s, unsigned mask, char *err, size_t len);
/* Put back the clocksource, the frequency, the tick and REALTIME (advanced by the
 * MONOTONIC time since the save), and where the run set them adjtimex's
 * status and TAI offset and the timezone; 0, or -1 and what failed. */
int vk_stress_restore(const struct vk_stress_saved *s, char *err, size_t len);

enum vk_fault_op {
	VK_OP_NONE,		/* the baseline, or a step to skip */
	VK_OP_CLOCKSOURCE,	/* write cs to current_clocksource */
	VK_OP_SETTIMEOFDAY,	/* REALTIME += arg s by settimeofday() */
	VK_OP_CLOCK_SETTIME,	/* REALTIME += arg s by clock_settime() */
	VK_OP_SETTIME_AT,	/* REALTIME = arg ns by clock_settime() */
	VK_OP_REALTIME_BACK,	/* REALTIME as it would be without the steps */
	VK_OP_FREQ,		/* adjtimex ADJ_FREQUENCY = arg (scaled ppm) */
	VK_OP_TICK,		/* adjtimex ADJ_TICK = arg (us per tick) */
	VK_OP_SETOFFSET,	/* adjtimex ADJ_SETOFFSET by arg s */
	VK_OP_CPU_OFFLINE,	/* cpu arg offline */
	VK_OP_CPU_ONLINE,
	VK_OP_PAUSE,		/* vdsokit vm's host stops the guest for arg s */
	VK_OP_TIMENS,		/* read the clocks in a new time namespace */
	VK_OP_LEAP,		/* REALTIME just before a midnight, a leap second armed */
	VK_OP_TIMEZONE,		/* settimeofday(NULL, {arg, dsttime}), read back */
};

struct vk_fault_step {
	char name[40];		/* "clocksource:hpet", "settimeofday:+3600s" */
	enum vk_fault_kind kind;
	enum vk_fault_op op;
	int64_t arg;
	double ppm;		/* a rate step's: MONOTONIC against MONOTONIC_RAW */
	int dsttime;		/* a timezone step's */
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
 * Hold a rate step (frequency or tick) for seconds and measure MONOTONIC's
 * rate against MONOTONIC_RAW's over it: it must be the step's ppm
 * (MONOTONIC follows the slew, MONOTONIC_RAW never does). 0, 1 if it is not, -1 where the
 * step was too short or its ends read too loosely to tell (not tested);
 * what was measured in err each way.
 */
int vk_fault_rate(const struct vk_fault_step *s, double seconds, char *err, size_t len);
/*
 * The leap second (core/stress/stress_leap.c). VK_OP_LEAP's step, as
 * vk_fault_apply: REALTIME just before a midnight, an inserted leap armed.
 */
int vk_fault_leap_arm(char *err, size_t len);
/*
 * Watch the leap second the step armed go by, reading REALTIME through
 * the syscall and each path of paths. gen is odd on entry, as the arming
 * left it, and made
 * even once the step back is seen: no reader judges a bracket the step
 * may fall in. Then put the time, the status and the TAI offset back.
 * 0, 1 if a rule broke, -1 if one could not be tested; what was seen in
 * err.
 */
int vk_fault_leap(const struct vk_callset *cs, unsigned paths, unsigned *gen,
		  const struct vk_stress_saved *saved, char *err, size_t len);
/* Read back the timezone a VK_OP_TIMEZONE step set, through the syscall
 * and each path of paths: 0, or 1 and the path that read another. */
int vk_fault_timezone(const struct vk_callset *cs, unsigned paths, const struct vk_fault_step *s,
		      char *err, size_t len);
/* The time namespace step, as vk_fault_apply (core/stress/stress_timens.c). */
int vk_stress_timens(const struct vk_stress *st, char *err, size_t len);

#endif /* VK_STRESS_FAULTS_H */

/* SPDX-License-Identifier: MIT */
/*
 * stress: read the clocks without pause, one reader thread per CPU, while
 * a fault thread changes the kernel's time underneath them: the
 * clocksource, REALTIME, the frequency, the CPUs online. It changes this
 * machine's clock, so it runs only where the kernel's command line says
 * the machine is vdsokit vm's guest, or where the user accepts it.
 *
 * The readers and the faults run in a child; the parent saved what it
 * found (clocksource, frequency, REALTIME against MONOTONIC) and restores
 * it whatever becomes of the child: it ends, crashes, hangs or the parent
 * is told to stop.
 */
#ifndef VK_STRESS_H
#define VK_STRESS_H

#include <signal.h>
#include <stdint.h>

#include "core/call/call.h"
#include "core/result/result.h"

#define VK_STRESS_MAX_CLOCKS 16
#define VK_STRESS_MAX_STEPS 48
#define VK_STRESS_MAX_THREADS 64
/* A call that has not returned after this long is a hang. */
#define VK_STRESS_HANG_SECONDS 20

/* The fault kinds, bits of the --faults mask. */
enum vk_fault_kind {
	VK_FAULT_CLOCKSOURCE,	/* every available clocksource in turn */
	VK_FAULT_SETTIME,	/* REALTIME stepped forwards and backwards */
	VK_FAULT_SLEW,		/* adjtimex: +-500 ppm, ADJ_SETOFFSET */
	VK_FAULT_HOTPLUG,	/* a CPU offline and back */
	VK_FAULT_PAUSE,		/* vdsokit vm's host stops the whole guest */
	VK_FAULT_TIMENS,	/* a time namespace entered */
	VK_NFAULTS
};

/* What the machine was like before: what restore puts back. */
struct vk_stress_saved {
	char clocksource[64];	/* "" if sysfs has none */
	long freq;		/* adjtimex's, scaled ppm */
	int64_t real_ns, mono_ns;	/* read together */
	uint64_t online;	/* CPUs 1..63 online (bit n: cpu n) */
};

struct vk_stress {
	const struct vk_callset *cs;
	unsigned paths;		/* VK_PATH_BIT()s */
	unsigned faults;	/* 1 << enum vk_fault_kind */
	double seconds;		/* the whole run */
	int clocks[VK_STRESS_MAX_CLOCKS];
	int nclocks;
	int getcpu;		/* read getcpu too */
	int threads;		/* 0: one per CPU online */
	int pause;		/* seconds the host pauses the guest */
	volatile sig_atomic_t *stop;	/* set by a signal: end and restore */
};

/* Why stress may not run here (NULL: it may): checked before anything. */
const char *vk_stress_refusal(int accepted);
/* Fault kinds by name, "clocksource,settime,slew,hotplug,pause,timens" or
 * "all"; -1: unknown. */
int vk_stress_faults_parse(const char *list, unsigned *mask);
const char *vk_fault_name(enum vk_fault_kind k);

/*
 * The rules one read through a path (got, in ns) breaks: VK_STRESS_BACK, a
 * clock that must not step back read below prev (this thread's last read,
 * or the latest another thread published before it); VK_STRESS_ORDER, a
 * fine clock read outside the syscall's reads before and after it, when
 * quiet (no fault was injected between them: REALTIME may jump);
 * VK_STRESS_JUMP, a clock that must not step back read more than
 * max_jump ns past prev (0: not judged, as before a thread's first read).
 */
enum { VK_STRESS_BACK = 1, VK_STRESS_ORDER = 2, VK_STRESS_JUMP = 4 };
int vk_stress_judge(int clock, int64_t prev, int64_t before, int64_t got, int64_t after,
		    int quiet, int64_t max_jump);
/*
 * A pause of sec seconds the host was asked for, judged by how far the
 * RTC (whole seconds, running on the host's time) and MONOTONIC (ns) moved
 * on since: VK_STRESS_JUMP, MONOTONIC outran the RTC (by more than its
 * resolution); -1, no pause seen yet (the RTC has not gained sec - 1 s on
 * MONOTONIC, as it does where MONOTONIC stands still across a pause, as
 * under qemu); else 0.
 */
int vk_stress_pause_judge(int64_t sec, int64_t rtc_s, int64_t mono_ns);
/*
 * MONOTONIC's rate against MONOTONIC_RAW's over a step, in ppm, from
 * their moves in ns; how far off that can be, in ppm, where each end was
 * read within a bracket of RAW readings bracket0 and bracket1 ns wide;
 * and whether it is adjtimex's frequency (want_ppm) within a tenth of a
 * 500 ppm slew: 0 if it is, VK_STRESS_ORDER if it is not even within the
 * uncertainty added, -1 where the uncertainty alone is wider than the
 * tolerance (the rate was not tested).
 */
#define VK_STRESS_RATE_TOLERANCE_PPM 50
double vk_stress_rate_ppm(int64_t mono_ns, int64_t raw_ns);
double vk_stress_rate_uncertainty_ppm(int64_t bracket0, int64_t bracket1, int64_t raw_ns);
int vk_stress_rate_judge(double want_ppm, double got_ppm, double uncertainty_ppm);
/* Whether a clock must never step back. */
int vk_stress_monotonic(int clock);

int vk_stress_save(struct vk_stress_saved *s, char *err, size_t len);
/* Put back the clocksource, the frequency and REALTIME (advanced by the
 * MONOTONIC time since the save); 0, or -1 and what failed. */
int vk_stress_restore(const struct vk_stress_saved *s, char *err, size_t len);

/* How a run ended, and whether the machine was put back as it was. */
struct vk_stress_end {
	struct vk_stress_saved saved;
	char what[128];		/* "" if it ran to its end: a crash, a hang, "interrupted" */
	int restored;
	char restore_err[160];
	int threads;
};

/*
 * Run the stress and add one result per fault step and path: calls, the
 * largest step back per clock, the largest latency, crashes and hangs.
 * Returns 0, or -1 with err if it could not start (nothing was changed).
 */
int vk_stress_run(const struct vk_stress *st, struct vk_results *rs, struct vk_stress_end *end,
		  char *err, size_t len);

#endif /* VK_STRESS_H */

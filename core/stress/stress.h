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
#include "core/stress/stress_faults.h"
#include "core/stress/stress_judge.h"

#define VK_STRESS_MAX_CLOCKS 16
#define VK_STRESS_MAX_STEPS 48
#define VK_STRESS_MAX_THREADS 64
/* A call that has not returned after this long is a hang. */
#define VK_STRESS_HANG_SECONDS 20

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

/* How a run ended, and whether the machine was put back as it was. */
struct vk_stress_end {
	struct vk_stress_saved saved;
	char what[512];		/* "" if it ran to its end: a crash, a hang, "interrupted" */
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

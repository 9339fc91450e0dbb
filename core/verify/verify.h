/* SPDX-License-Identifier: MIT */
/*
 * verify: every API on every path under test, compared with the raw
 * syscall, each rule a result. The rules and their names:
 *   errno         return value and errno equal the syscall's
 *   ordered       syscall <= path <= syscall, read in that order
 *   normalized    0 <= nsec < 1e9, no negative seconds where impossible
 *   monotonic     no reading earlier than the one before it
 *   null-args     NULL where the ABI allows it behaves as the syscall does
 *   resolution    clock_getres equals the syscall's
 *   coarse-step   MONOTONIC_COARSE never steps back; a step that is not a
 *                 whole number of the resolution is a note (the kernel
 *                 moves it by part of a tick when it changes clocksource)
 *   boottime      BOOTTIME - MONOTONIC >= the time namespace's offsets' gap
 *   tai-offset    TAI - REALTIME equals adjtimex()'s TAI offset
 *   coarse-bound  a coarse clock is never ahead of its fine clock and lags
 *                 it by at most its resolution and the reading gap
 *   threads       no thread reads a time earlier than one another thread
 *                 published before its read began; a SKIP where some two
 *                 threads never read within VK_THREADS_SKEW of each other
 *   survives      the checks of a function on a path neither crash nor hang
 *   stack         the most stack its calls use, on a painted stack above a
 *                 guard pages; over max_stack, or on the guard pages, fails
 *   signal-call   called again from a signal handler that interrupted it,
 *                 it returns what it does outside, in time (no deadlock)
 *   signal-unwind from each signal that landed inside the call, the
 *                 unwinder reaches the call's return address; a SKIP
 *                 where it stops at code no FDE covers
 *   mlockall      no page fault in the first call after mlockall(), in a
 *                 vdsokit exec()ed afresh; a failure from Linux 7.3 on,
 *                 a SKIP that says so before
 *   realtime, timezone, time-pointer, coarse-seconds, cpu, node,
 *   length        getrandom writes exactly the bytes it reports, 0-64 KiB
 *   statistics    1 MiB of getrandom passes core/verify/randomness.h
 *   sysfs-node    getcpu's node is the one sysfs's cpuN/nodeM names
 *   no-files      getrandom draws with RLIMIT_NOFILE at 0
 *   thread-states threads, each with its own state, draw apart
 *   fork-drawing  a fork() while another thread draws leaves the child
 *                 drawing, and not the parent's bytes
 *   aux-enable    an aux clock (ids 16-23) that was disabled is enabled;
 *                 a SKIP without CONFIG_POSIX_AUX_CLOCKS or CAP_SYS_TIME
 *   aux-ordered, aux-monotonic  ordered and monotonic, on it while it is
 *                 enabled, stepped and slewed
 *   aux-step      ADJ_SETOFFSET moves the syscall's reading by the step
 *   aux-slew      ADJ_FREQUENCY is taken, and the reads stay in order
 *   aux-disable   disabled again, the path returns what the syscall does
 *   second-edge  a call held inside across a second boundary and a
 *                 timekeeper update reads neither back nor outside the
 *                 syscall's bracket, on two boundaries of each clock
 *   query, flags, differs, fork, straddle: see their checks.
 */
#ifndef VK_VERIFY_H
#define VK_VERIFY_H

#include "core/verify/verify_shared.h"

/* Run every family of checks of t's function on each path under test. */
void vk_verify_run(struct vk_verify *v, const struct vk_target *t);
/*
 * The second-edge rule (verify_edge.c) of the nt targets' clock APIs, on
 * each path under test, once for them all: it waits for the clocks' second
 * boundaries, up to VK_EDGE_SECONDS, so its children run while the other
 * checks do, started before them and collected after.
 */
struct vk_verify_edges {
	struct vk_verify *v;
	const struct vk_target *t;
	int nt;
	struct vk_isolating child[VK_NPATHS];
	int started[VK_NPATHS];
};
void vk_verify_edges_start(struct vk_verify_edges *e, struct vk_verify *v,
			   const struct vk_target *t, int nt);
void vk_verify_edges_finish(struct vk_verify_edges *e);
/* The vdsokit the mlockall rule exec()s (exec_argv, then --mlock-probe
 * SPEC and --impl LIB where the path is impl): its answer to fd. 0, or
 * -1 where it could not be written. */
int vk_verify_mlock_probe(const char *spec, const char *impl, int fd);

#endif /* VK_VERIFY_H */

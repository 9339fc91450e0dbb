/* SPDX-License-Identifier: MIT */
/* Facts about the running system that decide how its vDSO behaves. */
#ifndef VK_SYSINFO_H
#define VK_SYSINFO_H

#include <sys/utsname.h>

enum vk_tristate { VK_NO, VK_YES, VK_UNKNOWN };

struct vk_sysinfo {
	struct utsname uts;
	char clocksource[64];		/* "" if sysfs does not say */
	char clocksources[256];		/* available ones, space-separated */
	enum vk_tristate cs_vdso;	/* can the vDSO read this clocksource? */
	const char *cs_note;		/* why, or a condition */
	enum vk_tristate timens;	/* in a non-initial time namespace? */
	long long mono_offset[2];	/* timens offsets: seconds, nanoseconds */
	long long boot_offset[2];
	int have_offsets;
};

void vk_sysinfo_read(struct vk_sysinfo *si);
/*
 * Wait up to max_s seconds for the kernel to settle on its clocksource:
 * after boot, x86 replaces tsc-early by tsc once calibrated. 0 settled,
 * -1 not in time, and which it was in why.
 */
int vk_clocksource_settle(double max_s, char *why, size_t len);
/* This build's ABI: architecture, libc, width of time_t. */
const char *vk_build_abi(void);
/*
 * Whether the kernel's CRNG is ready. Until it is getrandom blocks, on
 * every path: for minutes after boot on a board without a cycle counter
 * for jitter entropy (a Cortex-A9), where a check or a bench of it would
 * only hang.
 */
int vk_crng_ready(void);
/* utime + stime of a /proc/.../stat file, in clock ticks; 0 if gone. */
unsigned long long vk_stat_ticks(const char *path);

#endif /* VK_SYSINFO_H */

/* SPDX-License-Identifier: MIT */
/* Facts about the running system that decide how its vDSO behaves. */
#ifndef VK_SYSINFO_H
#define VK_SYSINFO_H

#include <stddef.h>
#include <sys/utsname.h>

enum vk_tristate { VK_NO, VK_YES, VK_UNKNOWN };

struct vk_sysinfo {
	struct utsname uts;
	char clocksource[64];		/* "" if sysfs does not say */
	char clocksources[256];		/* available ones, space-separated */
	enum vk_tristate cs_vdso;	/* can the vDSO read this clocksource? */
	const char *cs_note;		/* why, or a condition */
	struct vk_timens_seen {
		int proc;		/* /proc/self/ns exists: proc is mounted */
		int link_err;		/* readlink /proc/self/ns/time: 0, or its errno */
		unsigned long long ino;	/* its inode, where read */
		int unshare_err;	/* unshare(CLONE_NEWTIME) in a child: 0, its
					 * errno, or -1 not tried */
	} timens_seen;
	enum vk_tristate timens;	/* in a non-initial time namespace? */
	enum vk_tristate timens_kernel;	/* has the kernel time namespaces? */
	enum vk_tristate timens_new;	/* can this process make one? */
	char timens_note[320];		/* how that is known, or why not */
	long long mono_offset[2];	/* timens offsets: seconds, nanoseconds */
	long long boot_offset[2];
	int have_offsets;
};

/* Everything but whether a time namespace can be made (not tried). */
void vk_sysinfo_read(struct vk_sysinfo *si);
/* Try, in a child, to make a time namespace, and judge again. */
void vk_sysinfo_try_timens(struct vk_sysinfo *si);
/*
 * What si->timens_seen says of time namespaces: whether this process is
 * in a non-initial one, whether the kernel has them (no /proc/self/ns/time
 * where /proc is mounted: built without CONFIG_TIME_NS; unshare's EINVAL
 * says the same, its EPERM nothing, as the kernel checks CAP_SYS_ADMIN
 * first), whether one can be made here, and the note that says how.
 */
void vk_sysinfo_timens_judge(struct vk_sysinfo *si);
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
/* The reason each getrandom check SKIPs with then. */
#define VK_CRNG_NOT_READY "the CRNG is not ready yet: getrandom would block"
/*
 * The NUMA node sysfs puts cpu in (its /sys/devices/system/cpu/cpuN/nodeM
 * link, as LTP's getcpu01 reads it); -1 where sysfs names none: no sysfs,
 * or a kernel without CONFIG_NUMA.
 */
int vk_cpu_node(int cpu);
/*
 * Whether the kernel refuses the time32 syscalls of a 32-bit ABI
 * (clock_gettime, clock_getres, futex...) with ENOSYS, as one built
 * without CONFIG_COMPAT_32BIT_TIME does; 0 on ABIs without them.
 */
int vk_time32_missing(void);
/*
 * Why this build cannot wait for a thread on this kernel, or NULL. A
 * 32-bit glibc waits (pthread_join, a contended lock) with the time32
 * futex syscall and aborts where the kernel refuses it.
 */
const char *vk_threads_refused(void);
/*
 * Whether the running kernel's release (uname) is older than
 * major.minor: for a behaviour the kernel changed on purpose in that
 * release, where the older one is no bug. 0 if the release is unreadable.
 */
int vk_kernel_before(int major, int minor);

#endif /* VK_SYSINFO_H */

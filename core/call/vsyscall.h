/* SPDX-License-Identifier: MIT */
/*
 * x86_64's legacy vsyscall page at 0xffffffffff600000: gettimeofday at
 * +0, time at +0x400, getcpu at +0x800. Today's kernels run none of its
 * code (vsyscall=native is gone): every call faults, and the kernel
 * emulates the syscall it stands for, seccomp included. Only 64-bit
 * x86_64 processes have it: the kernel maps none for i386 and x32 ones.
 */
#ifndef VK_VSYSCALL_H
#define VK_VSYSCALL_H

#include "core/base/api.h"
#include "core/base/sysinfo.h"

#define VK_VSYSCALL_ADDR 0xffffffffff600000UL

/* The page as /proc/self/maps shows it, which says the kernel's vsyscall= mode. */
enum vk_vsyscall_mode {
	VK_VSYSCALL_UNKNOWN,	/* no maps to read */
	VK_VSYSCALL_ABSENT,	/* no [vsyscall] line: vsyscall=none, or not x86_64 */
	VK_VSYSCALL_XONLY,	/* --xp: calls emulated, a read faults */
	VK_VSYSCALL_EMULATE,	/* r-xp: calls emulated, the page readable */
};

/* "xonly", "emulate", "none", "unknown": the kernel parameter's spelling. */
const char *vk_vsyscall_mode_name(enum vk_vsyscall_mode m);
/*
 * The page here: its mode, and what a read of it does, probed in a child
 * (xonly: SIGSEGV; emulate: it reads), with a note that says so.
 */
struct vk_vsyscall {
	enum vk_vsyscall_mode mode;
	enum vk_tristate readable;	/* VK_UNKNOWN where there is no page to read */
	char note[200];
};
void vk_vsyscall_read(struct vk_vsyscall *v);

/* Why this process has no page to call (vsyscall=none, an i386 or x32
 * build, no /proc), or NULL; *mode the page's as /proc/self/maps shows
 * it, or ABSENT for a build that has none. */
const char *vk_vsyscall_missing(enum vk_vsyscall_mode *mode);
/* The page's entry for f, or NULL where it has none or this build no page. */
void *vk_vsyscall_entry(enum vk_func f);

#endif /* VK_VSYSCALL_H */

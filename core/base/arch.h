/* SPDX-License-Identifier: MIT */
/*
 * What differs between architectures' vDSOs: the prefix of their symbol
 * names, the version those symbols carry, and which functions they may
 * export. An image is matched to its row by its ELF machine, class and
 * flags, so an arm64 vdso.so can be inspected on an x86_64 host.
 */
#ifndef VK_ARCH_H
#define VK_ARCH_H

#include <stdint.h>

/* The functions a vDSO exports, by their name after the arch prefix. */
enum vk_func {
	VK_FN_CLOCK_GETTIME,
	VK_FN_CLOCK_GETRES,
	VK_FN_GETTIMEOFDAY,
	VK_FN_TIME,
	VK_FN_GETCPU,
	VK_FN_GETRANDOM,
	VK_FN_CLOCK_GETTIME64,
	VK_FN_CLOCK_GETRES_TIME64,
	VK_NFUNCS,
	/*
	 * Linux 7.3's robust futex unlocks: no syscall twin to compare with
	 * and no clock, so no command but abi calls them, against their own
	 * contract (core/abi/abi_futex.c); the loops to VK_NFUNCS leave them.
	 */
	VK_FN_FUTEX_UNLOCK64 = VK_NFUNCS,
	VK_FN_FUTEX_UNLOCK32,
	VK_NALLFUNCS
};

#define VK_FN_BIT(f) (1u << (f))

struct vk_arch {
	const char *name;
	uint16_t machine;	/* EM_* */
	int is64;		/* ELF class of its vDSO */
	const char *version;	/* the version a libc asks for */
	const char *prefix;	/* "__vdso_" or "__kernel_" */
	unsigned funcs;		/* VK_FN_BIT()s the newest kernels export */
	unsigned stubs;		/* those of funcs whose entry makes the syscall */
	/* Each function's syscall twin's number in this ABI, -1: none; NULL: not known. */
	const long *sysno;
	uint32_t eflags;	/* e_flags bits its images have (mips n32's EF_MIPS_ABI2) */
	/* ILP32 ABIs of a 64-bit kernel (x32, n32): the AUDIT_ARCH bits
	 * seccomp sees beyond the machine and byte order, and whether its
	 * time32-named entries have a 64-bit time_t (x32's do). */
	uint32_t audit;
	int time64;
};

const struct vk_arch *vk_arch_find(uint16_t machine, int is64, uint32_t eflags);
/* The architecture and ABI this program was built for. */
const struct vk_arch *vk_arch_host(void);

#endif /* VK_ARCH_H */

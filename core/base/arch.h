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

/* The functions a vDSO exports, core/base/apis.def's rows, VK_FN_<id>
 * each; the first VK_NFUNCS every command calls, the rest abi alone. */
enum vk_func {
#define VK_FUNC(id, ...) VK_FN_##id,
#include "core/base/apis.def"
	VK_NALLFUNCS,
	VK_NFUNCS = 0
#define VK_FUNC(id, name, api, libc, syscall, sysno, shape, kind, every, ...) + (every)
#include "core/base/apis.def"
};

#define VK_FN_BIT(f) (1u << (f))
/* The functions abi alone calls (from VK_NFUNCS on), a VK_FN_BIT() each. */
#define VK_ABI_ALONE_FUNCS (VK_FN_BIT(VK_NALLFUNCS) - VK_FN_BIT(VK_NFUNCS))

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

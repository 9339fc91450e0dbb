// SPDX-License-Identifier: MIT
/*
 * Matches a vDSO image, or this build, to its ABI's row, so that its
 * symbols, versions and syscall numbers are known: the VK_ABI rows of
 * core/base/arches.def, in the function sets named here.
 */
#include <stddef.h>

#include "core/base/array.h"
#include "core/base/elf_ids.h"
#include "core/base/arch.h"

#define TIME32_FUNCS                                                            \
	(VK_FN_BIT(VK_FN_CLOCK_GETTIME) | VK_FN_BIT(VK_FN_CLOCK_GETRES) |      \
	 VK_FN_BIT(VK_FN_GETTIMEOFDAY))
#define TIME64_FUNCS                                                            \
	(VK_FN_BIT(VK_FN_CLOCK_GETTIME64) | VK_FN_BIT(VK_FN_CLOCK_GETRES_TIME64))
#define TIME VK_FN_BIT(VK_FN_TIME)
#define GETCPU VK_FN_BIT(VK_FN_GETCPU)
#define GETRANDOM VK_FN_BIT(VK_FN_GETRANDOM)
#define FUTEX64 VK_FN_BIT(VK_FN_FUTEX_UNLOCK64)
#define FUTEX32 VK_FN_BIT(VK_FN_FUTEX_UNLOCK32)
#define SPARC_FUNCS (VK_FN_BIT(VK_FN_CLOCK_GETTIME) | VK_FN_BIT(VK_FN_GETTIMEOFDAY))

/* <linux/audit.h>'s __AUDIT_ARCH_64BIT and __AUDIT_ARCH_CONVENTION_MIPS64_N32. */
#define AUDIT_64BIT 0x80000000u
#define AUDIT_MIPS64_N32 0x20000000u

/* The VK_ABI rows of core/base/arches.def, their syscall numbers an array each. */
#define VK_ABI(name, machine, is64, eflags, version, prefix, funcs, stubs, audit, time64, ...) \
	{ name, machine, is64, version, prefix, funcs, stubs, (const long[]){ __VA_ARGS__ },     \
	  eflags, audit, time64 },
static const struct vk_arch arches[] = {
#include "core/base/arches.def"
};

/* No row may give fewer numbers than there are functions: the array
 * would end before vk_arch_sysno()'s readers do. */
#define VK_ABI(name, machine, is64, eflags, version, prefix, funcs, stubs, audit, time64, ...) \
	_Static_assert(sizeof((long[]){ __VA_ARGS__ }) == sizeof(long[VK_NFUNCS]),             \
		       name ": one syscall number per enum vk_func");
#include "core/base/arches.def"

const struct vk_arch *vk_arch_find(uint16_t machine, int is64, uint32_t eflags)
{
	for (size_t i = 0; i < ARRAY_SIZE(arches); i++) {
		if (arches[i].machine == machine && arches[i].is64 == is64 &&
		    (eflags & arches[i].eflags) == arches[i].eflags)
			return &arches[i];
	}
	return NULL;
}

#if defined(__x86_64__)
#define HOST_MACHINE EM_X86_64
#elif defined(__i386__)
#define HOST_MACHINE EM_386
#elif defined(__aarch64__)
#define HOST_MACHINE EM_AARCH64
#elif defined(__arm__)
#define HOST_MACHINE EM_ARM
#elif defined(__powerpc64__)
#define HOST_MACHINE EM_PPC64
#elif defined(__powerpc__)
#define HOST_MACHINE EM_PPC
#elif defined(__s390x__)
#define HOST_MACHINE EM_S390
#elif defined(__riscv)
#define HOST_MACHINE EM_RISCV
#elif defined(__mips__)
#define HOST_MACHINE EM_MIPS
#if _MIPS_SIM == _ABIN32
#define HOST_EFLAGS EF_MIPS_ABI2
#endif
#elif defined(__loongarch__)
#define HOST_MACHINE EM_LOONGARCH
#elif defined(__sparc__) && defined(__arch64__)
#define HOST_MACHINE EM_SPARCV9
#elif defined(__sparc__)
#define HOST_MACHINE EM_SPARC32PLUS
#else
#define HOST_MACHINE EM_NONE
#endif
#ifndef HOST_EFLAGS
#define HOST_EFLAGS 0
#endif

const struct vk_arch *vk_arch_host(void)
{
	return vk_arch_find(HOST_MACHINE, sizeof(void *) == 8, HOST_EFLAGS);
}

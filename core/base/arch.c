// SPDX-License-Identifier: MIT
/*
 * One row per vDSO ABI, from the kernel's arch/<arch>/.../vdso*.lds.S
 * linker scripts. The version names are the ones glibc asks for. riscv's
 * __vdso_getcpu is only an ecall (arch/riscv/kernel/vdso/getcpu.S), which
 * fallback proved on Debian's 6.12 kernel.
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
#define SPARC_FUNCS (VK_FN_BIT(VK_FN_CLOCK_GETTIME) | VK_FN_BIT(VK_FN_GETTIMEOFDAY))

/*
 * Syscall numbers, in enum vk_func's order, from each ABI's <asm/unistd.h>
 * (Debian's cross compilers; tests/cases/syscall_numbers.sh compares).
 * x32's are x86_64's with __X32_SYSCALL_BIT. loongarch64 shares aarch64's
 * and riscv64's asm-generic table; riscv32 has its 32-bit half, which
 * has only the time64 calls. mips's are the kernel's syscall_o32.tbl and
 * syscall_n64.tbl past their bases, __NR_Linux 4000 and 5000, and n32's
 * syscall_n32.tbl past 6000. sparc64 and sparc share one syscall.tbl.
 */
#define X32(n) (0x40000000L | (n))
/* <linux/audit.h>'s __AUDIT_ARCH_64BIT and __AUDIT_ARCH_CONVENTION_MIPS64_N32. */
#define AUDIT_64BIT 0x80000000u
#define AUDIT_MIPS64_N32 0x20000000u
static const long x86_64_nr[] = { 228, 229, 96, 201, 309, 318, -1, -1 };
static const long x32_nr[] = { X32(228), X32(229), X32(96), X32(201), X32(309), X32(318), -1, -1 };
static const long i386_nr[] = { 265, 266, 78, 13, 318, 355, 403, 406 };
static const long generic_nr[] = { 113, 114, 169, -1, 168, 278, -1, -1 };
static const long arm_nr[] = { 263, 264, 78, -1, 345, 384, 403, 406 };
static const long ppc64_nr[] = { 246, 247, 78, 13, 302, 359, -1, -1 };
static const long ppc_nr[] = { 246, 247, 78, 13, 302, 359, 403, 406 };
static const long s390x_nr[] = { 260, 261, 78, -1, 311, 349, -1, -1 };
static const long riscv32_nr[] = { -1, -1, -1, -1, 168, 278, 403, 406 };
static const long mips64_nr[] = { 5222, 5223, 5094, -1, 5271, 5313, -1, -1 };
static const long mips_nr[] = { 4263, 4264, 4078, 4013, 4312, 4353, 4403, 4406 };
static const long mipsn32_nr[] = { 6226, 6227, 6094, -1, 6275, 6317, 6403, 6406 };
static const long sparc64_nr[] = { 257, 258, 116, -1, 308, 347, -1, -1 };
static const long sparc_nr[] = { 257, 258, 116, 231, 308, 347, 403, 406 };

static const struct vk_arch arches[] = {
	{ "x86_64", EM_X86_64, 1, "LINUX_2.6", "__vdso_",
	  TIME32_FUNCS | TIME | GETCPU | GETRANDOM, 0, x86_64_nr, 0, 0, 0 },
	/* The kernel's AUDIT_ARCH_X86_64 and 64-bit time, in an ELF32 image. */
	{ "x32", EM_X86_64, 0, "LINUX_2.6", "__vdso_", TIME32_FUNCS | TIME | GETCPU, 0, x32_nr, 0,
	  AUDIT_64BIT, 1 },
	{ "i386", EM_386, 0, "LINUX_2.6", "__vdso_",
	  TIME32_FUNCS | TIME64_FUNCS | TIME | GETCPU, 0, i386_nr, 0, 0, 0 },
	{ "aarch64", EM_AARCH64, 1, "LINUX_2.6.39", "__kernel_", TIME32_FUNCS | GETRANDOM, 0,
	  generic_nr, 0, 0, 0 },
	{ "arm", EM_ARM, 0, "LINUX_2.6", "__vdso_", TIME32_FUNCS | TIME64_FUNCS, 0, arm_nr, 0, 0, 0 },
	{ "ppc64", EM_PPC64, 1, "LINUX_2.6.15", "__kernel_",
	  TIME32_FUNCS | TIME | GETCPU | GETRANDOM, 0, ppc64_nr, 0, 0, 0 },
	{ "ppc", EM_PPC, 0, "LINUX_2.6.15", "__kernel_",
	  TIME32_FUNCS | VK_FN_BIT(VK_FN_CLOCK_GETTIME64) | TIME | GETCPU | GETRANDOM, 0, ppc_nr, 0, 0, 0 },
	{ "s390x", EM_S390, 1, "LINUX_2.6.29", "__kernel_", TIME32_FUNCS | GETCPU | GETRANDOM, 0,
	  s390x_nr, 0, 0, 0 },
	{ "riscv64", EM_RISCV, 1, "LINUX_4.15", "__vdso_", TIME32_FUNCS | GETCPU, GETCPU,
	  generic_nr, 0, 0, 0 },
	{ "riscv32", EM_RISCV, 0, "LINUX_4.15", "__vdso_", TIME32_FUNCS | GETCPU, GETCPU,
	  riscv32_nr, 0, 0, 0 },
	{ "mips64", EM_MIPS, 1, "LINUX_2.6", "__vdso_", TIME32_FUNCS, 0, mips64_nr, 0, 0, 0 },
	/* n32 before o32: its images are told apart by EF_MIPS_ABI2 alone. */
	{ "mipsn32", EM_MIPS, 0, "LINUX_2.6", "__vdso_", TIME32_FUNCS | TIME64_FUNCS, 0,
	  mipsn32_nr, EF_MIPS_ABI2, AUDIT_64BIT | AUDIT_MIPS64_N32, 0 },
	{ "mips", EM_MIPS, 0, "LINUX_2.6", "__vdso_", TIME32_FUNCS | TIME64_FUNCS, 0, mips_nr, 0, 0, 0 },
	{ "loongarch64", EM_LOONGARCH, 1, "LINUX_5.10", "__vdso_",
	  TIME32_FUNCS | GETCPU | GETRANDOM, 0, generic_nr, 0, 0, 0 },
	/* sparc's own vDSO (arch/sparc/vdso): two calls, also exported
	 * unprefixed and as *_stick variants the kernel patches in on CPUs
	 * with %stick. The 32-bit one is the compat vdso32, built v8plus. */
	{ "sparc64", EM_SPARCV9, 1, "LINUX_2.6", "__vdso_", SPARC_FUNCS, 0, sparc64_nr, 0, 0, 0 },
	{ "sparc", EM_SPARC32PLUS, 0, "LINUX_2.6", "__vdso_", SPARC_FUNCS, 0, sparc_nr, 0, 0, 0 },
};

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

/* SPDX-License-Identifier: MIT */
/*
 * <elf.h>, with the machines and flags vdsokit names that an older libc's
 * header lacks (musl's, glibc's before LoongArch): one place for them.
 */
#ifndef VK_ELF_IDS_H
#define VK_ELF_IDS_H

#include <elf.h>

#ifndef EM_RISCV
#define EM_RISCV 243
#endif
#ifndef EM_CSKY
#define EM_CSKY 252
#endif
#ifndef EM_LOONGARCH
#define EM_LOONGARCH 258
#endif
#ifndef EF_MIPS_ABI2
#define EF_MIPS_ABI2 0x20
#endif

#endif

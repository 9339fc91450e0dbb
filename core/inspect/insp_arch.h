/* SPDX-License-Identifier: MIT */
/*
 * What inspect knows of each arch's code, one row per arch: the
 * disassembler's triple and the instructions that matter, as LLVM prints
 * them. Nothing else in core/inspect names an arch.
 */
#ifndef VK_INSP_ARCH_H
#define VK_INSP_ARCH_H

#include <stddef.h>

/* An instruction by its mnemonic, and text its operands must (has) and
 * must not (hasnt) contain, or begin with where it starts with ^; NULL
 * for no condition. A list ends at a row
 * with no mnemonic. */
struct vk_insp_pat {
	const char *mnem;
	const char *has;
	const char *hasnt;
	const char *what;	/* indirect: register, memory...; frame: "-" where
				 * the adjustment is written negative */
};

/* Whether an arch's vDSO promises an FDE for each exported function, and
 * an .eh_frame_hdr: the unwind check SKIPs, with the reason, where not. */
struct vk_insp_unwind {
	int fdes, hdr;		/* an FDE for every exported function; the header */
	const char *why;	/* why not, with the kernel change that says so */
	const char *promised[4];	/* where not every one: those that have one */
};

#define VK_INSP_PATS 12

struct vk_insp_arch {
	const char *arch;	/* core/base/arch.c's name */
	int big_endian;		/* -1: the row is either byte order's */
	const char *triple;	/* LLVM's */
	const char *target;	/* LLVM's target, to initialise: "X86" */
	size_t step;		/* bytes to skip past an undecodable one */
	const char *sp;		/* the stack pointer as printed */
	const char *prefix[8];	/* printed as a word before the mnemonic */
	struct vk_insp_pat ret[3];
	struct vk_insp_pat syscall[VK_INSP_PATS];
	struct vk_insp_pat barrier[VK_INSP_PATS];
	struct vk_insp_pat counter[VK_INSP_PATS];
	struct vk_insp_pat indirect[VK_INSP_PATS];
	struct vk_insp_pat call[VK_INSP_PATS];	/* direct calls and jumps */
	struct vk_insp_pat frame[VK_INSP_PATS];	/* stack pointer decrements */
	struct vk_insp_pat probe[VK_INSP_PATS];
	/* x86's inline retpoline: pause then lfence in a function. */
	const char *retpoline[2];
	/* The ids of GNU_PROPERTY_*_FEATURE_1_AND and the landing pad every
	 * exported function must begin with when the image claims it. */
	unsigned property;
	struct { unsigned bit; const char *name; struct vk_insp_pat pad[3]; } feature[2];
	struct vk_insp_unwind unwind;
	/* A function whose ABI is to call its caller's function: its
	 * indirect calls are listed, and noted with why, never a failure. */
	struct { const char *name, *why; } calls_back[2];
	const char *cpu, *features;	/* LLVM's, where its defaults lack some */
	const char *thumb;	/* arm: the triple of functions whose address has bit 0 set */
};

const struct vk_insp_arch *vk_insp_arch_find(const char *arch, int big_endian);
/* Whether mnem and ops match p; p's list is searched by vk_insp_match. */
const struct vk_insp_pat *vk_insp_match(const struct vk_insp_pat *list, const char *mnem,
					const char *ops);

#endif /* VK_INSP_ARCH_H */

/* SPDX-License-Identifier: MIT */
/*
 * What inspect finds in an image (core/inspect/inspect.h reads it): its
 * functions, its checks, and two images' functions side by side.
 */
#ifndef VK_INSP_MODEL_H
#define VK_INSP_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "core/base/sysinfo.h"

/* What a function's instructions are counted and listed by. */
enum vk_insp_kind {
	VK_INSP_INDIRECT,	/* an indirect call or jump, or a retpoline */
	VK_INSP_CALL,		/* a direct call or jump out of the function */
	VK_INSP_SYSCALL,
	VK_INSP_BARRIER,
	VK_INSP_COUNTER,	/* a read of the arch's time counter */
	VK_INSP_PROBE,		/* a stack probe (-fstack-check, stack clash) */
	VK_INSP_NKINDS
};

/* The sites of each kind a function lists; more are only counted. */
#define VK_INSP_SITES 8
#define VK_INSP_MAX_FUNCS 64

struct vk_insp_site {
	uint64_t addr;
	char text[64];		/* the instruction as the disassembler prints it */
	char what[64];		/* indirect: register, memory, retpoline, return
				 * thunk; a call: its target's name or address */
};

struct vk_insp_func {
	char name[64];
	char version[32];	/* "" if unversioned */
	uint64_t addr, size;
	int size_guessed;	/* st_size was 0: up to the next symbol */
	size_t insns;
	size_t undecoded;	/* places LLVM could not decode, skipped by the arch's step */
	uint64_t frame;		/* the largest stack pointer decrement by one instruction */
	size_t count[VK_INSP_NKINDS];
	struct vk_insp_site site[VK_INSP_NKINDS][VK_INSP_SITES];
	/* The barriers and counter reads by mnemonic, in order of first use:
	 * "lfence x2, rdtsc x2"; A/B compares these. */
	char fences[96];
	/* Its first instruction: a landing pad where the image claims BTI or IBT. */
	char first_mnem[24], first_ops[48];
};

enum vk_insp_status { VK_INSP_PASS, VK_INSP_FAIL, VK_INSP_SKIP };

/* The whole-image checks, in the order they print. */
enum vk_insp_check_id {
	VK_CHK_RELOCS, VK_CHK_UNDEF, VK_CHK_WX, VK_CHK_STACK_EXEC, VK_CHK_FDES,
	VK_CHK_EH_FRAME_HDR, VK_CHK_INDIRECT, VK_CHK_PROBES, VK_CHK_PROPERTY,
	VK_INSP_NCHECKS
};

struct vk_insp_check {
	const char *name;	/* "no-dynamic-relocations" */
	enum vk_insp_status status;
	char detail[256];	/* what was found; a SKIP's reason */
};


struct vk_inspect {
	const char *source;	/* the image's path or AT_SYSINFO_EHDR */
	const char *arch;	/* vk_arch's name */
	const char *triple;	/* the disassembler's */
	size_t nfuncs;
	struct vk_insp_func *funcs;	/* malloc()ed */
	size_t more_funcs;	/* past VK_INSP_MAX_FUNCS, not read */
	struct vk_insp_check check[VK_INSP_NCHECKS];
	size_t fails, skips;
	char err[256];		/* why vk_inspect() failed */
};

/* One function of B against A, by name: either may be absent (-1). */
struct vk_insp_diff_row {
	const char *name;
	long a, b;		/* indexes into each side's funcs */
	int changed;		/* size, frame, fences, indirect or syscalls differ */
};

struct vk_insp_diff {
	size_t n, changed;
	struct vk_insp_diff_row *rows;	/* malloc()ed */
};

/* inspect's document: one image, or B against A (n 2, with diff). */
struct vk_inspect_report {
	const char *version;		/* vdsokit's */
	const struct vk_sysinfo *sys;
	size_t n;
	const struct vk_inspect *img[2];
	const struct vk_insp_diff *diff;	/* NULL for one image */
};

#endif /* VK_INSP_MODEL_H */

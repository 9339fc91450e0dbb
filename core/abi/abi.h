/* SPDX-License-Identifier: MIT */
/*
 * abi: each API on each path with hostile arguments, every case in its
 * own child under a watchdog, its outcome (return value, errno, signal
 * with si_code and fault address, and which bytes it wrote, found with
 * canaries) compared with the raw syscall's and classified:
 *   identical   the same outcome
 *   allowed     a divergence the vDSO's documented ABI permits (named)
 *   unexpected  any other divergence: a failure
 */
#ifndef VK_ABI_H
#define VK_ABI_H

#include "core/base/api.h"
#include "core/call/call.h"
#include "core/result/result.h"

/* Where a pointer argument points. */
enum vk_ptr {
	VK_PTR_VALID,		/* an object with canaries around it */
	VK_PTR_NULL,
	VK_PTR_UNMAPPED,
	VK_PTR_PROT_NONE,
	VK_PTR_READONLY,
	VK_PTR_VDSO,		/* the vDSO's own text */
	VK_PTR_VVAR,		/* the vDSO's data page */
	VK_PTR_STRADDLE,	/* an object that runs into an unmapped page */
	VK_PTR_MISALIGNED,
	VK_PTR_KERNEL,		/* the kernel's half of the address space */
	VK_PTR_MAX,		/* UINTPTR_MAX */
	VK_NPTRS
};

/* One case: the function's arguments, pointers by kind. */
struct vk_abi_case {
	enum vk_func func;
	int clock;
	char clock_name[24];	/* "monotonic", "id:-16", "fd:closed" */
	char args[64];		/* "ts:valid", "tv:NULL,tz:unmapped" */
	enum vk_ptr ptr[3];	/* the shape's pointers, in argument order */
	size_t len;		/* getrandom */
	unsigned flags;		/* getrandom */
	enum vk_ptr state;	/* getrandom: VK_PTR_VALID for a proper state */
	long state_len_delta;	/* getrandom: added to the queried size */
	int sys_errno;		/* with vk_abi.judge_syscall: the errno the syscall
				 * must fail with, 0 if it must succeed */
};

struct vk_abi {
	const struct vk_callset *cs;
	struct vk_results *rs;
	unsigned paths;
	double timeout;		/* per case */
	int judge_syscall;	/* also a result per case for the syscall itself,
				 * against the case's sys_errno */
};

/* Every case for a function; returns how many were written (<= max). */
size_t vk_abi_cases(enum vk_func f, struct vk_abi_case *cases, size_t max);
/*
 * vdsotest's own abi cases for one API, which it names by description
 * (args holds "passing NULL to clock_gettime", "getcpu(NULL, valid,
 * valid)") and expects of the syscall (sys_errno): 0 for an API vdsotest
 * does not have. Its getcpu and gettimeofday cases are every combination
 * of valid, NULL, UINTPTR_MAX, a PROT_NONE and a read-only page.
 */
size_t vk_abi_vdsotest_cases(const struct vk_api *api, struct vk_abi_case *cases, size_t max);
int vk_abi_init(void);
/* Run n cases of one function on every path under test. */
void vk_abi_run(struct vk_abi *a, const struct vk_abi_case *c, size_t n);
const char *vk_ptr_name(enum vk_ptr p);
/* Where a pointer of that kind points (after vk_abi_init()). */
void *vk_abi_ptr(enum vk_ptr kind);
/* The cases of a futex unlock (VK_SHAPE_FUTEX_UNLOCK) on every path
 * under test, held to include/vdso/futex.h's contract (abi_futex.c). */
void vk_abi_futex(struct vk_abi *a, enum vk_func f);

#endif /* VK_ABI_H */

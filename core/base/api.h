/* SPDX-License-Identifier: MIT */
/*
 * The API table: every call vdsokit knows, one row each. A row names the
 * vDSO function that serves it and, for clock calls, the clock id; the
 * function's facts are its row of core/base/apis.def (doc/apis-adding.md).
 * Its rows are made of apis.def's, one per named clock (core/base/api.c's
 * VK_CLOCKS) for a function of a clock: adding a function is adding a row
 * there.
 */
#ifndef VK_API_H
#define VK_API_H

#include <stddef.h>

#include "core/base/arch.h"

/* The argument shape, which decides how a call is made and compared. */
enum vk_shape {
	VK_SHAPE_CLOCK_TS,	/* (clockid_t, struct timespec *) */
	VK_SHAPE_TV_TZ,		/* (struct timeval *, struct timezone *) */
	VK_SHAPE_TIME,		/* (time_t *) */
	VK_SHAPE_GETCPU,	/* (unsigned *cpu, unsigned *node, void *cache) */
	VK_SHAPE_GETRANDOM,	/* (buf, len, flags, state, state_len) */
	VK_SHAPE_FUTEX_UNLOCK,	/* (u32 *lock, u32 tid, u64 or u32 *list_op_pending) */
};

/*
 * What a function is checked as: the family of verify's checks, abi's
 * cases and bench's loop it gets, each folder's table by kind (a
 * clock_gettime and a clock_getres share a shape, not their checks).
 */
enum vk_kind {
	VK_KIND_GETTIME,
	VK_KIND_GETRES,
	VK_KIND_TOD,
	VK_KIND_TIME,
	VK_KIND_GETCPU,
	VK_KIND_GETRANDOM,
	VK_KIND_FUTEX_UNLOCK,
	VK_NKINDS
};

/* A row of core/base/apis.def, whose columns say what each field is. */
struct vk_func_info {
	const char *name;	/* after the arch prefix: "clock_gettime" */
	const char *api;	/* its API's name, or its clock APIs' prefix */
	const char *libc;	/* the libc function that wraps it, or NULL */
	const char *syscall;	/* its syscall twin, or NULL */
	long sysno;		/* that syscall's number on this build, -1: none */
	enum vk_shape shape;
	enum vk_kind kind;
	int time64;		/* exists on 32-bit ABIs only */
	unsigned libc_nonnull;	/* bit k: libc declares pointer k __nonnull */
	long vsyscall;		/* its offset in x86_64's vsyscall page, -1: none */
	const char *absent;	/* what a vDSO without it means for a libc */
};

struct vk_api {
	const char *name;	/* vdsotest-style: "clock-gettime-monotonic" */
	enum vk_func func;
	int clock;		/* clock id for VK_SHAPE_CLOCK_TS, else -1 */
};

extern const struct vk_func_info vk_funcs[VK_NALLFUNCS];
/* The first vk_napis rows are the functions below VK_NFUNCS, which every
 * command calls; list-apis lists all vk_nlisted. */
extern const struct vk_api vk_apis[];
extern const size_t vk_napis, vk_nlisted;

#define for_each_api(a) for (const struct vk_api *a = vk_apis; a < vk_apis + vk_napis; a++)
#define for_each_listed_api(a)                                                  \
	for (const struct vk_api *a = vk_apis; a < vk_apis + vk_nlisted; a++)

const struct vk_api *vk_api_find(const char *name);
/* Whether the API exists for an ABI of that class (time64 only on 32-bit). */
int vk_api_applies(const struct vk_api *api, int is64);
const char *vk_clock_name(int clock);
/* Whether f's arguments or return carry a time_t (a 32-bit ABI's 2038). */
int vk_func_has_time(enum vk_func f);
/* Whether f is a time32 entry of a's: a 32-bit time_t ABI's (not x32's)
 * clock_gettime, clock_getres, gettimeofday or time, which a kernel
 * without CONFIG_COMPAT_32BIT_TIME leaves out of its vDSO (Linux 7.3+). */
int vk_func_time32(const struct vk_arch *a, enum vk_func f);
/* a's syscall numbers, vk_funcs' for the host's row; NULL if not known. */
const long *vk_arch_sysno(const struct vk_arch *a);

#endif /* VK_API_H */

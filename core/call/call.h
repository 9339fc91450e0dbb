/* SPDX-License-Identifier: MIT */
/*
 * Calling the API's functions through every path: the raw syscall, libc,
 * the kernel's vDSO, and an alternative implementation loaded with --impl.
 * Every path is a function with the vDSO's own prototype and its
 * convention: 0 or a count on success, -errno on failure. The syscall and
 * libc paths are thin wrappers that translate to that convention, so a
 * caller compares paths without knowing which one it holds.
 */
#ifndef VK_CALL_H
#define VK_CALL_H

#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>

#include "core/image/image.h"

/* In the order reports list them: the kernel's vDSO first. vsyscall is
 * x86_64's legacy page (core/call/vsyscall.h). */
enum vk_path {
	VK_PATH_VDSO,
	VK_PATH_LIBC,
	VK_PATH_IMPL,
	VK_PATH_VSYSCALL,
	VK_PATH_SYSCALL,
	VK_NPATHS
};

#define VK_PATH_BIT(p) (1u << (p))

/* The kernel's long (__kernel_long_t): 64-bit on x32, where C's long is
 * 32-bit. Spelled here, as musl's headers have no <asm/posix_types.h>. */
#if defined(__x86_64__) && defined(__ILP32__)
typedef long long vk_klong;
#else
typedef long vk_klong;
#endif
/* Whether the ABI's own time_t is 32-bit, with the time64 calls beside
 * it: true on i386, arm, ppc32, mips o32 and n32; false on x32. */
#define VK_TIME32_ABI (sizeof(vk_klong) == 4)

/* The kernel's structures, whatever libc's time_t is. */
struct vk_kts {			/* __kernel_old_timespec: the ABI's native one */
	vk_klong sec;
	vk_klong nsec;
};

struct vk_kts64 {		/* __kernel_timespec, taken by the time64 calls */
	int64_t sec;
	int64_t nsec;
};

struct vk_ktv {			/* __kernel_old_timeval */
	vk_klong sec;
#if defined(__sparc__) && defined(__arch64__)
	int usec;		/* sparc64's __kernel_suseconds_t, as glibc's */
#else
	vk_klong usec;
#endif
};

typedef int (*vk_clock_fn)(clockid_t clock, void *ts);
typedef int (*vk_tod_fn)(void *tv, void *tz);
typedef vk_klong (*vk_time_fn)(vk_klong *t);
typedef int (*vk_getcpu_fn)(unsigned *cpu, unsigned *node, void *cache);
typedef ssize_t (*vk_getrandom_fn)(void *buf, size_t len, unsigned flags, void *state,
				   size_t state_len);

union vk_fn {
	void *p;
	vk_clock_fn clock;
	vk_tod_fn tod;
	vk_time_fn time;
	vk_getcpu_fn getcpu;
	vk_getrandom_fn getrandom;
};

/*
 * getrandom's opaque state, got the documented way: the query call
 * (state_len ~0UL) fills vgetrandom_opaque_params, and a page is mmap()ed
 * with the protection and flags they name. 0 with *state and *len set,
 * or -1 with both untouched.
 */
int vk_getrandom_state(vk_getrandom_fn fn, void **state, size_t *len);

/* Why a vDSO path's function is NULL where the image lacks its symbol. */
#define VK_WHY_NOT_EXPORTED "the vDSO does not export it"
/* Why the syscall path's time32 clock calls are NULL where the kernel
 * refuses them (vk_time32_missing). */
#define VK_WHY_NO_TIME32 "the kernel has no time32 syscalls (CONFIG_COMPAT_32BIT_TIME is off)"

/*
 * Each function on each path, or NULL with the reason it is missing. The
 * impl path's are NULL until vk_callset_load(), in a child: why[] alone
 * says which the library exports. vdsokit's own process never loads the
 * library, so that none of its code, constructor included, runs there.
 */
struct vk_callset {
	union vk_fn fn[VK_NPATHS][VK_NALLFUNCS];
	const char *why[VK_NPATHS][VK_NALLFUNCS];
	int vdso_nulled;	/* the vDSO's nameless functions (vk_elf_nulled) */
	const char *impl_path;	/* --impl's path, or NULL */
	unsigned impl_funcs;	/* the functions it exports, a VK_FN_BIT() each */
};

/* Whether path p has function f (the impl path's once loaded). */
static inline int vk_callset_has(const struct vk_callset *cs, enum vk_path p, enum vk_func f)
{
	return !cs->why[p][f];
}

/* Why path p's f cannot be checked against the syscall, which is missing. */
static inline const char *vk_no_reference(const struct vk_callset *cs, enum vk_func f)
{
	const char *why = cs->why[VK_PATH_SYSCALL][f];

	if (why && !strcmp(why, VK_WHY_NO_TIME32))
		return "no syscall to compare with: " VK_WHY_NO_TIME32;
	return "no syscall to compare with on this ABI";
}

/*
 * Fill the set from the live image (NULL: no vDSO) and an --impl path,
 * which is probed (vk_impl_probe) but not loaded here: the path is kept,
 * and must live as long as the set.
 */
int vk_callset_init(struct vk_callset *cs, const struct vk_image *im, const char *impl,
		    char *err, size_t len);
/*
 * In a child that calls the impl path: load --impl there and fill in its
 * functions. What the constructor changed that can be put back, the
 * signal mask and dispositions and the resource limits, is put back, so
 * that the child still runs and reports as vdsokit's; the library is
 * never closed, as threads its constructor started may be running its
 * code. A library that no longer loads, or loads other functions than
 * its probe found, ends the child with status VK_IMPL_UNLOADED.
 */
#define VK_IMPL_UNLOADED 127
void vk_callset_load(struct vk_callset *cs);
/* In a child that calls the paths in the mask: cs, or where they include
 * the impl path, a copy of it in *mine with the library loaded. */
const struct vk_callset *vk_callset_child(const struct vk_callset *cs, unsigned paths,
					  struct vk_callset *mine);
/*
 * Load the library at path in a child, under a watchdog of
 * vk_impl_load_timeout() s: 0 and the functions it exports in *funcs (a
 * VK_FN_BIT() each) if it loads there, else -1 and why in err ("PATH: an
 * ELF for aarch64, this vdsokit is x86_64", "PATH: its constructor was
 * killed by SIGSEGV", "PATH: its constructor unmapped the vDSO").
 */
#define VK_IMPL_LOAD_TIMEOUT 10.0
/* VK_IMPL_LOAD_TIMEOUT, or less where VDSOKIT_IMPL_LOAD_TIMEOUT says so:
 * a test hook, so that a hanging constructor costs the tests less. */
double vk_impl_load_timeout(void);
int vk_impl_probe(const char *path, unsigned *funcs, char *err, size_t len);
/*
 * A copy of the library at path, in a memfd named by "/proc/self/fd/N" in
 * name: loaded from there, it is another object than path's, at other
 * addresses and on other pages. The fd, to close after the copy's
 * dlclose(), or -1.
 */
int vk_impl_copy(const char *path, char *name, size_t len);

const char *vk_path_name(enum vk_path p);
/* Parse "vdso,libc,syscall,impl,vsyscall" into a mask of VK_PATH_BIT()s. */
int vk_paths_parse(const char *list, unsigned *mask);

/*
 * One plain call of fn, function f: every pointer valid and, for
 * getrandom, 16 bytes with flags and the state given. Its return.
 */
long vk_call_plain(union vk_fn fn, enum vk_func f, int clock, unsigned flags, void *state,
		   size_t state_len);

/* Whether a return value is the -errno of a failed call. */
static inline int vk_is_err(long ret)
{
	return ret < 0 && ret >= -4095;
}

#endif /* VK_CALL_H */

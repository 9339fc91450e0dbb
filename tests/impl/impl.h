/* SPDX-License-Identifier: MIT */
/*
 * A correct implementation of the vDSO's functions for `vdsokit verify
 * --impl`, built on the raw syscalls and in the vDSO's convention: 0 (a
 * count for getrandom, the time for time) on success, -errno on failure,
 * and errno left alone, as the vDSO never touches it.
 *
 * Each function sits under #ifndef IMPL_OWN_<NAME>, so a planted bug
 * defines IMPL_OWN_<NAME>, includes this file and then defines its own
 * version of that one function; the helpers below are there for it. A
 * getrandom bug needs only its bytes: IMPL_GETRANDOM_BYTES.
 */
#ifndef VK_IMPL_H
#define VK_IMPL_H

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* The kernel's structures, whatever libc's time_t is. */
struct impl_kts {		/* __kernel_old_timespec */
	long sec;
	long nsec;
};

struct impl_kts64 {		/* __kernel_timespec */
	int64_t sec;
	int64_t nsec;
};

struct impl_ktv {		/* __kernel_old_timeval */
	long sec;
	long usec;
};

/* What the vDSO's getrandom() reports when asked how to allocate state. */
struct vgetrandom_opaque_params {
	uint32_t size_of_opaque_state;
	uint32_t mmap_prot;
	uint32_t mmap_flags;
	uint32_t reserved[13];
};

#define IMPL_NSEC_PER_SEC 1000000000L
#define IMPL_STATE_SIZE 64	/* the per-thread state we ask for, never used */

#if __SIZEOF_LONG__ == 4 && defined(SYS_clock_gettime64)
#define IMPL_TIME64 1		/* a 32-bit ABI: it has the time64 entries too */
#endif

/* Declared whether or not a bug overrides them: its version must match. */
int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts);
int __vdso_clock_getres(clockid_t clock, struct impl_kts *res);
int __vdso_gettimeofday(struct impl_ktv *tv, void *tz);
long __vdso_time(long *t);
int __vdso_getcpu(unsigned *cpu, unsigned *node, void *cache);
ssize_t __vdso_getrandom(void *buf, size_t len, unsigned flags, void *state,
			 size_t state_len);
#ifdef IMPL_TIME64
int __vdso_clock_gettime64(clockid_t clock, struct impl_kts64 *ts);
int __vdso_clock_getres_time64(clockid_t clock, struct impl_kts64 *res);
#endif

/*
 * syscall(2) in the vDSO's convention. Every argument is a long or a
 * pointer, which are the same size on Linux, so one helper fits all.
 */
static inline long impl_syscall(long nr, long a, long b, long c)
{
	int saved = errno;
	long r = syscall(nr, a, b, c);

	if (r == -1) {
		r = -errno;
		errno = saved;
	}
	return r;
}

/* Whether a return value is a -errno rather than a time or a count. */
static inline int impl_is_err(long r)
{
	return r < 0 && r >= -4095;
}

static inline int impl_sys_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	return impl_syscall(SYS_clock_gettime, clock, (long)ts, 0);
}

static inline int impl_sys_clock_getres(clockid_t clock, struct impl_kts *res)
{
	return impl_syscall(SYS_clock_getres, clock, (long)res, 0);
}

static inline int impl_sys_gettimeofday(struct impl_ktv *tv, void *tz)
{
	return impl_syscall(SYS_gettimeofday, (long)tv, (long)tz, 0);
}

/* An ABI without time() (arm64, riscv) serves it from CLOCK_REALTIME. */
static inline long impl_sys_time(long *t)
{
#ifdef SYS_time
	return impl_syscall(SYS_time, (long)t, 0, 0);
#else
	struct impl_kts ts;
	long r = impl_sys_clock_gettime(CLOCK_REALTIME, &ts);

	if (r)
		return r;
	if (t)
		*t = ts.sec;
	return ts.sec;
#endif
}

static inline int impl_sys_getcpu(unsigned *cpu, unsigned *node, void *cache)
{
	return impl_syscall(SYS_getcpu, (long)cpu, (long)node, (long)cache);
}

static inline ssize_t impl_sys_getrandom(void *buf, size_t len, unsigned flags)
{
	return impl_syscall(SYS_getrandom, (long)buf, (long)len, flags);
}

/* Add ns (either sign, under a second) to a valid timespec, keeping it valid. */
static inline void impl_ts_add_ns(struct impl_kts *ts, long ns)
{
	ts->nsec += ns;
	if (ts->nsec >= IMPL_NSEC_PER_SEC) {
		ts->nsec -= IMPL_NSEC_PER_SEC;
		ts->sec++;
	} else if (ts->nsec < 0) {
		ts->nsec += IMPL_NSEC_PER_SEC;
		ts->sec--;
	}
}

/*
 * What the vDSO's getrandom() does before it makes any bytes: answers the
 * query (no buffer, no flags, state_len ~0UL, params in state) and
 * refuses a state that straddles a page, as the kernel may zero a page
 * of it at any time. Returns 1, with *ret set, when it did either.
 */
static inline int impl_getrandom_state(void *buf, size_t len, unsigned flags, void *state,
				       size_t state_len, ssize_t *ret)
{
	struct vgetrandom_opaque_params *p = state;
	unsigned long page = sysconf(_SC_PAGESIZE);

	if (state_len == ~0UL && !buf && !len && !flags) {
		if (!p) {
			*ret = -EFAULT;
			return 1;
		}
		memset(p, 0, sizeof(*p));
		p->size_of_opaque_state = IMPL_STATE_SIZE;
		p->mmap_prot = PROT_READ | PROT_WRITE;
		p->mmap_flags = MAP_PRIVATE | MAP_ANONYMOUS;
		*ret = 0;
		return 1;
	}
	if ((unsigned long)state % page + IMPL_STATE_SIZE > page) {
		*ret = -EFAULT;
		return 1;
	}
	return 0;
}

#ifndef IMPL_OWN_CLOCK_GETTIME
int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	return impl_sys_clock_gettime(clock, ts);
}
#endif

#ifndef IMPL_OWN_CLOCK_GETRES
int __vdso_clock_getres(clockid_t clock, struct impl_kts *res)
{
	return impl_sys_clock_getres(clock, res);
}
#endif

#ifndef IMPL_OWN_GETTIMEOFDAY
int __vdso_gettimeofday(struct impl_ktv *tv, void *tz)
{
	return impl_sys_gettimeofday(tv, tz);
}
#endif

#ifndef IMPL_OWN_TIME
long __vdso_time(long *t)
{
	return impl_sys_time(t);
}
#endif

#ifndef IMPL_OWN_GETCPU
int __vdso_getcpu(unsigned *cpu, unsigned *node, void *cache)
{
	return impl_sys_getcpu(cpu, node, cache);
}
#endif

/*
 * The state is checked as the vDSO checks it; then the bytes are the
 * kernel's, or, where a planted bug defines IMPL_GETRANDOM_BYTES, what its
 * impl_getrandom_bytes() makes of the call.
 */
#ifdef IMPL_GETRANDOM_BYTES
static ssize_t impl_getrandom_bytes(void *buf, size_t len, unsigned flags);
#endif

#ifndef IMPL_OWN_GETRANDOM
ssize_t __vdso_getrandom(void *buf, size_t len, unsigned flags, void *state,
			 size_t state_len)
{
	ssize_t r;

	if (impl_getrandom_state(buf, len, flags, state, state_len, &r))
		return r;
#ifdef IMPL_GETRANDOM_BYTES
	return impl_getrandom_bytes(buf, len, flags);
#else
	return impl_sys_getrandom(buf, len, flags);
#endif
}
#endif

#ifdef IMPL_TIME64
#ifndef IMPL_OWN_CLOCK_GETTIME64
int __vdso_clock_gettime64(clockid_t clock, struct impl_kts64 *ts)
{
	return impl_syscall(SYS_clock_gettime64, clock, (long)ts, 0);
}
#endif

#ifndef IMPL_OWN_CLOCK_GETRES_TIME64
int __vdso_clock_getres_time64(clockid_t clock, struct impl_kts64 *res)
{
	return impl_syscall(SYS_clock_getres_time64, clock, (long)res, 0);
}
#endif
#endif /* IMPL_TIME64 */

#endif /* VK_IMPL_H */

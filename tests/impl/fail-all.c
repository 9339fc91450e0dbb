// SPDX-License-Identifier: MIT
/* Caught by: every command, none of whose verdicts may come from a call
 * that failed. Every call fails at once with -EINVAL and writes nothing
 * (getrandom's state query alone answers, so that its draws are made):
 * no rule may pass on what it never read, and under valgrind none may
 * read what the call left unwritten (tests/cases/fail_all.sh). */
#define IMPL_OWN_CLOCK_GETTIME
#define IMPL_OWN_CLOCK_GETRES
#define IMPL_OWN_GETTIMEOFDAY
#define IMPL_OWN_TIME
#define IMPL_OWN_GETCPU
#define IMPL_OWN_CLOCK_GETTIME64
#define IMPL_OWN_CLOCK_GETRES_TIME64
#define IMPL_GETRANDOM_BYTES
#include "impl.h"

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	(void)clock;
	(void)ts;
	return -EINVAL;
}

int __vdso_clock_getres(clockid_t clock, struct impl_kts *res)
{
	(void)clock;
	(void)res;
	return -EINVAL;
}

int __vdso_gettimeofday(struct impl_ktv *tv, void *tz)
{
	(void)tv;
	(void)tz;
	return -EINVAL;
}

long __vdso_time(long *t)
{
	(void)t;
	return -EINVAL;
}

int __vdso_getcpu(unsigned *cpu, unsigned *node, void *cache)
{
	(void)cpu;
	(void)node;
	(void)cache;
	return -EINVAL;
}

static ssize_t impl_getrandom_bytes(void *buf, size_t len, unsigned flags)
{
	(void)buf;
	(void)len;
	(void)flags;
	return -EINVAL;
}

#ifdef IMPL_TIME64
int __vdso_clock_gettime64(clockid_t clock, struct impl_kts64 *ts)
{
	(void)clock;
	(void)ts;
	return -EINVAL;
}

int __vdso_clock_getres_time64(clockid_t clock, struct impl_kts64 *res)
{
	(void)clock;
	(void)res;
	return -EINVAL;
}
#endif

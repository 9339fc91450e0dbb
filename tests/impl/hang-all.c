// SPDX-License-Identifier: MIT
/*
 * Every function loops forever: whatever runs it must end it, on its
 * watchdog, on a signal or on its own exit, and leave no spinning orphan.
 */
#define IMPL_OWN_CLOCK_GETTIME
#define IMPL_OWN_CLOCK_GETRES
#define IMPL_OWN_GETTIMEOFDAY
#define IMPL_OWN_TIME
#define IMPL_OWN_GETCPU
#define IMPL_OWN_GETRANDOM
#define IMPL_OWN_CLOCK_GETTIME64
#define IMPL_OWN_CLOCK_GETRES_TIME64
#include "impl.h"

static void spin(void)
{
	for (;;)
		__asm__ volatile("" ::: "memory");
}

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	(void)clock;
	(void)ts;
	spin();
	return 0;
}

int __vdso_clock_getres(clockid_t clock, struct impl_kts *res)
{
	(void)clock;
	(void)res;
	spin();
	return 0;
}

int __vdso_gettimeofday(struct impl_ktv *tv, void *tz)
{
	(void)tv;
	(void)tz;
	spin();
	return 0;
}

long __vdso_time(long *t)
{
	(void)t;
	spin();
	return 0;
}

int __vdso_getcpu(unsigned *cpu, unsigned *node, void *cache)
{
	(void)cpu;
	(void)node;
	(void)cache;
	spin();
	return 0;
}

ssize_t __vdso_getrandom(void *buf, size_t len, unsigned flags, void *state,
			 size_t state_len)
{
	(void)buf;
	(void)len;
	(void)flags;
	(void)state;
	(void)state_len;
	spin();
	return 0;
}

#ifdef IMPL_TIME64
int __vdso_clock_gettime64(clockid_t clock, struct impl_kts64 *ts)
{
	(void)clock;
	(void)ts;
	spin();
	return 0;
}

int __vdso_clock_getres_time64(clockid_t clock, struct impl_kts64 *res)
{
	(void)clock;
	(void)res;
	spin();
	return 0;
}
#endif

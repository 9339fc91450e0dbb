// SPDX-License-Identifier: MIT
/*
 * For fallback: CLOCK_REALTIME read through adjtimex(), a syscall that
 * is not clock_gettime's. A call that enters the kernel by any syscall
 * has not stayed in userspace; fallback must name it.
 */
#include <sys/timex.h>

#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	struct timex tx = { 0 };

	if (clock != CLOCK_REALTIME)
		return impl_sys_clock_gettime(clock, ts);
	if (syscall(SYS_adjtimex, &tx) < 0)
		return -errno;
	ts->sec = tx.time.tv_sec;
	ts->nsec = tx.status & STA_NANO ? tx.time.tv_usec : tx.time.tv_usec * 1000;
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * A first call that faults after mlockall(): clock_gettime reads its
 * data from a page that is not mapped in until then, as a vDSO whose
 * data mlockall() does not prefault would (the page is unlocked and
 * dropped first, since MCL_FUTURE would have mapped it in). The mlockall
 * rule counts the fault: a SKIP that names it on kernels before 7.3, a
 * failure from 7.3 on.
 */
#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

static volatile unsigned char data[1 << 16] __attribute__((aligned(1 << 16)));
static int called;

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	if (!called) {
		void *page = (void *)data;
		size_t len = (size_t)sysconf(_SC_PAGESIZE);

		called = 1;
		munlock(page, len);
		madvise(page, len, MADV_DONTNEED);
		data[0] = 1;
	}
	return impl_sys_clock_gettime(clock, ts);
}

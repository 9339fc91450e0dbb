// SPDX-License-Identifier: MIT
/* Caught by abi: a NULL lock returns 0 where reading it must fault; the
 * vDSO's entries check no pointer, as a syscall's EFAULT has no place. */
#define IMPL_OWN_FUTEX_UNLOCK
#include "impl.h"
#include "futex.h"

static uint32_t impl_futex_unlock(uint32_t *lock, uint32_t tid, void *pop, size_t pop_size)
{
	uint32_t was = tid;

	if (!lock)
		return 0;
	if (__atomic_compare_exchange_n(lock, &was, 0, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		memset(pop, 0, pop_size);
	return was;
}

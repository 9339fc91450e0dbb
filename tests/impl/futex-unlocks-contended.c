// SPDX-License-Identifier: MIT
/* Caught by abi: FUTEX_WAITERS is masked off before the owner is
 * compared, so a contended lock is released with its waiters asleep. */
#define IMPL_OWN_FUTEX_UNLOCK
#include "impl.h"
#include "futex.h"

#define FUTEX_WAITERS 0x80000000u

static uint32_t impl_futex_unlock(uint32_t *lock, uint32_t tid, void *pop, size_t pop_size)
{
	uint32_t was = __atomic_load_n(lock, __ATOMIC_RELAXED);

	if ((was & ~FUTEX_WAITERS) == tid) {
		__atomic_store_n(lock, 0, __ATOMIC_RELEASE);
		memset(pop, 0, pop_size);
	}
	return was;
}

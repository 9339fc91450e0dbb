// SPDX-License-Identifier: MIT
/* Caught by abi: the unlock leaves list_op_pending set, so a robust list
 * walked at the thread's death would still name a lock it released. */
#define IMPL_OWN_FUTEX_UNLOCK
#include "impl.h"
#include "futex.h"

static uint32_t impl_futex_unlock(uint32_t *lock, uint32_t tid, void *pop, size_t pop_size)
{
	uint32_t was = tid;

	(void)pop;
	(void)pop_size;
	__atomic_compare_exchange_n(lock, &was, 0, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
	return was;
}

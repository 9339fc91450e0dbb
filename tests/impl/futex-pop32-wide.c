// SPDX-License-Identifier: MIT
/* Caught by abi: the 32-bit entry clears a 64-bit pending op, four bytes
 * past the compat task's pointer. */
#define IMPL_OWN_FUTEX32
#include "impl.h"
#include "futex.h"

uint32_t __vdso_futex_robust_list32_try_unlock(uint32_t *lock, uint32_t tid, uint32_t *pop)
{
	return impl_futex_unlock(lock, tid, pop, sizeof(uint64_t));
}

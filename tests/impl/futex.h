/* SPDX-License-Identifier: MIT */
/*
 * Correct robust futex unlocks (Linux 7.3's include/vdso/futex.h) for
 * `vdsokit abi --impl`: the one that returns what the lock held and, only
 * where that was the caller's tid, sets it to 0 and then the pending op
 * to NULL. The 64-bit entry clears a u64 pending op, the 32-bit one a
 * u32 (a compat task's pointer, which a 64-bit kernel exports too).
 *
 * A planted bug defines IMPL_OWN_FUTEX_UNLOCK and its own
 * impl_futex_unlock(), which both entries call, or IMPL_OWN_FUTEX32 and
 * its own 32-bit entry.
 */
#ifndef VK_IMPL_FUTEX_H
#define VK_IMPL_FUTEX_H

#include <stdint.h>
#include <string.h>

uint32_t __vdso_futex_robust_list64_try_unlock(uint32_t *lock, uint32_t tid, uint64_t *pop);
uint32_t __vdso_futex_robust_list32_try_unlock(uint32_t *lock, uint32_t tid, uint32_t *pop);
static uint32_t impl_futex_unlock(uint32_t *lock, uint32_t tid, void *pop, size_t pop_size);

#ifndef IMPL_OWN_FUTEX_UNLOCK
static uint32_t impl_futex_unlock(uint32_t *lock, uint32_t tid, void *pop, size_t pop_size)
{
	uint32_t was = tid;

	if (__atomic_compare_exchange_n(lock, &was, 0, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		memset(pop, 0, pop_size);
	return was;
}
#endif

#if __SIZEOF_POINTER__ == 8
uint32_t __vdso_futex_robust_list64_try_unlock(uint32_t *lock, uint32_t tid, uint64_t *pop)
{
	return impl_futex_unlock(lock, tid, pop, sizeof(*pop));
}
#endif

#ifndef IMPL_OWN_FUTEX32
uint32_t __vdso_futex_robust_list32_try_unlock(uint32_t *lock, uint32_t tid, uint32_t *pop)
{
	return impl_futex_unlock(lock, tid, pop, sizeof(*pop));
}
#endif

#endif /* VK_IMPL_FUTEX_H */

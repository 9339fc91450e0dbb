// SPDX-License-Identifier: MIT
/* Caught by: thread-states. A PRNG kept in the caller's state, seeded by
 * nothing: every fresh state draws the same bytes. */
#define IMPL_OWN_GETRANDOM
#include "impl.h"

ssize_t __vdso_getrandom(void *buf, size_t len, unsigned flags, void *state,
			 size_t state_len)
{
	uint64_t *s = state;
	unsigned char *p = buf;
	ssize_t r;

	if (impl_getrandom_state(buf, len, flags, state, state_len, &r))
		return r;
	if (flags || !s)
		return impl_sys_getrandom(buf, len, flags);
	for (size_t i = 0; i < len; i += 8) {
		uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		z ^= z >> 31;
		memcpy(p + i, &z, len - i < 8 ? len - i : 8);
	}
	return len;
}

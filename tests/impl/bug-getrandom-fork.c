// SPDX-License-Identifier: MIT
/* Caught by: fork. A userspace PRNG whose state a forked child inherits. */
#define IMPL_GETRANDOM_BYTES
#include "impl.h"

/* splitmix64: each call moves the state on, so only fork repeats it. */
static uint64_t next(void)
{
	static uint64_t state = 0x5eed;
	uint64_t z = __atomic_add_fetch(&state, 0x9e3779b97f4a7c15ULL, __ATOMIC_RELAXED);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static ssize_t impl_getrandom_bytes(void *buf, size_t len, unsigned flags)
{
	unsigned char *p = buf;

	/* Flags go to the kernel, so that only the fork rule sees the bug. */
	if (flags)
		return impl_sys_getrandom(buf, len, flags);
	for (size_t i = 0; i < len; i += 8) {
		uint64_t x = next();
		size_t n = len - i < 8 ? len - i : 8;

		memcpy(p + i, &x, n);
	}
	return len;
}

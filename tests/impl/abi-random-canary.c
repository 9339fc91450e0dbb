// SPDX-License-Identifier: MIT
/*
 * Correct, and abi must classify it identical every time: getrandom
 * writes what the syscall would, except that some of its output equals
 * two of abi's canaries (0xa5, 0x5a) and one byte equals what the buffer held
 * before the call, as random output may. A byte compared with a canary
 * cannot tell such output from no write at all.
 */
#define IMPL_OWN_GETRANDOM
#include "impl.h"
#include <sys/uio.h>

/* Read one byte that may not be mapped, without faulting. */
static int peek(const unsigned char *p, unsigned char *b)
{
	struct iovec here = { b, 1 }, there = { (void *)p, 1 };

	return process_vm_readv(getpid(), &here, 1, &there, 1, 0) == 1;
}

ssize_t __vdso_getrandom(void *buf, size_t len, unsigned flags, void *state,
			 size_t state_len)
{
	unsigned char *out = buf, before = 0;
	int had;
	ssize_t r;

	if (impl_getrandom_state(buf, len, flags, state, state_len, &r))
		return r;
	had = len > 2 && peek(out + 2, &before);
	r = impl_sys_getrandom(buf, len, flags);
	if (r > 0)
		out[0] = 0xa5;
	if (r > 1)
		out[1] = 0x5a;
	if (r > 2 && had)
		out[2] = before;
	return r;
}

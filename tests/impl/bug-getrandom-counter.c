// SPDX-License-Identifier: MIT
/* Caught by: statistics. Its bytes are a 64-bit counter's, which still
 * differ from call to call. */
#define IMPL_GETRANDOM_BYTES
#include "impl.h"

static ssize_t impl_getrandom_bytes(void *buf, size_t len, unsigned flags)
{
	static uint64_t counter = 0x0123456789abcdefull;
	unsigned char *p = buf;
	ssize_t r;

	r = impl_sys_getrandom(buf, 0, flags);	/* the flags' errors */
	if (r < 0)
		return r;
	for (size_t i = 0; i < len; i += 8, counter++)
		memcpy(p + i, &counter, len - i < 8 ? len - i : 8);
	return len;
}

// SPDX-License-Identifier: MIT
/*
 * Makes strings from files and images safe to print, so that no byte in a
 * symbol or a kernel string can forge a KTAP line or drive the terminal
 * (safe.h).
 */
#include <stdio.h>
#include <string.h>

#include "core/base/json_read.h"
#include "core/base/safe.h"

#define RING 8	/* buffers: more than any one printf() of a reporter takes */

size_t vk_printable_len(const unsigned char *s)
{
	if (*s >= 0x20 && *s < 0x7f)
		return 1;
	/* U+0080-U+009F are C1 controls, escaped as C0's are. */
	if (*s == 0xc2 && s[1] < 0xa0)
		return 0;
	/* The NUL that ends s fails any continuation byte, so s + 4 is safe. */
	return vk_utf8_len(s, s + 4);
}

const char *vk_safe(const char *s)
{
	static char ring[RING][VK_SAFE_MAX + sizeof("...")];
	static unsigned next;
	char *out = ring[next++ % RING];
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0, k;

	if (!s)
		return "(null)";
	for (; *p; p += k ? k : 1) {
		k = *p == '\\' ? 0 : vk_printable_len(p);
		if (n + (k ? k : 4) > VK_SAFE_MAX) {
			memcpy(out + n, "...", 4);
			return out;
		}
		if (k) {
			memcpy(out + n, p, k);
			n += k;
		} else {
			n += snprintf(out + n, 5, *p == '\\' ? "\\\\" : "\\x%02x", *p);
		}
	}
	out[n] = '\0';
	return out;
}

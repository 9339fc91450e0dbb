// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <string.h>

#include "safe.h"

#define RING 8	/* buffers: more than any one printf() of a reporter takes */

size_t vk_utf8_len(const unsigned char *s)
{
	unsigned lo = 0x80, hi = 0xbf;	/* the second byte's range */
	size_t n;

	if (*s >= 0x20 && *s < 0x7f)
		return 1;
	if (*s == 0xc2) {
		n = 2;
		lo = 0xa0;	/* U+0080-U+009F are C1 controls */
	} else if (*s >= 0xc3 && *s <= 0xdf) {
		n = 2;
	} else if (*s >= 0xe0 && *s <= 0xef) {
		n = 3;
		lo = *s == 0xe0 ? 0xa0 : lo;	/* overlong */
		hi = *s == 0xed ? 0x9f : hi;	/* surrogates */
	} else if (*s >= 0xf0 && *s <= 0xf4) {
		n = 4;
		lo = *s == 0xf0 ? 0x90 : lo;	/* overlong */
		hi = *s == 0xf4 ? 0x8f : hi;	/* above U+10FFFF */
	} else {
		return 0;
	}
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	}
	return n;
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
		k = *p == '\\' ? 0 : vk_utf8_len(p);
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

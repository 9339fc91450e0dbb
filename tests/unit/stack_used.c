// SPDX-License-Identifier: MIT
/* The stack rule's scan of a painted stack, on planted stacks. */
#include <string.h>

#include "tests/unit/test.h"
#include "core/verify/verify_shared.h"

#define LEN 4096
#define PAINT 0xa5

int main(void)
{
	unsigned char s[LEN];

	memset(s, PAINT, LEN);
	CHECK(vk_stack_used(s, LEN, PAINT) == 0, "an untouched stack: 0 bytes");
	s[LEN - 1] = 0;
	CHECK(vk_stack_used(s, LEN, PAINT) == 1, "its top byte: 1 byte");
	s[LEN - 100] = PAINT + 1;
	CHECK(vk_stack_used(s, LEN, PAINT) == 100, "a byte 100 below the top: 100 bytes");
	memset(s, PAINT, LEN);
	s[LEN - 1000] = 0;
	CHECK(vk_stack_used(s, LEN, PAINT) == 1000,
	      "a lone byte deep down, with the paint above it: counted to it");
	s[0] = 0;
	CHECK(vk_stack_used(s, LEN, PAINT) == LEN, "the lowest byte: all of it");
	CHECK(vk_stack_used(s, 0, PAINT) == 0, "an empty stack: 0 bytes");
	return test_exit();
}

// SPDX-License-Identifier: MIT
/* Caught by: node. The NUMA node is off by one. */
#define IMPL_OWN_GETCPU
#include "impl.h"

int __vdso_getcpu(unsigned *cpu, unsigned *node, void *cache)
{
	int r = impl_sys_getcpu(cpu, node, cache);

	if (!r && node)
		(*node)++;
	return r;
}

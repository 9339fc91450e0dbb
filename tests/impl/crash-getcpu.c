// SPDX-License-Identifier: MIT
/*
 * Crashes on every getcpu call: bench must say which worker process died,
 * of what, and on which API and path, and exit 1 with the rows it had.
 */
#include <signal.h>

#define IMPL_OWN_GETCPU
#include "impl.h"

int __vdso_getcpu(unsigned *cpu, unsigned *node, void *cache)
{
	(void)cpu;
	(void)node;
	(void)cache;
	raise(SIGSEGV);
	return 0;
}

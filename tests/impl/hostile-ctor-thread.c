// SPDX-License-Identifier: MIT
/* The constructor starts a thread that spins in the library's code for
 * as long as the process lives: closing the library would unmap it. */
#include <pthread.h>

#include "impl.h"

static void *spin(void *arg)
{
	for (;;)
		__asm__ volatile("" ::: "memory");
	return arg;
}

__attribute__((constructor)) static void hostile_ctor(void)
{
	pthread_t t;

	pthread_create(&t, NULL, spin, NULL);
}

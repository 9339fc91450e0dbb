// SPDX-License-Identifier: MIT
/* Not an --impl: an LD_PRELOAD library under which vdsokit can start no
 * thread, to show that a check that could not run fails, named. */
#include <errno.h>
#include <pthread.h>

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	(void)t, (void)attr, (void)fn, (void)arg;
	return EAGAIN;
}

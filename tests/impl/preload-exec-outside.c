// SPDX-License-Identifier: MIT
/* Not an --impl: an LD_PRELOAD library whose execv() first moves the
 * process to the time namespace open as fd 9 (the test's own, outside),
 * as a kernel whose exec() left the namespace would: timens's exec rule
 * must fail. */
#include <dlfcn.h>
#include <sched.h>
#include <unistd.h>

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

int execv(const char *path, char *const argv[])
{
	int (*real)(const char *, char *const[]) =
		(int (*)(const char *, char *const[]))dlsym(RTLD_NEXT, "execv");

	setns(9, CLONE_NEWTIME);
	return real(path, argv);
}

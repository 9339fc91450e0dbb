// SPDX-License-Identifier: MIT
/* Not an --impl: an LD_PRELOAD library under which a process started by
 * exec() in another time namespace than its parent's moves back to its
 * parent's, as a kernel would leave a vfork()ed child at exec(): timens's
 * vfork-exec rules must fail. A fork()ed child that exec()s is in its
 * parent's namespace already: the exec rules pass. */
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

__attribute__((constructor)) static void back_to_parent(void)
{
	char parent[64], mine[64], theirs[64];
	ssize_t m, t;
	int fd;

	snprintf(parent, sizeof(parent), "/proc/%d/ns/time", (int)getppid());
	m = readlink("/proc/self/ns/time", mine, sizeof(mine));
	t = readlink(parent, theirs, sizeof(theirs));
	if (m <= 0 || t <= 0 || (m == t && !memcmp(mine, theirs, (size_t)m)))
		return;
	fd = open(parent, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		setns(fd, CLONE_NEWTIME);
		close(fd);
	}
}

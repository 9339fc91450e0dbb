// SPDX-License-Identifier: MIT
/* Not an --impl: an LD_PRELOAD library under which vfork() fails with
 * EINVAL, as it does after unshare(CLONE_NEWTIME) on kernels before 6.2,
 * and uname() reports the release in $VK_FAKE_RELEASE where it is set:
 * timens's vfork-exec rules must SKIP on an older release and FAIL on a
 * newer one, which promises the vfork(). */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/utsname.h>
#include <unistd.h>

pid_t vfork(void)
{
	errno = EINVAL;
	return -1;
}

int uname(struct utsname *u)
{
	int (*real)(struct utsname *) = (int (*)(struct utsname *))dlsym(RTLD_NEXT, "uname");
	const char *release = getenv("VK_FAKE_RELEASE");
	int got = real(u);

	if (got == 0 && release)
		snprintf(u->release, sizeof(u->release), "%s", release);
	return got;
}

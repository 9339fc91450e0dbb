// SPDX-License-Identifier: MIT
/*
 * What info says of time namespaces (core/base: vk_sysinfo_timens_judge),
 * on planted observations, each a kernel vdsokit meets: whether this
 * process is in a non-initial one, whether the kernel has them, whether
 * one can be made here, and a note that says how that is known, never a
 * bare "unknown". /proc/self/ns/time exists only with CONFIG_TIME_NS (on
 * Debian's armmp kernel it does not); unshare(CLONE_NEWTIME) fails with
 * EINVAL without it, but with EPERM first for a process that lacks
 * CAP_SYS_ADMIN, which then says nothing of the kernel.
 */
#include <errno.h>
#include <string.h>

#include "core/base/sysinfo.h"
#include "tests/unit/test.h"

#define INIT_INO 4026531834ull
#define NONE "no /proc/self/ns/time: the kernel has no time namespaces (CONFIG_TIME_NS)"
#define EPERM_SAID "unshare(CLONE_NEWTIME) fails with EPERM: this process lacks CAP_SYS_ADMIN"

static const char *word(enum vk_tristate t)
{
	return t == VK_YES ? "yes" : t == VK_NO ? "no" : "unknown";
}

/* proc: /proc is mounted; link: readlink's errno or 0 (then ino); unshare: errno, 0, -1. */
static void judge(const char *what, int proc, int link, unsigned long long ino, int unshare,
		  enum vk_tristate non_initial, enum vk_tristate kernel, enum vk_tristate can,
		  const char *note)
{
	struct vk_sysinfo si = { .timens_seen = { proc, link, ino, unshare } };

	vk_sysinfo_timens_judge(&si);
	CHECK(si.timens == non_initial && si.timens_kernel == kernel && si.timens_new == can &&
	      !strcmp(si.timens_note, note),
	      "%s: non-initial %s, kernel has them %s, one can be made %s: %s", what, word(si.timens),
	      word(si.timens_kernel), word(si.timens_new), si.timens_note);
}

int main(void)
{
	judge("no CONFIG_TIME_NS (armmp), as root", 1, ENOENT, 0, EINVAL, VK_NO, VK_NO, VK_NO,
	      NONE "; unshare(CLONE_NEWTIME) fails with EINVAL");
	judge("no CONFIG_TIME_NS, without CAP_SYS_ADMIN", 1, ENOENT, 0, EPERM, VK_NO, VK_NO, VK_NO,
	      NONE "; " EPERM_SAID);
	judge("no CONFIG_TIME_NS, not tried", 1, ENOENT, 0, -1, VK_NO, VK_NO, VK_UNKNOWN, NONE);
	judge("the initial one, as root", 1, 0, INIT_INO, 0, VK_NO, VK_YES, VK_YES,
	      "a new one can be made here");
	judge("the initial one, without CAP_SYS_ADMIN: supported, not usable here", 1, 0, INIT_INO,
	      EPERM, VK_NO, VK_YES, VK_NO, EPERM_SAID ", so a new one cannot be made here");
	judge("a container's", 1, 0, INIT_INO + 7, 0, VK_YES, VK_YES, VK_YES,
	      "a new one can be made here");
	judge("no /proc, EINVAL: the kernel has none", 0, ENOENT, 0, EINVAL, VK_NO, VK_NO, VK_NO,
	      "/proc is not mounted; unshare(CLONE_NEWTIME) fails with EINVAL: the kernel has no "
	      "time namespaces (CONFIG_TIME_NS)");
	judge("no /proc, EPERM: nothing known of the kernel", 0, ENOENT, 0, EPERM, VK_UNKNOWN,
	      VK_UNKNOWN, VK_NO, "/proc is not mounted; " EPERM_SAID ", which the kernel checks "
	      "before whether it has time namespaces");
	judge("no /proc, made one: the kernel has them", 0, ENOENT, 0, 0, VK_UNKNOWN, VK_YES, VK_YES,
	      "/proc is not mounted; a new one can be made here");
	judge("the link unreadable", 1, EACCES, 0, -1, VK_UNKNOWN, VK_UNKNOWN, VK_UNKNOWN,
	      "/proc/self/ns/time: Permission denied");
	judge("the initial one, not tried", 1, 0, INIT_INO, -1, VK_NO, VK_YES, VK_UNKNOWN,
	      "whether a new one can be made was not tried");
	return test_exit();
}

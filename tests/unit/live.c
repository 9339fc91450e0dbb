// SPDX-License-Identifier: MIT
/*
 * The reader on this process's own vDSO: on x86 the kernel's linker
 * scripts fix which functions exist, so the test demands each of them at
 * LINUX_2.6 (a SKIP on a kernel older than the function), then calls clock_gettime through the address the reader gives
 * and checks the reading lies between two raw syscall readings.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/base/sysinfo.h"
#include "core/image/image.h"
#include "tests/unit/test.h"

/* The kernel's timespec on every ABI: 64-bit seconds and nanoseconds. */
struct ts64 {
	int64_t sec;
	int64_t nsec;
};

/* Each function with the release that added it to the vDSO. */
struct expected {
	enum vk_func func;
	int major, minor;
};

#if defined(__x86_64__) && defined(__LP64__)
static const struct expected expected[] = {
	{ VK_FN_CLOCK_GETTIME, 2, 6 }, { VK_FN_GETTIMEOFDAY, 2, 6 }, { VK_FN_TIME, 2, 6 },
	{ VK_FN_GETCPU, 2, 6 }, { VK_FN_CLOCK_GETRES, 5, 3 }, { VK_FN_GETRANDOM, 6, 11 },
};
#define GETTIME VK_FN_CLOCK_GETTIME
#define GETTIME_SYS SYS_clock_gettime
#elif defined(__i386__)
static const struct expected expected[] = {
	{ VK_FN_CLOCK_GETTIME, 2, 6 }, { VK_FN_GETTIMEOFDAY, 2, 6 }, { VK_FN_TIME, 2, 6 },
	{ VK_FN_GETCPU, 6, 3 }, { VK_FN_CLOCK_GETRES, 5, 3 }, { VK_FN_CLOCK_GETTIME64, 5, 3 },
};
#define GETTIME VK_FN_CLOCK_GETTIME64
#define GETTIME_SYS SYS_clock_gettime64
#endif

#ifdef GETTIME
static int64_t ns(const struct ts64 *t)
{
	return t->sec * 1000000000 + t->nsec;
}

static void check_call(const struct vk_image *im)
{
	int (*gettime)(clockid_t, struct ts64 *);
	struct vk_image_func f;
	struct ts64 a, v, b;
	int ret;

	if (vk_image_func(im, GETTIME, &f)) {
		CHECK(0, "%s is there to call", f.want);
		return;
	}
	gettime = (int (*)(clockid_t, struct ts64 *))vk_image_addr(im, &f.sym);
	CHECK(gettime != NULL, "%s has an address in the live image", f.want);
	if (!gettime)
		return;
	syscall(GETTIME_SYS, CLOCK_MONOTONIC, &a);
	ret = gettime(CLOCK_MONOTONIC, &v);
	syscall(GETTIME_SYS, CLOCK_MONOTONIC, &b);
	CHECK(ret == 0 && ns(&a) <= ns(&v) && ns(&v) <= ns(&b),
	      "%s through the reader's address reads between two syscalls (%lld <= %lld <= %lld)",
	      f.want, (long long)ns(&a), (long long)ns(&v), (long long)ns(&b));
}

int main(void)
{
	struct vk_image im;
	struct vk_image_func f;
	int err = vk_image_open_live(&im);

	CHECK(err == 0, "the live vDSO opens (%s)", err ? im.err : "ok");
	if (err)
		return test_exit();
	CHECK(im.arch == vk_arch_host(), "the live vDSO is of this build's ABI (%s)",
	      im.arch ? im.arch->name : "unknown");
	CHECK(im.elf.soname && (!strcmp(im.elf.soname, "linux-vdso.so.1") ||
				!strcmp(im.elf.soname, "linux-gate.so.1")),
	      "soname is linux-vdso.so.1 or linux-gate.so.1 (%s)", im.elf.soname);
	CHECK(vk_elf_check_hashes(&im.elf, im.err, sizeof(im.err)) == 0,
	      "every symbol is found through every hash table");
	for (size_t i = 0; i < ARRAY_SIZE(expected); i++) {
		const struct expected *e = &expected[i];
		int found = vk_image_func(&im, e->func, &f) == 0;

		char since[32];

		snprintf(since, sizeof(since), "it came in Linux %d.%d", e->major, e->minor);
		if (!found && vk_kernel_before(e->major, e->minor))
			SKIP(since, "%s@LINUX_2.6 is exported", f.want);
		else
			CHECK(found && f.sym.version && !strcmp(f.sym.version, "LINUX_2.6"),
			      "%s@LINUX_2.6 is exported", f.want);
	}
	check_call(&im);
	return test_exit();
}
#else
int main(void)
{
	SKIP("no expected symbol list for this architecture", "live vDSO symbols");
	return test_exit();
}
#endif

// SPDX-License-Identifier: MIT
/*
 * fallback's measurement of a clocksource vdsokit's table does not know
 * (core/fallback: vk_fallback_clocksource), on a planted name and planted
 * vDSO clock_gettimes: one that makes no syscall, as a vDSO reading the
 * counter, is measured vDSO-capable; one that makes the syscall, as a vDSO
 * whose clocksource has no vDSO clock mode, is not. A name the table
 * knows is the table's; no vDSO, or no seccomp, is said, not guessed.
 */
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/fallback/fallback.h"
#include "tests/unit/test.h"

static int counter(clockid_t clock, void *ts)
{
	(void)clock;
	memset(ts, 0, sizeof(struct vk_kts64));
	return 0;
}

static int kernel(clockid_t clock, void *ts)
{
	return syscall(SYS_clock_gettime, clock, ts);
}

static struct vk_sysinfo planted(const char *name, enum vk_tristate known)
{
	struct vk_sysinfo si = { .cs_vdso = known, .cs_note = "the table's" };

	snprintf(si.clocksource, sizeof(si.clocksource), "%s", name);
	return si;
}

static void measure(vk_clock_fn fn, enum vk_tristate want, const char *note)
{
	static struct vk_callset cs;
	struct vk_sysinfo si = planted("planted-cs", VK_UNKNOWN);

	cs.fn[VK_PATH_VDSO][VK_FN_CLOCK_GETTIME].clock = fn;
	vk_fallback_clocksource(&cs, &si);
	CHECK(si.cs_vdso == want && !strcmp(si.cs_note, note), "planted-cs, whose vDSO %s: %d, '%s'",
	      fn == counter ? "reads a counter" : "makes the syscall", si.cs_vdso, si.cs_note);
}

int main(void)
{
	static struct vk_callset cs;
	const struct vk_arch *arch = vk_arch_host();
	struct vk_sysinfo si = planted("tsc", VK_YES);

	vk_fallback_clocksource(&cs, &si);
	CHECK(si.cs_vdso == VK_YES && !strcmp(si.cs_note, "the table's"),
	      "a name the table knows is the table's");
	si = planted("planted-cs", VK_UNKNOWN);
	vk_fallback_clocksource(NULL, &si);
	if (vk_fallback_unsupported()) {
		CHECK(si.cs_vdso == VK_UNKNOWN && strstr(si.cs_note, "no seccomp"),
		      "no seccomp here: said (%s)", si.cs_note);
		return test_exit();
	}
	CHECK(si.cs_vdso == VK_UNKNOWN && strstr(si.cs_note, "not measured: this process has no vDSO"),
	      "no vDSO: not measured, and said (%s)", si.cs_note);
	if (arch && (arch->stubs & VK_FN_BIT(VK_FN_CLOCK_GETTIME))) {
		SKIP("this ABI's vDSO clock_gettime only makes the syscall", "measured on planted vDSOs");
		return test_exit();
	}
	si = planted("planted-cs", VK_UNKNOWN);
	cs.fn[VK_PATH_VDSO][VK_FN_CLOCK_GETTIME].clock = counter;
	vk_fallback_clocksource(&cs, &si);
	if (strstr(si.cs_note, "seccomp refused the filter")) {
		/* qemu-user, for one, takes no seccomp filter. */
		SKIP("seccomp refused the filter here", "measured on planted vDSOs");
		return test_exit();
	}
	measure(counter, VK_YES, "measured: the vDSO's clock_gettime(CLOCK_MONOTONIC) stays in userspace");
	measure(kernel, VK_NO, "measured: the vDSO's clock_gettime(CLOCK_MONOTONIC) makes the syscall");
	return test_exit();
}

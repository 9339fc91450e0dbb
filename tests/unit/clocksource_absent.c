// SPDX-License-Identifier: MIT
/*
 * A vDSO that exports no clock_gettime reads no clocksource, whatever
 * vdsokit's table says (core/fallback: vk_fallback_clocksource): "no",
 * and why, not "unknown". 32-bit arm's kernel nulls out the names of its
 * clock entries at boot where the device tree has no usable architected
 * timer (a Cortex-A9 on qemu's vexpress-a9, clocksource arm,sp804): the
 * note says so where the vDSO has nameless functions. On planted vDSOs,
 * and, given an image (argv[1]: tests/cases/images.sh's arm vDSO with its
 * clock entries nulled out), on the set vk_callset_init makes of it.
 */
#include <string.h>

#include "core/fallback/fallback.h"
#include "tests/unit/test.h"

static const char nulled[] =
	"the vDSO exports no clock_gettime: the kernel nulled out the names of its clock "
	"entries (32-bit arm's does at boot without a usable architected timer), so every "
	"clock read makes the syscall";
static const char absent[] = "the vDSO exports no clock_gettime, so every clock read makes the syscall";

static int counter(clockid_t clock, void *ts)
{
	(void)clock;
	memset(ts, 0, sizeof(struct vk_kts64));
	return 0;
}

static struct vk_sysinfo planted(const char *name, enum vk_tristate known)
{
	struct vk_sysinfo si = { .cs_vdso = known, .cs_note = "the table's" };

	snprintf(si.clocksource, sizeof(si.clocksource), "%s", name);
	return si;
}

/* A vDSO whose clock entries are gone, as vk_callset_init leaves them. */
static void without_clock(struct vk_callset *cs, int nameless)
{
	memset(cs, 0, sizeof(*cs));
	cs->why[VK_PATH_VDSO][VK_FN_CLOCK_GETTIME] = VK_WHY_NOT_EXPORTED;
	cs->why[VK_PATH_VDSO][VK_FN_CLOCK_GETTIME64] = VK_WHY_NOT_EXPORTED;
	cs->vdso_nulled = nameless;
}

static void judge(const char *what, const struct vk_callset *cs, const char *name,
		  enum vk_tristate known, enum vk_tristate want, const char *note)
{
	struct vk_sysinfo si = planted(name, known);

	vk_fallback_clocksource(cs, &si);
	CHECK(si.cs_vdso == want && (!note || !strcmp(si.cs_note, note)), "%s: %s: %s", what,
	      si.cs_vdso == VK_YES ? "yes" : si.cs_vdso == VK_NO ? "no" : "unknown", si.cs_note);
}

static void image(const char *path)
{
	struct vk_image im;
	struct vk_callset cs;
	char err[64];

	if (vk_image_open_file(&im, path)) {
		CHECK(0, "%s opens: %s", path, im.err);
		return;
	}
	CHECK(vk_callset_init(&cs, &im, NULL, err, sizeof(err)) == 0, "a set is made of %s", path);
	judge("an arm vDSO with its clock entries nulled out, on sp804", &cs, "arm,sp804",
	      VK_UNKNOWN, VK_NO, nulled);
	vk_image_close(&im);
}

int main(int argc, char **argv)
{
	struct vk_callset cs;

	if (!vk_arch_host()) {
		SKIP("vdsokit does not know this ABI's vDSO", "a vDSO without clock_gettime");
		return test_exit();
	}
	without_clock(&cs, 4);
	judge("nulled out, on a clocksource the table does not know", &cs, "arm,sp804", VK_UNKNOWN,
	      VK_NO, nulled);
	judge("nulled out, on one the table calls vDSO-capable", &cs, "arch_sys_counter", VK_YES,
	      VK_NO, nulled);
	without_clock(&cs, 0);
	judge("never exported, on a clocksource the table does not know", &cs, "arm,sp804",
	      VK_UNKNOWN, VK_NO, absent);
	without_clock(&cs, 4);
	cs.fn[VK_PATH_VDSO][VK_FN_CLOCK_GETTIME64].clock = counter;
	judge("clock_gettime64 alone is a clock_gettime: the table's", &cs, "tsc", VK_YES, VK_YES,
	      "the table's");
	without_clock(&cs, 0);
	cs.why[VK_PATH_VDSO][VK_FN_CLOCK_GETTIME] = "its address is not mapped";
	judge("one exported but not mapped says nothing of the clocksource", &cs, "arm,sp804",
	      VK_UNKNOWN, VK_UNKNOWN, NULL);
	if (argc > 1)
		image(argv[1]);
	return test_exit();
}

// SPDX-License-Identifier: MIT
/*
 * core/bench/envcheck.c on made-up /sys and /proc trees: a machine set up for
 * benchmarking gets no warning, and one that is not gets each warning.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/bench/envcheck.h"
#include "tests/unit/test.h"

static char root[64];

static void put(const char *path, const char *text)
{
	char full[256], *slash;
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	for (slash = strchr(full + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(full, 0755);
		*slash = '/';
	}
	f = fopen(full, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int has(const struct vk_warnings *w, const char *what)
{
	for (int i = 0; i < w->n; i++) {
		if (!strcmp(w->w[i].what, what))
			return 1;
	}
	return 0;
}

int main(void)
{
	struct vk_sysinfo si = { .clocksource = "tsc", .cs_vdso = VK_YES };
	struct vk_warnings w = { 0 };
	char cmd[128];

	snprintf(root, sizeof(root), "%s/vk-envcheck.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root)) {
		SKIP("cannot make a temporary directory", "environment warnings");
		return test_exit();
	}
	put("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
	put("/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "performance\n");
	put("/sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
	put("/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu tsc\n");
	vk_env_check(&w, root, &si, 0.5, 2);
	vk_env_check_groups(&w, 0, 10);
	CHECK(w.n == 0, "a machine set up for benchmarking gets no warning (%d)", w.n);

	put("/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "powersave\n");
	put("/sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
	put("/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu tsc hypervisor\n");
	si.cs_vdso = VK_NO;
	vk_env_check(&w, root, &si, 2.5, 2);
	vk_env_check_groups(&w, 3, 10);
	CHECK(has(&w, "the CPU frequency governor is not performance"), "powersave is warned of");
	CHECK(w.n > 0 && !strcmp(w.w[0].detail, "powersave on CPU 1"), "on the CPU that has it (%s)",
	      w.n ? w.w[0].detail : "");
	CHECK(has(&w, "turbo is on"), "turbo is warned of");
	CHECK(has(&w, "the machine is a VM"), "the hypervisor flag is warned of");
	CHECK(has(&w, "the clocksource cannot serve the vDSO"), "a clocksource the vDSO cannot read is warned of");
	CHECK(has(&w, "the load average is high"), "a load above the CPUs is warned of");
	CHECK(has(&w, "a bench row was measured in too few processes for compare's verdict"), "rows of too few processes are warned of");
	for (int i = 0; i < w.n; i++)
		CHECK(w.w[i].fix && w.w[i].fix[0], "'%s' comes with its fix", w.w[i].what);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? test_exit() : 1;
}

// SPDX-License-Identifier: MIT
/*
 * Warns of a machine set up badly for benchmarking (governor, turbo,
 * a VM, load...), each warning with its fix (envcheck.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/bench/bench.h"
#include "core/bench/envcheck.h"

static void warn(struct vk_warnings *w, const char *what, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void warn(struct vk_warnings *w, const char *what, const char *fix, const char *fmt, ...)
{
	struct vk_warning *x;
	va_list ap;

	if (w->n == VK_MAX_WARNINGS)
		return;
	x = &w->w[w->n++];
	x->what = what;
	x->fix = fix;
	va_start(ap, fmt);
	vsnprintf(x->detail, sizeof(x->detail), fmt, ap);
	va_end(ap);
}

/* The first line of root/path, without its newline; -1 if unreadable. */
static int read_line(const char *root, const char *path, char *buf, size_t len)
{
	char full[512];
	FILE *f;
	int ok;

	snprintf(full, sizeof(full), "%s%s", root, path);
	f = fopen(full, "r");
	if (!f)
		return -1;
	ok = fgets(buf, len, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok ? 0 : -1;
}

void vk_env_governor(const char *root, char *buf, size_t len)
{
	if (read_line(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", buf, len))
		buf[0] = '\0';
}

static void governor(struct vk_warnings *w, const char *root, long cpus)
{
	char path[96], gov[64];

	for (long c = 0; c < cpus; c++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%ld/cpufreq/scaling_governor", c);
		if (read_line(root, path, gov, sizeof(gov)) || !strcmp(gov, "performance"))
			continue;
		warn(w, "the CPU frequency governor is not performance",
		     "cpupower frequency-set -g performance", "%s on CPU %ld", gov, c);
		return;
	}
}

static void turbo(struct vk_warnings *w, const char *root)
{
	char v[16];

	if (!read_line(root, "/sys/devices/system/cpu/intel_pstate/no_turbo", v, sizeof(v)) &&
	    !strcmp(v, "0"))
		warn(w, "turbo is on",
		     "echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo",
		     "intel_pstate/no_turbo is 0");
	else if (!read_line(root, "/sys/devices/system/cpu/cpufreq/boost", v, sizeof(v)) &&
		 !strcmp(v, "1"))
		warn(w, "turbo is on", "echo 0 > /sys/devices/system/cpu/cpufreq/boost",
		     "cpufreq/boost is 1");
}

int vk_env_cpuinfo(const char *root, const char *key, char *buf, size_t len)
{
	char path[512], line[4096];
	size_t n = strlen(key);
	int found = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
	f = fopen(path, "re");
	while (f && found && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon || strncmp(line, key, n))
			continue;
		snprintf(buf, len, "%s", colon + 2);
		buf[strcspn(buf, "\n")] = '\0';
		found = 0;
	}
	if (f)
		fclose(f);
	return found;
}

/* x86 sets the hypervisor CPU flag in a guest; Xen also says so in /sys. */
static void hypervisor(struct vk_warnings *w, const char *root)
{
	static const char fix[] = "run on bare metal for figures that hold elsewhere";
	char flags[4096], type[32];

	if (!read_line(root, "/sys/hypervisor/type", type, sizeof(type)) && type[0])
		warn(w, "the machine is a VM", fix, "/sys/hypervisor/type is %s", type);
	else if (!vk_env_cpuinfo(root, "flags", flags, sizeof(flags)) && strstr(flags, " hypervisor"))
		warn(w, "the machine is a VM", fix, "the CPU has the hypervisor flag");
}

void vk_env_check(struct vk_warnings *w, const char *root, const struct vk_sysinfo *si,
		  double loadavg, long cpus)
{
	governor(w, root, cpus);
	turbo(w, root);
	hypervisor(w, root);
	if (si->cs_vdso == VK_NO)
		warn(w, "the clocksource cannot serve the vDSO",
		     "pick one listed in /sys/devices/system/clocksource/clocksource0/available_clocksource that can (e.g. tsc)",
		     "%s: every clock_gettime is a syscall", si->clocksource);
	if (loadavg > cpus)
		warn(w, "the load average is high", "bench on a quieter machine",
		     "%.2f on %ld CPUs", loadavg, cpus);
}

void vk_env_check_groups(struct vk_warnings *w, size_t short_rows, size_t nrows)
{
	if (short_rows)
		warn(w, "a bench row was measured in too few processes for compare's verdict",
		     "bench with --processes 7 or more", "%zu of %zu rows had under %d processes",
		     short_rows, nrows, VK_VERDICT_GROUPS);
}

void vk_env_check_at_once(struct vk_warnings *w, size_t unjudged, size_t nrows, double least)
{
	if (unjudged)
		warn(w, "--threads' threads did not all run at once: their scaling cannot be judged",
		     "bench --threads on an idle machine, with a CPU free for each thread",
		     "%zu of %zu rows: the threads held their CPUs %.0f%% of the time at the least, under %.0f%%",
		     unjudged, nrows, least * 100, VK_BENCH_MIN_AT_ONCE * 100);
}

void vk_env_check_threads(struct vk_warnings *w, int threads, int cpus)
{
	if (threads > cpus)
		warn(w, "more --threads than CPUs: some threads share a CPU, and scaling cannot reach their number",
		     "bench with --threads at most the CPUs it may use",
		     "%d threads on %d CPUs", threads, cpus);
}

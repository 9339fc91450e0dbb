/* SPDX-License-Identifier: MIT */
/*
 * Warnings about how the machine is set up for benchmarking, each with
 * its fix: what pyperf's 'system show' and Google Benchmark warn of. They
 * say why figures may not hold, not that the vDSO is wrong.
 */
#ifndef VK_ENVCHECK_H
#define VK_ENVCHECK_H

#include <stddef.h>

#include "core/bench/compare.h"
#include "core/base/sysinfo.h"

#define VK_MAX_WARNINGS 8
struct vk_warning {
	const char *what;	/* "turbo is on" */
	char detail[96];	/* "intel_pstate/no_turbo is 0" */
	const char *fix;
};

struct vk_warnings {
	struct vk_warning w[VK_MAX_WARNINGS];
	int n;
};

/*
 * The machine's: the CPU frequency governor, turbo, a hypervisor, a
 * clocksource the vDSO cannot read, the load average. root prefixes
 * /sys and /proc ("" for this machine's; a directory in tests).
 */
void vk_env_check(struct vk_warnings *w, const char *root, const struct vk_sysinfo *si,
		  double loadavg, long cpus);
/* CPU 0's frequency governor, or "" where there is no cpufreq. */
void vk_env_governor(const char *root, char *buf, size_t len);
/*
 * The value of root's /proc/cpuinfo's first line named key ("model name",
 * "flags"), without its newline; -1 where it has none.
 */
int vk_env_cpuinfo(const char *root, const char *key, char *buf, size_t len);
/* short of nrows bench rows had fewer samples than a verdict needs. */
void vk_env_check_groups(struct vk_warnings *w, size_t short_rows, size_t nrows);
/* --threads beyond the CPUs this process may use. */
void vk_env_check_threads(struct vk_warnings *w, int threads, int cpus);
/* unjudged of nrows rows' threads did not run at once, least the smallest share. */
void vk_env_check_at_once(struct vk_warnings *w, size_t unjudged, size_t nrows, double least);

#endif /* VK_ENVCHECK_H */

/* SPDX-License-Identifier: MIT */
/*
 * bench's worker processes, the parent's side: each a fresh exec of this
 * binary run in turn, as "ARGV0 TIMER OPTIONS -- API...", whose samples
 * core/bench/bench_pool pools into the run's rows.
 */
#ifndef VK_BENCHRUN_WORKERS_H
#define VK_BENCHRUN_WORKERS_H

#include "core/benchrun/benchrun.h"

/*
 * Fill rows from p->processes workers, one after the other:
 * VK_MEASURED, _FAILED (one died: the row it died in says how) or
 * _NO_WORKER, said to say too.
 */
enum vk_measure_end vk_bench_workers(const struct vk_bench_plan *p, char *const *argv0,
				     const struct vk_timer *t, struct vk_bench_rows *rows,
				     const struct vk_bench_say *say);
/*
 * --threads' CPUs: the one measured on first, then the others this
 * process may use in turn, round again when there are more threads.
 */
void vk_bench_thread_cpus(struct vk_bench_plan *p, const cpu_set_t *allowed);

#endif /* VK_BENCHRUN_WORKERS_H */

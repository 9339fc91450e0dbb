/* SPDX-License-Identifier: MIT */
/*
 * A bench file's keys (vdsokit-bench/2, doc/json-schema/bench.json),
 * stated once: report/json.c writes them and core/benchfile reads them,
 * for compare and for vm's A/B.
 */
#ifndef VK_BENCHFILE_KEYS_H
#define VK_BENCHFILE_KEYS_H

#include "core/base/envelope.h"
#include "core/bench/bench.h"


#define VK_BENCH_VERSION 2
/* Before the envelope: kernel, clocksource, cpu_model and options at the top. */
#define VK_BENCH_SCHEMA_1 "vdsokit-bench/1"
#define VK_BENCH_SCHEMA_2 "vdsokit-bench/2"

/* environment.options */
#define VK_BF_SECONDS "seconds"
#define VK_BF_SAMPLES "samples"		/* per process; and a row's in all */
#define VK_BF_PROCESSES "processes"	/* and a row's */
#define VK_BF_CPU "cpu"
#define VK_BF_COLD "cold"
#define VK_BF_RANDOM_LEN "getrandom_length"	/* absent before: 16 */
#define VK_BF_THREADS "threads"		/* and a row's */
#define VK_BF_THREAD_CPUS "thread_cpus"
/* environment: the machine's state */
#define VK_BF_CPU_MODEL "cpu_model"
#define VK_BF_GOVERNOR "governor"
#define VK_BF_LOADAVG "loadavg"
#define VK_BF_VOLUNTARY "voluntary_switches"
#define VK_BF_INVOLUNTARY "involuntary_switches"	/* and a row's */
#define VK_BF_DISTURBED "disturbed"
#define VK_BF_WARNINGS "warnings"
#define VK_BF_WARNING "warning"
#define VK_BF_DETAIL "detail"
#define VK_BF_FIX "fix"
/* the content */
#define VK_BF_TIME "time"
#define VK_BF_RUN_ID "run_id"		/* one bench run's, that compare counts once */
#define VK_BF_TIMER "timer"
#define VK_BF_TIMER_NAME "name"
#define VK_BF_TIMER_GHZ "ghz"
#define VK_BF_TIMER_OVERHEAD "overhead_ns"
#define VK_BF_BOOTS "boots"
#define VK_BF_REFERENCE "reference"
#define VK_BF_REF_LOOP "loop"
#define VK_BF_REF_CPU "ns_per_step"
#define VK_BF_REF_CPU_EACH "processes_ns"
#define VK_BF_REF_LOADS "loads_ns"
#define VK_BF_REF_LOADS_EACH "loads_processes_ns"
#define VK_BF_REF_SYS "syscall_ns"
#define VK_BF_REF_SYS_EACH "syscall_processes_ns"
#define VK_BF_RESULTS "results"
/* a row of results */
#define VK_BF_API "api"
#define VK_BF_PATH "path"
#define VK_BF_SKIPPED "skipped"
#define VK_BF_FAILED "failed_calls"	/* with skipped: the calls failed, */
#define VK_BF_CALL "call"		/* the function, */
#define VK_BF_ERRNO "errno"		/* the last one's errno */
#define VK_BF_CRASHED "crashed"		/* with skipped: its worker process died */
#define VK_BF_MEDIAN "median_ns"
#define VK_BF_MIN "min_ns"
#define VK_BF_CI_LOW "ci95_low_ns"
#define VK_BF_CI_HIGH "ci95_high_ns"
#define VK_BF_CV "cv_pct"
#define VK_BF_P90 "p90_ns"
#define VK_BF_P99 "p99_ns"
#define VK_BF_BATCH "batch"
#define VK_BF_MULTIMODAL "multimodal"
#define VK_BF_CALLS "calls"
#define VK_BF_SAMPLES_NS "samples_ns"
#define VK_BF_PROCESS_SAMPLES_NS "process_samples_ns"
/* a row's under --threads */
#define VK_BF_CALLS_PER_S "calls_per_s"
#define VK_BF_THREAD_NS "thread_ns_per_call"
#define VK_BF_ONE_PER_S "one_thread_calls_per_s"
#define VK_BF_SCALING "scaling"	/* null: not judged */
#define VK_BF_AT_ONCE "threads_at_once"

/* Each reference's keys in a bench file: the run's figure, and each process's. */
struct vk_bench_ref_key {
	const char *run, *each;
};

extern const struct vk_bench_ref_key vk_bench_ref_keys[VK_REF_KINDS];

#endif /* VK_BENCHFILE_KEYS_H */

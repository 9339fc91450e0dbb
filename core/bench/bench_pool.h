/* SPDX-License-Identifier: MIT */
/*
 * bench's pool of worker processes, the parent's side: start one worker
 * (a fresh exec), pool the samples it sends into the run's rows, and say
 * how it ended. A worker prints, one line each, in hex floats so that
 * nothing is lost:
 *   ref CPU LOADS SYS           the reference loops, ns per step
 *   row I BATCH CALLS SWITCHES N S1 ... SN   samples of row I
 *   thr I ALL ONE               --threads: row I's calls per second, at
 *                               that many threads and at one, before its row
 *   skip I REASON
 *   fail I FAILED CALLS ERRNO   row I's calls failed: FAILED of CALLS, the
 *                               last with ERRNO
 *   end
 */
#ifndef VK_BENCH_POOL_H
#define VK_BENCH_POOL_H

#include "core/bench/bench.h"

/* One run's measurements: rows in case order, each path in turn. */
struct vk_bench_rows {
	const struct vk_bench_case *cases;
	size_t ncases;
	struct vk_bench_result *r;	/* ncases * paths */
	size_t n;
	struct vk_bench_ref ref[VK_BENCH_MAX_GROUPS];	/* each process's */
	int nref;
};

/* How a worker ended. */
enum vk_worker_end {
	VK_WORKER_OK,		/* it sent every row and "end" */
	VK_WORKER_BAD,		/* it sent what a worker does not */
	VK_WORKER_SHORT,	/* it stopped before "end" */
	VK_WORKER_SILENT,	/* it sent nothing for too long and was killed */
	VK_WORKER_NO_START,	/* no pipe, fork or wait: errno in err */
	VK_WORKER_NO_EXEC,	/* the exec failed: errno in err */
};

struct vk_worker {
	enum vk_worker_end end;
	int wstatus;		/* waitpid()'s, once it was reaped */
	long at;		/* the last row it sent, -1: none */
	int err;
};

/*
 * Worker k's lines (buf, NUL-terminated, each with its newline) pooled
 * into rows: its samples appended to each row's, its reference the
 * median of its own, a row it skipped skipped for all. VK_WORKER_OK,
 * _BAD or _SHORT; *at is the last row it sent, to name the one it died in.
 */
enum vk_worker_end vk_bench_pool_read(char *buf, struct vk_bench_rows *rows, int k, long *at);
/*
 * Exec path with argv, its stdout read into rows as worker k; killed
 * when it has sent nothing for silence seconds. 0 when it sent every row
 * and exited 0; else -1, with how it ended in w.
 */
int vk_bench_pool_run(const char *path, char *const argv[], double silence,
		      struct vk_bench_rows *rows, int k, struct vk_worker *w);

#endif /* VK_BENCH_POOL_H */

/* SPDX-License-Identifier: MIT */
/*
 * verify: every API on every path under test, compared with the raw
 * syscall, each rule a result. The rules and their names:
 *   errno         return value and errno equal the syscall's
 *   ordered       syscall <= path <= syscall, read in that order
 *   normalized    0 <= nsec < 1e9, no negative seconds where impossible
 *   monotonic     no reading earlier than the one before it
 *   null-args     NULL where the ABI allows it behaves as the syscall does
 *   resolution    clock_getres equals the syscall's
 *   coarse-step   a coarse clock advances by whole numbers of its resolution
 *   boottime      BOOTTIME - MONOTONIC >= the time namespace's offsets' gap
 *   tai-offset    TAI - REALTIME equals adjtimex()'s TAI offset
 *   coarse-bound  a coarse clock is never ahead of its fine clock and lags
 *                 it by at most its resolution and the reading gap
 *   threads       no thread reads a time earlier than one another thread
 *                 published before its read began
 *   survives      the checks of a function on a path neither crash nor hang
 *   realtime, timezone, time-pointer, coarse-seconds, cpu, node,
 *   query, length, flags, differs, fork, straddle: see their checks.
 */
#ifndef VK_VERIFY_H
#define VK_VERIFY_H

#include "call.h"
#include "isolate.h"
#include "result.h"

#define VK_MAX_CLOCKS 64

/* A clock id to test, under its name in results. */
struct vk_clock {
	int id;
	char name[24];		/* "monotonic", "id:15", "cpu:self" */
};

/* One function to verify and, for the clock functions, its clocks. */
struct vk_target {
	enum vk_func func;
	int nclocks;
	struct vk_clock clocks[VK_MAX_CLOCKS];
};

struct vk_verify {
	const struct vk_callset *cs;
	struct vk_results *rs;
	double seconds;		/* budget per API and path */
	unsigned paths;		/* VK_PATH_BIT()s under test */
	int threads;		/* for the threads rule; 0: one per CPU */
	int64_t mono_offset;	/* inside a time namespace: its MONOTONIC offset, s */
};

/* Every clock id worth testing: named, unnamed, negative, extremes. */
int vk_clocks_all(struct vk_clock *clocks, int max);
/* The clock an API row names ("monotonic" or "id:N"); -1 if none. */
int vk_clock_parse(const char *name, struct vk_clock *c);
/* A clock API by name, "clock-gettime-tai" or "clock-getres-id:15". */
int vk_clock_api_parse(const char *name, enum vk_func *f, struct vk_clock *c);

/*
 * The selection of APIs a command runs: every function of this ABI, or
 * those named (a function for all its clocks, an API row, or a clock
 * API such as clock-gettime-id:15), grouped by function. t holds
 * VK_NFUNCS targets; vk_targets_add() returns -1 for an unknown name.
 */
int vk_targets_all(struct vk_target *t);
int vk_targets_add(struct vk_target *t, int *n, const char *name);

void vk_verify_run(struct vk_verify *v, const struct vk_target *t);

/* Per family, in their own files. */
void vk_verify_clocks(struct vk_verify *v, const struct vk_target *t, enum vk_path p);
void vk_verify_getres(struct vk_verify *v, const struct vk_target *t, enum vk_path p);
void vk_verify_relations(struct vk_verify *v, const struct vk_target *t, enum vk_path p);
void vk_verify_threads(struct vk_verify *v, const struct vk_target *t, enum vk_path p);
void vk_verify_gettimeofday(struct vk_verify *v, enum vk_path p);
void vk_verify_time(struct vk_verify *v, enum vk_path p);
void vk_verify_getcpu(struct vk_verify *v, enum vk_path p);
void vk_verify_getrandom(struct vk_verify *v, enum vk_path p);

/* Shared by the families. */
struct vk_ts {
	int64_t sec;
	int64_t nsec;
};
int vk_clock_call(vk_clock_fn fn, int time64, clockid_t id, struct vk_ts *ts);
int64_t vk_ts_ns(const struct vk_ts *ts);
/* A call that may crash, made in a child: 0 and its value, or -1 and why. */
int vk_guarded(long (*call)(void *ctx), void *ctx, long *ret, char *why, size_t len);
/* The API row name for a clock function and clock: "clock-gettime-tai". */
void vk_clock_api(char *buf, size_t len, enum vk_func f, const struct vk_clock *c);

#endif /* VK_VERIFY_H */

/* SPDX-License-Identifier: MIT */
/*
 * What a command tests: clock ids under their names, and the functions
 * selected by name, each with its clocks. Shared by verify, abi, bench,
 * fallback and timens.
 */
#ifndef VK_TARGETS_H
#define VK_TARGETS_H

#include "core/call/call.h"

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

/* Every clock id worth testing: named, unnamed, negative, extremes. */
int vk_clocks_all(struct vk_clock *clocks, int max);
/* The clock an API row names ("monotonic" or "id:N"); -1 if none. */
int vk_clock_parse(const char *name, struct vk_clock *c);
/* A clock API by name, "clock-gettime-tai" or "clock-getres-id:15". */
int vk_clock_api_parse(const char *name, enum vk_func *f, struct vk_clock *c);
/* The API row name for a clock function and clock: "clock-gettime-tai". */
void vk_clock_api(char *buf, size_t len, enum vk_func f, const struct vk_clock *c);
/* The function an API row belongs to, "clock-getres-id:16" or "time"
 * (-1 if none), and for a clock function its clock: *has_id says
 * whether that has an id ("id:16") or not ("cpu:self"). */
int vk_api_func(const char *api, struct vk_clock *c, int *has_id);

/*
 * The selection of APIs a command runs: every function of this ABI, or
 * those named (a function for all its clocks, an API row, or a clock
 * API such as clock-gettime-id:15), grouped by function. t holds
 * VK_NFUNCS targets; vk_targets_add() returns -1 for an unknown name,
 * -E2BIG for a clock past a function's VK_MAX_CLOCKS.
 */
int vk_targets_all(struct vk_target *t);
int vk_targets_add(struct vk_target *t, int *n, const char *name);

#endif /* VK_TARGETS_H */

/* SPDX-License-Identifier: MIT */
/*
 * A clock read through a path between two reads of the syscall, in legs
 * (setns's: inside, moved out, moved back; exec's: after exec()), and
 * the judgement of those reads where the namespace's offset is known:
 * each between its syscall reads, and the brackets narrow enough to tell
 * the namespace's time from its parent's.
 */
#ifndef VK_TIMENS_BRACKET_H
#define VK_TIMENS_BRACKET_H

#include <stdint.h>

#include "core/call/call.h"
#include "core/result/result.h"

#define VK_TIMENS_TRIES 64	/* reads per leg */

/* One clock on one path: the first read out of its bracket, else none. */
struct vk_timens_reading {
	int bad_leg;		/* -1: every read lay between its syscall reads */
	int64_t a, x, b;	/* the syscall, the path, the syscall */
	int64_t tightest;	/* the narrowest bracket of all legs, ns */
	int past_y2038;		/* reads a time32 entry could not give: past 2^31 s */
};

/* One read of clock id through fn, in ns; VK_TIMENS_NONE where it failed
 * or there is no fn. */
int64_t vk_timens_read_ns(vk_clock_fn fn, int t64, int id);
void vk_timens_reading_init(struct vk_timens_reading *r);
/* VK_TIMENS_TRIES reads of clock id through fn (a time64 entry if t64),
 * each between two of sys, this ABI's 64-bit-time clock_gettime: fn may
 * be a 32-bit ABI's time32 entry, whose reads past 2^31 s are left to the
 * y2038 rule. */
void vk_timens_read_leg(vk_clock_fn sys, vk_clock_fn fn, int t64, int id, int leg,
			struct vk_timens_reading *r);
/* A result that passed fails where a read left its bracket (legs[] names
 * where), and SKIPs where no bracket came under the offset. */
void vk_timens_judge_reading(const struct vk_timens_reading *r, const char *const *legs,
			     const char *path, int id, int64_t offset, struct vk_result *res,
			     struct vk_results *rs);

#endif /* VK_TIMENS_BRACKET_H */

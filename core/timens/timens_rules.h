/* SPDX-License-Identifier: MIT */
/*
 * timens's rules, on what a child in a time namespace read and what its
 * parent read outside just before and after: each clock inside is the
 * clock outside plus its offset (MONOTONIC's, BOOTTIME's or none), and a
 * time32 clock_gettime past 2^31 s does what the kernel's time32 syscall
 * does (the vDSO's) or fails or is right (libc's). Results only: no clock
 * is read here.
 */
#ifndef VK_TIMENS_RULES_H
#define VK_TIMENS_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "core/result/result.h"
#include "core/timens/timens_set.h"

#define VK_TIMENS_NCLOCKS 9
#define VK_TIMENS_NONE INT64_MIN	/* a clock that could not be read */

/* The clocks read inside and outside, and the offset each must show. */
enum vk_timens_offset { VK_TIMENS_NO_OFFSET, VK_TIMENS_MONO, VK_TIMENS_BOOT };
struct vk_timens_clock {
	int id;
	enum vk_timens_offset offset;
};
extern const struct vk_timens_clock vk_timens_clocks[VK_TIMENS_NCLOCKS];
/* The paths each clock is read on inside. */
extern const enum vk_path vk_timens_read_paths[2];
/* What the time32 clock_gettime is read on past 2^31 s: MONOTONIC, BOOTTIME. */
extern const int vk_timens_time32_ids[2];

/*
 * The offsets the kernel takes (kernel/time/namespace.c): the clock in
 * the namespace, now plus the offset, between 0 and KTIME_SEC_MAX / 2 s
 * (its tv_sec at most VK_TIMENS_CLOCK_MAX); an offset is seconds and 0 to
 * 999999999 ns, so any ns count. VK_TIMENS_SEC_MAX bounds any offset.
 */
#define VK_TIMENS_SEC_MAX 9223372036LL	/* KTIME_SEC_MAX */
#define VK_TIMENS_CLOCK_MAX (VK_TIMENS_SEC_MAX / 2)
/* "[-]SEC[.FRACTION]", at most 9 decimals, as ns: 0; -1 not such a
 * number; -2 beyond +-VK_TIMENS_SEC_MAX s. */
int vk_timens_parse_offset(const char *s, int64_t *ns);
/* The least and most offset the kernel takes for a clock now at now ns. */
void vk_timens_offset_bounds(int64_t now, int64_t *lo, int64_t *hi);
/* Those bounds for MONOTONIC and BOOTTIME, now at mono and boot ns, said. */
void vk_timens_bounds_said(char *buf, size_t len, int64_t mono, int64_t boot);
/* ns as seconds, exactly and no longer than needed: "-100.5", "3". */
const char *vk_timens_seconds(char *buf, size_t len, int64_t ns);
/* The whole seconds of ns, rounded down, as the kernel's tv_sec. */
int64_t vk_timens_floor_sec(int64_t ns);

/* What the child in the namespace read, in ns (VK_TIMENS_NONE: not read). */
struct vk_timens_readings {
	int64_t ns[VK_TIMENS_NCLOCKS][2];	/* by vk_timens_read_paths */
	int64_t kernel_ns[2];	/* MONOTONIC's and BOOTTIME's offsets as
				 * /proc/self/timens_offsets says them inside */
	int64_t y2038_sec[2][VK_NPATHS];	/* by vk_timens_time32_ids */
	int y2038_ret[2][VK_NPATHS];
	char impl_died[2][64];	/* how --impl's call died, or "" */
};

/* What the parent knows of one set's run. */
struct vk_timens_outside {
	const struct vk_timens_set *set;
	int64_t before[VK_TIMENS_NCLOCKS], after[VK_TIMENS_NCLOCKS];	/* ns */
	int64_t base_ns[2];	/* vdsokit's own namespace's offsets (timens.h) */
	unsigned paths;		/* the paths that have a clock_gettime */
	int time32;		/* a 32-bit ABI: its time32 entries are judged */
	const char *impl;	/* --impl's library, to name it */
};

/*
 * Judge what the child wrote, data and len: its readings, then the
 * results of the checks it ran, which are appended named for the set.
 * Too short for the readings is a child that died first.
 */
void vk_timens_judge(struct vk_results *rs, const struct vk_timens_outside *o,
		     const void *data, size_t len);
/* A result of the set's: its check is "SET:RULE"; failed with fail if set. */
struct vk_result *vk_timens_result(struct vk_results *rs, const char *api, enum vk_path p,
				   const struct vk_timens_set *s, const char *rule,
				   const char *fail);

/* A child's end, died, on r: a failure, but where it says "not tested"
 * (vdsokit could not fork, pipe or exec), vdsokit's own error. */
void vk_timens_died(struct vk_results *rs, struct vk_result *r, const char *died);

#endif /* VK_TIMENS_RULES_H */

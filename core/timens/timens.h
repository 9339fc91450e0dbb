/* SPDX-License-Identifier: MIT */
/*
 * Time namespaces: run checks in a child whose MONOTONIC and BOOTTIME
 * clocks are offset, as a container's are, so the vDSO must read the
 * namespace's data page and add the offsets.
 */
#ifndef VK_TIMENS_H
#define VK_TIMENS_H

#include <stdint.h>

#include "core/base/isolate.h"
#include "core/timens/timens_set.h"

#define VK_TIMENS_NSETS 5

/* MONOTONIC's and BOOTTIME's offsets in ns as /proc/self/timens_offsets
 * shows them, against the initial time namespace, for this process's
 * children (VK_TIMENS_NONE where unread). A new namespace starts with
 * its maker's, and what is written there is against the initial one
 * too: a set's offsets, relative to vdsokit's own namespace, are
 * written on top of these. */
void vk_timens_read_offsets(int64_t ns[2]);
/* Whether time namespaces can be made here; NULL if they can. */
const char *vk_timens_unsupported(void);
/* The VK_TIMENS_NSETS default sets: small, a fraction of a second either
 * way, near and past 2^31 s, the most negative. */
int vk_timens_default_sets(struct vk_timens_set *sets, int max);
/*
 * Run fn(ctx, fd) in a child in a new time namespace with the set's
 * offsets. 0 when it ran (out holds what it wrote); -1 and why if the
 * namespace could not be made (errno in *err: EPERM without CAP_SYS_ADMIN,
 * or without CAP_SYS_TIME to write its offsets); VK_TIMENS_NOT_RUN and why
 * if vdsokit could not fork, its own error.
 */
#define VK_TIMENS_NOT_RUN (-2)
int vk_timens_isolate(const struct vk_timens_set *set, void (*fn)(void *ctx, int fd), void *ctx,
		      double timeout, struct vk_isolated *out, char *why, size_t len, int *err);

/* As that, but fn runs in the process that made the namespace, which
 * stays in its own: its children enter the new one (a vfork()ed one when
 * it exec()s). */
int vk_timens_isolate_maker(const struct vk_timens_set *set, void (*fn)(void *ctx, int fd),
			    void *ctx, double timeout, struct vk_isolated *out, char *why,
			    size_t len, int *err);

#endif /* VK_TIMENS_H */

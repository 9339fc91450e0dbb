/* SPDX-License-Identifier: MIT */
/*
 * What a vdsokit exec()ed into the namespace reads (vk_timens_exec_read),
 * in its first thread and in one it starts, and the judgement of it,
 * which the exec rules (timens_exec.c: after fork(); timens_vfork.c:
 * after vfork()) share.
 */
#ifndef VK_TIMENS_EXEC_H
#define VK_TIMENS_EXEC_H

#include <stddef.h>
#include <stdint.h>

#include "core/base/isolate.h"
#include "core/result/result.h"
#include "core/timens/timens_bracket.h"
#include "core/timens/timens_check.h"

#define VK_TIMENS_EXEC_FAILED 127	/* the exit status of a child whose exec failed */

/* MONOTONIC and BOOTTIME, the clocks the exec()ed vdsokit reads. */
extern const int vk_timens_exec_ids[2];

/* One thread's reads of each clock: its syscall's first, then its vDSO's
 * between two of its syscall's. */
struct vk_timens_exec_side {
	int64_t first[2];
	struct vk_timens_reading r[2];
};

/* What the exec()ed vdsokit writes back. */
struct vk_timens_exec_read {
	struct vk_timens_exec_side main, thread;
	int thread_err;		/* 0, pthread_create's errno, or -1: refused here */
};

/* Each clock of vk_timens_exec_ids by this process's syscall. */
void vk_timens_exec_read_sys(const struct vk_timens_check *c, int64_t ns[2]);
/* Why an exec()ed vdsokit (who, "vdsokit exec()ed ...") wrote nothing. */
void vk_timens_exec_died(const struct vk_isolated *out, const char *who, double timeout,
			 char *died, size_t len);
/* A result of clock i's (of vk_timens_exec_ids) on the vdso path. */
struct vk_result *vk_timens_exec_result(const struct vk_timens_check *c, size_t i,
					const char *rule, struct vk_results *rs);
/* Clock i read by s, whose syscall must read between before and after
 * (the namespace's time) and whose vDSO between its syscall's reads;
 * *leg says where it read. */
void vk_timens_judge_exec(const struct vk_timens_exec_side *s, const char *const *leg, size_t i,
			  int64_t before, int64_t after, int64_t offset, struct vk_result *res,
			  struct vk_results *rs);
/* As that, for e's thread: a SKIP where this build cannot wait for one
 * (vk_threads_refused), a failure where none could start. */
void vk_timens_judge_thread(const struct vk_timens_exec_read *e, const char *const *leg, size_t i,
			    int64_t before, int64_t after, int64_t offset, struct vk_result *res,
			    struct vk_results *rs);

#endif /* VK_TIMENS_EXEC_H */

/* SPDX-License-Identifier: MIT */
/*
 * Results of checks: what tests produce and reporters print. One result
 * is one check of one API on one path; it passed, failed (with the values
 * seen and the rule broken: the code under test was wrong), was skipped
 * (with the reason: a real absence on this machine) or met vdsokit's own
 * error (with what failed: no fork, no memory, a syscall vdsokit needs
 * refused), which says nothing of the code under test: it is counted and
 * named, never a finding, and exits 3 (doc/exit-status.md).
 */
#ifndef VK_RESULT_H
#define VK_RESULT_H

#include <stddef.h>

#include "core/call/call.h"

enum vk_status { VK_PASS, VK_FAIL, VK_SKIP, VK_ERROR };

/* Whether a failure's plain calls, made again in a vdsokit exec()ed
 * afresh (core/confirm), failed again: not tried (no plain call, or no
 * confirming run), confirmed (a finding), or unconfirmed (no finding). */
enum vk_confirm { VK_CONFIRM_NONE, VK_CONFIRMED, VK_UNCONFIRMED };

/* Where a call ran, for the checks that find out (fallback's probe). */
enum vk_ran { VK_RAN_UNKNOWN, VK_RAN_USERSPACE, VK_RAN_SYSCALL };

/* The figure a check's detail gives of how small an error it could see. */
enum vk_bound {
	VK_BOUND_NONE,
	VK_BOUND_ORDER,		/* ordered: the tightest syscall bracket */
	VK_BOUND_SKEW,		/* threads: the loosest pair's tightest hand-off */
	VK_BOUND_STACK,		/* stack: bytes of stack used, not ns */
	VK_BOUND_HELD,		/* second-edge: calls held across boundaries, not ns */
};

/* Of one check, the distinct cases that broke that it keeps, each. */
#define VK_RESULT_CASES 8

/* A plain call that broke: getrandom's flags (0 for the others), and
 * what the path and the syscall returned. */
struct vk_plain {
	unsigned flags;
	long ret, sys_ret;
};

struct vk_result {
	char api[40];		/* "clock-gettime-monotonic", "clock-gettime-id:15" */
	enum vk_path path;
	char check[64];		/* the rule or case: "ordered", "tv:NULL,tz:valid" */
	enum vk_status status;
	unsigned long long calls;	/* calls of the path under test whose
					 * answers the rule compared: a result
					 * with none never passes (vk_results_finish) */
	char detail[768];	/* the first failure's values, why skipped,
				 * or vdsokit's own error */
	unsigned long long fails;	/* how many times the rule broke */
	int cut;		/* the failure limit ended its repeats early */
	int returns;		/* the failure is of return values: */
	long ret, sys_ret;	/* what the path and the syscall returned */
	int nplain;		/* ...in calls a reproducer makes again, */
	struct vk_plain plain[VK_RESULT_CASES];	/* each distinct one: every
				 * pointer valid; getrandom's 16 bytes and a
				 * proper state */
	int ncases;		/* the distinct cases that broke, named, */
	char cases[VK_RESULT_CASES][32];	/* "flags 0x6", in order; */
	unsigned long long more_cases;	/* breaks of cases past that room */
	enum vk_confirm confirm;	/* of a failure with plain calls */
	enum vk_ran ran;
	enum vk_bound bound;	/* what bound_ns is, or none */
	long long bound_ns;	/* an error over this was looked for */
};

/* Results are allocated one by one, so a pointer to one stays valid. */
struct vk_results {
	struct vk_result **r;
	size_t n, cap;
	unsigned long long fails;	/* failed results */
	unsigned long long errors;	/* results of vdsokit's own error */
	unsigned long long unconfirmed;	/* failed results unconfirmed, of fails */
	unsigned long long max_fails;	/* per API: stop repeating its checks
					 * after this many broke (0: never) */
};

struct vk_result *vk_results_add(struct vk_results *rs, const char *api, enum vk_path path,
				 const char *check);
void vk_result_fail(struct vk_results *rs, struct vk_result *r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void vk_result_skip(struct vk_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* r could not be tested for vdsokit's own reason (fmt says which: "could
 * not fork: EAGAIN"): neither a pass nor the kernel's failure. A failure
 * of r, before or after, outweighs it. */
void vk_result_error(struct vk_results *rs, struct vk_result *r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Record that r failed because the path returned ret, the syscall
 * sys_ret (negative errno), so that findings can group such failures. */
void vk_result_returns(struct vk_result *r, long ret, long sys_ret);
/* Record that r's failure of return values came from a plain call:
 * every pointer valid and, for getrandom, 16 bytes with flags and a
 * proper state, where the path returned ret and the syscall sys_ret. A
 * reproducer needs no more to make it again; each distinct flags is kept. */
void vk_result_plain(struct vk_result *r, unsigned flags, long ret, long sys_ret);
/* r failed, but its plain calls did not fail again in a vdsokit
 * exec()ed afresh (fmt says what they returned there, or why they could
 * not be made): it stays a failure, but no finding. */
void vk_result_unconfirm(struct vk_results *rs, struct vk_result *r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Name a case of r's rule that broke ("flags 0x6"), once however often
 * it breaks, so that every one is told, not only the first. */
void vk_result_case(struct vk_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "EINVAL" for EINVAL (positive), for the errnos the vDSO's APIs give. */
const char *vk_errno_name(long e);
/* Add a copy of a result made elsewhere, e.g. in a child process. */
void vk_results_append(struct vk_results *rs, const struct vk_result *src);
/*
 * Whether the timed repeats of one API's checks stop because they broke
 * fails times between them, rs->max_fails or more; r is then marked cut.
 * The limit never stops the other APIs: each is checked to the end.
 */
int vk_result_cut(const struct vk_results *rs, struct vk_result *r, unsigned long long fails);
/* The bounds of kind that passing checks give: the least and the most
 * (ns), in how many checks, of how many APIs; all 0 where none does. */
struct vk_bounds {
	long long lo, hi;
	size_t checks, apis;
};
struct vk_bounds vk_results_bounds(const struct vk_results *rs, enum vk_bound kind);
/*
 * Once every check of rs has run, before its results are read: a result
 * still passing that compared nothing (calls 0) becomes vdsokit's own
 * error, "compared nothing", so that no rule passes on no evidence.
 */
void vk_results_finish(struct vk_results *rs);
/* Keep only the results whose check keep() accepts, counted again. */
void vk_results_keep(struct vk_results *rs, int (*keep)(const char *check, void *ctx), void *ctx);
/* How many results passed, failed, were skipped and met vdsokit's error. */
struct vk_tally {
	size_t pass, fail, skip, error;
	size_t unconfirmed;	/* of fail */
};
struct vk_tally vk_results_tally(const struct vk_results *rs);
/* The results rs->r[i] to r[end - 1], of one API on one path, in all. */
struct vk_results_group {
	size_t end, n;
	unsigned long long calls;
	struct vk_tally t;
	const char *first_fail;	/* the first failed check, or NULL */
	const char *first_error;	/* the first of vdsokit's error, or NULL */
};
struct vk_results_group vk_results_group(const struct vk_results *rs, size_t i);
/* How many results had their repeats cut short by the limit. */
size_t vk_results_cut(const struct vk_results *rs);
void vk_results_free(struct vk_results *rs);

#endif /* VK_RESULT_H */

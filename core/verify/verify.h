/* SPDX-License-Identifier: MIT */
/*
 * verify: every API on every path under test, compared with the raw
 * syscall, each rule a result; the rules, their families and what each
 * holds a path to are vk_verify_rules (verify_rules.c).
 */
#ifndef VK_VERIFY_H
#define VK_VERIFY_H

#include "core/verify/verify_shared.h"

struct vk_rule {
	const char *family;	/* "clock", "getrandom", "every" (each function) */
	const char *name;	/* the results' check name: "ordered" */
	const char *what;	/* what it holds the path to, one line */
};

#define VK_VERIFY_MAX_RULES 64
extern const struct vk_rule vk_verify_rules[];
extern const size_t vk_verify_nrules;
/* on[i] for each rule or family named in the comma list; -1 with the
 * unknown name in bad. on has VK_VERIFY_MAX_RULES bytes. */
int vk_verify_rules_select(const char *list, unsigned char *on, char *bad, size_t len);
/* Whether v's run judges the rule, or any rule of the family. */
int vk_verify_wants(const struct vk_verify *v, const char *rule);
int vk_verify_wants_family(const struct vk_verify *v, const char *family);
/* Drop the results of rules --rules did not select. */
void vk_verify_drop_unwanted(struct vk_verify *v);

/* Run every family of checks of t's function on each path under test. */
void vk_verify_run(struct vk_verify *v, const struct vk_target *t);
/*
 * The second-edge rule (verify_edge.c) of the nt targets' clock APIs, on
 * each path under test, once for them all: it waits for the clocks' second
 * boundaries, up to VK_EDGE_SECONDS, so its children run while the other
 * checks do, started before them and collected after.
 */
struct vk_verify_edges {
	struct vk_verify *v;
	const struct vk_target *t;
	int nt;
	struct vk_isolating child[VK_NPATHS];
	int started[VK_NPATHS];
};
void vk_verify_edges_start(struct vk_verify_edges *e, struct vk_verify *v,
			   const struct vk_target *t, int nt);
void vk_verify_edges_finish(struct vk_verify_edges *e);
/* The vdsokit the mlockall rule exec()s (exec_argv, then --mlock-probe
 * SPEC and --impl LIB where the path is impl): its answer to fd. 0, or
 * -1 where it could not be written. */
int vk_verify_mlock_probe(const char *spec, const char *impl, int fd);

#endif /* VK_VERIFY_H */

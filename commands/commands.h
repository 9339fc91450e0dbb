/* SPDX-License-Identifier: MIT */
/*
 * The command table's prototypes and what commands share. Each command is
 * a cmd_<name>() in its own file, called with argv[0] and vk_progname
 * (the name its messages start with) set to "vdsokit <name>", or by `all`
 * with the command line its row gives and all's run context (vk_all), and
 * returns an exit status.
 */
#ifndef VK_COMMANDS_H
#define VK_COMMANDS_H

#include <limits.h>
#include <stdio.h>

#include "core/image/image.h"
#include "core/result/result.h"
#include "cli/call_opts.h"
#include "cli/exit.h"
#include "cli/options.h"
#include "cli/output.h"
#include "core/summary/summary.h"

struct vk_doc;

/*
 * How `all` and main() run a row of the command table, as git's
 * cmd_struct flags say how git runs a builtin.
 */
enum {
	VK_CMD_ARGV0 = 1,	/* run when argv[0] is its name: vdsotest's programs */
	VK_CMD_SKIP_NEUTRAL = 2,	/* in all: its SKIP says nothing about this vDSO */
	/* in all, its part in the summary (core/summary): */
	VK_CMD_COVERAGE = VK_STEP_COVERAGE,	/* its results tell which functions were verified */
	VK_CMD_CALL_MAP = VK_STEP_CALL_MAP,	/* its results say where each call runs */
	VK_CMD_VM_ONLY = 16,	/* in all: it changes the clock, inside vdsokit vm only */
	VK_CMD_ALL = 32,	/* all runs it */
	VK_CMD_ALL_D = 64,	/* all's -d is its -d */
	VK_CMD_ALL_VERBOSE = 128,	/* all's --verbose is its --verbose */
};

/* One row of the command table (main.c). */
struct vk_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;	/* NULL: not in --help's list */
	unsigned flags;
	/* The options all runs it with, beside all's own; NULL-ended, or NULL. */
	char *const *all_args;
	/* Its seconds on an x86_64 VM, which weigh all's progress line. */
	double weight;
};

/* The command table, in the order all runs its rows. */
extern const struct vk_cmd vk_commands[];
extern const size_t vk_ncommands;

int cmd_abi(int argc, char **argv);
int cmd_all(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_fallback(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_inspect(int argc, char **argv);
int cmd_list_apis(int argc, char **argv);
int cmd_stress(int argc, char **argv);
int cmd_timens(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_vm(int argc, char **argv);

extern const char vk_version[];
/* verify's command line for a failure's plain call made again in a
 * vdsokit exec()ed afresh (core/confirm): the probe's spec comes after. */
extern char *const vk_confirm_argv[];

/* vdsokit as vdsotest, vdsotest-all and vdsotest-bench (by argv[0]). */
int vk_vdsotest(int argc, char **argv);
int vk_vdsotest_all(int argc, char **argv);
int vk_vdsotest_bench(int argc, char **argv);
/* Whether argv is "vdsokit [OPTIONS] API TEST-TYPE" or "vdsokit
 * list-test-types", vdsotest's; if so, runs it into *status. */
int vk_vdsotest_compat(int argc, char **argv, int *status);

/*
 * The run `all` makes of a command: where it renders, what it keeps for
 * all's summary, and all's progress line. vk_all points at it while the
 * command runs under all, and is NULL when it runs alone; the functions
 * below do then what the command alone does.
 */
struct vk_run {
	FILE *out;		/* NULL: render nothing, all prints its own report */
	struct vk_kept kept;
	void (*progress)(void *ctx, double done);	/* NULL: none */
	void *ctx;
};

extern struct vk_run *vk_all;

/* Render doc in format: to stdout, or under all to its stream. */
void vk_run_render(enum vk_format format, const struct vk_doc *doc);
/* Hand rs to all, or free it. */
void vk_run_keep(struct vk_results *rs);
/* Hand a copy of info's facts to all; -1 after saying so when out of memory. */
int vk_run_keep_info(const struct vk_info *in);
/* Hand bench's rows (which all then frees) and a copy of rep to all, if it runs. */
void vk_run_keep_bench(const struct vk_bench_report *rep, struct vk_bench_result *res);
/* Say that done of the command is done on all's progress line: 0 where
 * there is none, and the command may print its own. */
int vk_run_progress(double done);

/* bench's -d, -n and -c into a struct vk_bench_opts (core/benchrun), which
 * compare's sides share; seen, when set, says one of them was given. */
#define VK_BENCH_ROWS(m, seen, d_help, n_help, c_help)                          \
	VK_OPT('d', "duration", VK_OPT_SECONDS, "SECONDS", d_help, &(m)->seconds,   \
	       .given = seen),                                                     \
	VK_OPT('n', "samples", VK_OPT_COUNT, "N", n_help, &(m)->samples, .lo = 2,   \
	       .hi = VK_BENCH_MAX_SAMPLES, .given = seen),                         \
	VK_OPT('c', "cpu", VK_OPT_CALL, "N", c_help, &(m)->cpu, .call = vk_opt_cpu, \
	       .given = seen)

#endif /* VK_COMMANDS_H */

/* SPDX-License-Identifier: MIT */
/*
 * The command table's prototypes and what commands share. Each command is
 * a cmd_<name>() in its own file, called with argv[0] and vk_progname
 * (the name its messages start with) set to "vdsokit <name>", and returns
 * an exit status.
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

struct vk_step;

/*
 * How `all` and main() run a row of the command table, as git's
 * cmd_struct flags say how git runs a builtin.
 */
enum {
	VK_CMD_ARGV0 = 1,	/* run when argv[0] is its name: vdsotest's programs */
	VK_CMD_SKIP_NEUTRAL = 2,	/* in all: its SKIP says nothing about this vDSO */
	VK_CMD_COVERAGE = 4,	/* in all: its results tell which functions were verified */
	VK_CMD_CALL_MAP = 8,	/* in all: its results say where each call runs */
	VK_CMD_VM_ONLY = 16,	/* in all: it changes the clock, inside vdsokit vm only */
};

/* One row of the command table (main.c). */
struct vk_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;	/* NULL: not in --help's list */
	unsigned flags;
	/* all's run of it with its defaults, printing in format; NULL: all
	 * runs it not. weight: its seconds on an x86_64 VM, which weigh all's
	 * progress line. */
	int (*all)(enum vk_format format, struct vk_step *step);
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

struct vk_bench_result;
struct vk_bench_report;

struct vk_info;

/*
 * What a command run by `all` keeps for all's own report: its results,
 * info's facts, or bench's rows and the run's description. all frees it
 * with vk_step_free().
 */
struct vk_step {
	struct vk_results rs;
	struct vk_info *info;		/* malloc()ed */
	struct vk_bench_result *bench;	/* malloc()ed, nbench rows */
	size_t nbench;
	struct vk_bench_report *bench_run;	/* malloc()ed */
	FILE *out;		/* where the command prints; NULL: stdout */
	int verbose;		/* text: the command's --verbose report */
	double seconds;		/* its -d budget per API; 0: its default */
	/* When set, the command says what fraction of it is done, and prints
	 * no progress line of its own. */
	void (*progress)(void *ctx, double done);
	void *ctx;
};

/* Hand rs to step, or free it when step is NULL. */
void vk_step_keep(struct vk_step *step, struct vk_results *rs);
void vk_step_free(struct vk_step *step);
/* The stream a command prints to: step's, or stdout. */
FILE *vk_step_out(const struct vk_step *step);

/*
 * The commands with their defaults, for `all`: each prints in format
 * (VK_FMT_NONE: nothing) and keeps what it found in step.
 */
int vk_run_info(enum vk_format format, struct vk_step *step);
int vk_run_abi(enum vk_format format, struct vk_step *step);
int vk_run_bench(enum vk_format format, struct vk_step *step);
int vk_run_fallback(enum vk_format format, struct vk_step *step);
int vk_run_timens(enum vk_format format, struct vk_step *step);
/* Refused, before it changes anything, outside vdsokit vm. */
int vk_run_stress(enum vk_format format, struct vk_step *step);
int vk_run_verify(enum vk_format format, struct vk_step *step);

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

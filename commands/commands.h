/* SPDX-License-Identifier: MIT */
/*
 * The command table's prototypes and what commands share. Each command is
 * a cmd_<name>() in its own file, called with argv[0] set to
 * "vdsokit <name>", and returns an exit status.
 */
#ifndef VK_COMMANDS_H
#define VK_COMMANDS_H

#include <stdio.h>

#include "core/image/image.h"
#include "core/result/result.h"

/* Exit statuses, kselftest's where they overlap. */
enum vk_exit {
	VK_EXIT_OK = 0,		/* every check passed */
	VK_EXIT_FAIL = 1,	/* a check failed */
	VK_EXIT_USAGE = 2,	/* bad arguments or bad input */
	VK_EXIT_SKIP = 4,	/* nothing could run, e.g. no vDSO */
};

struct vk_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

int cmd_abi(int argc, char **argv);
int cmd_all(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_fallback(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_list_apis(int argc, char **argv);
int cmd_stress(int argc, char **argv);
int cmd_timens(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_vm(int argc, char **argv);

extern const char vk_version[];

/* /init of `vdsokit vm`'s guest: runs the command the host packed, then
 * powers the machine off; never returns. */
int vk_vm_init(void) __attribute__((noreturn));

/* vdsokit as vdsotest, vdsotest-all and vdsotest-bench (by argv[0]). */
int vk_vdsotest(int argc, char **argv);
int vk_vdsotest_all(int argc, char **argv);
int vk_vdsotest_bench(int argc, char **argv);
/* "vdsokit [OPTIONS] API TEST-TYPE" and "vdsokit list-test-types" as
 * vdsotest's: -1 if argv is not that. */
int vk_vdsotest_compat(int argc, char **argv);

/* Print "vdsokit CMD: message" and a pointer to --help; returns 2. */
int vk_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Print a usage error for an option getopt_long() rejected; returns 2. */
int vk_bad_option(const char *cmd);
/* Open FILE, or the live vDSO when it is NULL; print why not. */
int vk_open_image(const char *cmd, const char *path, struct vk_image *im);
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
 * (VK_FMT_NONE or VK_BENCH_NONE: nothing) and keeps what it found in step.
 */
int vk_run_info(const char *cmd, const char *path, int format, struct vk_info *keep,
		FILE *out);
int vk_run_abi(const char *cmd, int format, struct vk_step *step);
int vk_run_bench(const char *cmd, int format, struct vk_step *step);
int vk_run_fallback(const char *cmd, int format, struct vk_step *step);
int vk_run_timens(const char *cmd, int format, struct vk_step *step);
/* Refused, before it changes anything, outside vdsokit vm. */
int vk_run_stress(const char *cmd, int format, struct vk_step *step);
int vk_run_verify(const char *cmd, int format, struct vk_step *step);
/* Parse "text" or "json" (the formats every command has). */
int vk_parse_text_json(const char *cmd, const char *arg, int *json);

/* What every command that makes calls shares: paths, --impl, the format. */
struct vk_call_opts {
	unsigned paths;
	const char *impl;
	int format;
};

#define VK_CALL_SHORTOPTS "p:I:F:h"
#define VK_CALL_LONGOPTS                                                        \
	{ "paths", required_argument, NULL, 'p' },                              \
	{ "impl", required_argument, NULL, 'I' },                               \
	{ "format", required_argument, NULL, 'F' },                             \
	{ "help", no_argument, NULL, 'h' }

/* Option handlers' answers besides an exit status: go on; not mine. */
enum { VK_OPT_GO_ON = -1, VK_OPT_OTHER = -2 };

/*
 * Handle getopt's answer c when it is a shared option, or an unknown one:
 * VK_OPT_GO_ON to go on, else the exit status to return with (0 after
 * --help). format parses --format's value; formats names them for errors.
 */
int vk_call_option(const char *cmd, int c, const char *arg, struct vk_call_opts *o,
		   const char *usage, int (*format)(const char *), const char *formats);
/* After the options: paths default to base, and impl with --impl; the
 * impl path needs --impl. VK_OPT_GO_ON, or the exit status. */
int vk_call_paths(const char *cmd, struct vk_call_opts *o, unsigned base);
struct vk_target;
/* The APIs named after the options (argv[optind...]), or all of them. */
int vk_call_targets(const char *cmd, int argc, char **argv, struct vk_target *t, int *nt);

/* What bench and compare's side-by-side runs share: how long, on which CPU. */
struct vk_bench_opts {
	double seconds;			/* per API and path */
	unsigned long long samples;
	long cpu;			/* -1: the one it starts on */
};

#define VK_BENCH_SHORTOPTS "d:n:c:"
#define VK_BENCH_LONGOPTS                                                       \
	{ "duration", required_argument, NULL, 'd' },                           \
	{ "samples", required_argument, NULL, 'n' },                            \
	{ "cpu", required_argument, NULL, 'c' }

struct vk_bench_case;
struct vk_timer;
/* Handle -d, -n or -c as getopt's c: VK_OPT_GO_ON, an exit status for a
 * bad value, or VK_OPT_OTHER when c is another option. */
int vk_bench_option(const char *cmd, int c, const char *arg, struct vk_bench_opts *o);
/* The cases the API names give (see bench --help), or every API for none. */
int vk_bench_cases(const char *cmd, int argc, char **argv, struct vk_bench_case *cases,
		   size_t *n);
/* Pin to *cpu (-1: the current one, stored back) and calibrate the timer. */
int vk_bench_setup(const char *cmd, long *cpu, struct vk_timer *timer);

/* One file of --output DIR (all, bench, compare): its name and printer. */
struct vk_output {
	const char *name;
	void (*print)(FILE *f, const void *report);
};

/* Make DIR if it is missing, before the run, so that a bad one costs
 * nothing; VK_OPT_GO_ON, or the exit status after saying why. */
int vk_output_dir(const char *cmd, const char *dir);
/* DIR/name opened for writing, or NULL after saying why. */
FILE *vk_output_open(const char *cmd, const char *dir, const char *name);
/* Close f, DIR/name; -1 after saying why on a write error. */
int vk_output_close(const char *cmd, const char *dir, FILE *f, const char *name);
/* Print report into each of files in DIR; VK_EXIT_OK or VK_EXIT_USAGE. */
int vk_output_write(const char *cmd, const char *dir, const struct vk_output *files, size_t n,
		    const void *report);

/*
 * Option values, strictly: digits only (and for numbers a '.' and an
 * exponent), no spaces, signs, hex, "inf" or anything past the range.
 * A positive number of seconds up to VK_MAX_SECONDS; a number >= 0; a
 * whole number; a signed whole number.
 */
#define VK_MAX_SECONDS 604800	/* a week */
int vk_parse_seconds(const char *cmd, const char *opt, const char *arg, double *out);
int vk_parse_number(const char *cmd, const char *opt, const char *arg, double *out);
int vk_parse_count(const char *cmd, const char *opt, const char *arg, unsigned long long *out);
int vk_parse_signed(const char *cmd, const char *opt, const char *arg, long long *out);
/* The same, from lo to hi; else "OPT takes LO to HI". */
int vk_parse_count_in(const char *cmd, const char *opt, const char *arg, unsigned long long lo,
		      unsigned long long hi, unsigned long long *out);
/*
 * Parse [-i|--image FILE] [-f|--format text|json] [-h|--help], printing
 * usage for --help. Returns -1 to go on, else the exit status to return.
 */
int vk_parse_image_opts(int argc, char **argv, const char *usage, const char **path,
			int *json);

#endif /* VK_COMMANDS_H */

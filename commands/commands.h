/* SPDX-License-Identifier: MIT */
/*
 * The command table's prototypes and what commands share. Each command is
 * a cmd_<name>() in its own file, called with argv[0] set to
 * "vdsokit <name>", and returns an exit status.
 */
#ifndef VK_COMMANDS_H
#define VK_COMMANDS_H

#include <limits.h>
#include <stdio.h>

#include "core/image/image.h"
#include "core/result/result.h"
#include "cli/options.h"

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
/* Whether argv is "vdsokit [OPTIONS] API TEST-TYPE" or "vdsokit
 * list-test-types", vdsotest's; if so, runs it into *status. */
int vk_vdsotest_compat(int argc, char **argv, int *status);

/* Print "vdsokit CMD: message" and a pointer to --help; returns 2. */
int vk_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same for option handling: returns VK_OPT_BAD. */
enum vk_opt_result vk_opt_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
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
	int verbose;		/* text: the command's --verbose report */
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
int vk_run_info(const char *cmd, const char *path, enum vk_format format, struct vk_info *keep,
		FILE *out);
int vk_run_abi(const char *cmd, enum vk_format format, struct vk_step *step);
int vk_run_bench(const char *cmd, enum vk_format format, struct vk_step *step);
int vk_run_fallback(const char *cmd, enum vk_format format, struct vk_step *step);
int vk_run_timens(const char *cmd, enum vk_format format, struct vk_step *step);
/* Refused, before it changes anything, outside vdsokit vm. */
int vk_run_stress(const char *cmd, enum vk_format format, struct vk_step *step);
int vk_run_verify(const char *cmd, enum vk_format format, struct vk_step *step);

/* What every command that makes calls shares: paths, --impl, the format. */
struct vk_call_opts {
	unsigned paths;
	const char *impl;
	enum vk_format format;
};

/* --paths LIST into an unsigned of path bits. */
enum vk_opt_result vk_opt_paths(const char *cmd, const char *arg, void *paths);
#define VK_OPT_PATHS_ROW(o, help)                                              \
	VK_OPT('p', "paths", VK_OPT_CALL, "LIST", help, &(o)->paths, .call = vk_opt_paths)
#define VK_OPT_IMPL_ROW(o, help) VK_OPT('I', "impl", VK_OPT_STRING, "LIB.so", help, &(o)->impl)
/* -F: the format's letter before -f was --format in every command. */
#define VK_OPT_OLD_FORMAT_ROW(dest, fmts)                                       \
	VK_OPT('F', NULL, VK_OPT_FORMAT, "FMT", NULL, dest, .formats = fmts)
/* Both: -f/--format and -F. */
#define VK_OPT_FORMAT_ROWS(dest, fmts, help)                                    \
	VK_OPT_FORMAT_ROW(dest, fmts, help), VK_OPT_OLD_FORMAT_ROW(dest, fmts)

/* verify's and timens's -v: the passing checks' bounds one by one. */
#define VK_OPT_VERBOSE_ROW(dest)                                                \
	VK_OPT('v', "verbose", VK_OPT_FLAG, NULL,                                \
	       "text: each passing check's bound (its tightest\n"                \
	       "bracket or hand-off), not only their range", dest)
/* After the options: --verbose, given, is for the text report only. */
enum vk_opt_result vk_verbose_text(const char *cmd, int verbose, enum vk_format format);

/* After the options: paths default to base, and impl with --impl; the
 * impl path needs --impl. */
enum vk_opt_result vk_call_paths(const char *cmd, struct vk_call_opts *o, unsigned base);
struct vk_target;
/* The APIs named after the options (argv[optind...]), or all of them. */
enum vk_opt_result vk_call_targets(const char *cmd, int argc, char **argv, struct vk_target *t,
				   int *nt);

/* What bench and compare's side-by-side runs share: how long, on which CPU. */
struct vk_bench_opts {
	double seconds;			/* per API and path */
	unsigned long long samples;
	long cpu;			/* -1: the one it starts on */
};

/* --cpu N into a long, CPU_SETSIZE for any N past the last. */
enum vk_opt_result vk_opt_cpu(const char *cmd, const char *arg, void *cpu);
/* bench's -d, -n and -c; seen, when set, says one of them was given. */
#define VK_BENCH_ROWS(m, seen, d_help, n_help, c_help)                          \
	VK_OPT('d', "duration", VK_OPT_SECONDS, "SECONDS", d_help, &(m)->seconds,   \
	       .given = seen),                                                     \
	VK_OPT('n', "samples", VK_OPT_COUNT, "N", n_help, &(m)->samples, .lo = 2,   \
	       .hi = VK_BENCH_MAX_SAMPLES, .given = seen),                         \
	VK_OPT('c', "cpu", VK_OPT_CALL, "N", c_help, &(m)->cpu, .call = vk_opt_cpu, \
	       .given = seen)

struct vk_bench_case;
struct vk_timer;
/* The cases the API names give (see bench --help), or every API for none. */
int vk_bench_cases(const char *cmd, int argc, char **argv, struct vk_bench_case *cases,
		   size_t *n);
/* Pin to *cpu (-1: the current one, stored back) and calibrate the timer. */
int vk_bench_setup(const char *cmd, long *cpu, struct vk_timer *timer);

/* One file of --output DIR (all, bench, compare): its name and format. */
struct vk_output {
	const char *name;
	enum vk_format format;
};

/* Make DIR if it is missing, before the run, so that a bad one costs
 * nothing; as an option's call, *(const char **)dest = dir. */
enum vk_opt_result vk_output_dir(const char *cmd, const char *dir, void *dest);

/*
 * Files written whole: each beside its final name, all of a set renamed
 * into place once every one is complete, so that a full disk or a
 * signal leaves the previous ones as they were, with no temporary.
 */
#define VK_FILES_MAX 16

struct vk_file {
	char path[PATH_MAX], tmp[PATH_MAX + 32];
	FILE *f;
	int err;	/* errno of its first failed write */
};

struct vk_files {
	const char *cmd;
	size_t n;
	struct vk_file file[VK_FILES_MAX];
};

/* A stream to path's temporary, or NULL after saying why. */
FILE *vk_files_open(struct vk_files *s, const char *path);
/* Note a failed write's errno: call it after each large write, which
 * stdio passes to write() unbuffered. */
void vk_files_flush(struct vk_files *s);
/* Rename each into place; VK_EXIT_OK, or VK_EXIT_USAGE after saying
 * which file failed and why, none replaced. */
int vk_files_commit(struct vk_files *s);
/* Remove the temporaries, replacing nothing. */
void vk_files_drop(struct vk_files *s);
/* vk_files_open() of DIR/name. */
FILE *vk_output_open(struct vk_files *s, const char *dir, const char *name);
/* Print doc into each of files in DIR, added to s, and commit s. */
int vk_output_write(struct vk_files *s, const char *dir, const struct vk_output *files, size_t n,
		    const struct vk_doc *doc);

/*
 * Option values, strictly: digits only (and for numbers a '.' and an
 * exponent), no spaces, signs, hex, "inf" or anything past the range.
 * A positive number of seconds up to VK_MAX_SECONDS; a number >= 0; a
 * whole number; a signed whole number. Each says what is wrong itself.
 */
#define VK_MAX_SECONDS 604800	/* a week */
enum vk_opt_result vk_parse_seconds(const char *cmd, const char *opt, const char *arg,
				    double *out);
enum vk_opt_result vk_parse_number(const char *cmd, const char *opt, const char *arg,
				   double *out);
enum vk_opt_result vk_parse_count(const char *cmd, const char *opt, const char *arg,
				  unsigned long long *out);
enum vk_opt_result vk_parse_signed(const char *cmd, const char *opt, const char *arg,
				   long long *out);
/* The same, from lo to hi; else "OPT takes LO to HI". */
enum vk_opt_result vk_parse_count_in(const char *cmd, const char *opt, const char *arg,
				     unsigned long long lo, unsigned long long hi,
				     unsigned long long *out);

#endif /* VK_COMMANDS_H */

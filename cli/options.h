/* SPDX-License-Identifier: MIT */
/*
 * One option table per command. A command states each of its options
 * once, as a row (letter, long name, type and bounds, where its value
 * goes, help line); getopt_long()'s arrays, the options part of --help
 * and the strict parsing of each value, with its messages, come from the
 * rows. Tables are built in the command's function, as their rows point
 * at its variables.
 */
#ifndef VK_OPTIONS_H
#define VK_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "core/base/array.h"
#include "report/format.h"
#include "cli/exit.h"

/* What handling options decided: go on, or exit (with vk_opt_exit()). */
enum vk_opt_result {
	VK_OPT_OK,	/* parsed: go on */
	VK_OPT_HELP,	/* --help (or --version) was printed: exit 0 */
	VK_OPT_BAD,	/* a usage error was printed: exit 2 */
};

/*
 * The name vdsokit's messages start with, "vdsokit verify" for instance:
 * main() sets it once, for the command it runs, as musl's __progname.
 */
extern const char *vk_progname;

/* The exit status for a result other than VK_OPT_OK. */
int vk_opt_exit(enum vk_opt_result r);

enum vk_opt_type {
	VK_OPT_FLAG,	/* no value: *(int *)dest = 1 */
	VK_OPT_STRING,	/* *(const char **)dest = the value */
	VK_OPT_SECONDS,	/* double > 0, at most VK_MAX_SECONDS (lo to hi when hi) */
	VK_OPT_NUMBER,	/* double, lo to hi when hi */
	VK_OPT_COUNT,	/* unsigned long long, lo to hi when hi */
	VK_OPT_SIGNED,	/* long long */
	VK_OPT_FORMAT,	/* enum vk_format, one .formats takes */
	VK_OPT_CALL,	/* .call(value, dest) */
	VK_OPT_PRINT_HELP,	/* print --help */
};

struct vk_option {
	int letter;		/* 0: a long option only */
	const char *name;	/* the long name, without "--"; NULL: a letter only */
	enum vk_opt_type type;
	const char *arg;	/* the value's name in --help; NULL: it takes none */
	const char *help;	/* lines after the first are indented; NULL: unlisted */
	void *dest;
	unsigned long long lo, hi;
	const struct vk_formats *formats;	/* VK_OPT_FORMAT's */
	enum vk_opt_result (*call)(const char *arg, void *dest);
	int *given;		/* when set, 1 once the option is given */
};

#define VK_MAX_OPTIONS 32

/* A command's options, and its --help around them. */
struct vk_options {
	const char *head;	/* --help before the options */
	const char *tail;	/* and after them */
	const struct vk_option *opt;
	size_t n;		/* at most VK_MAX_OPTIONS */
	int stop;		/* stop at the first operand (vm's commands) */
	/* When set, operands come here in order, among the options. */
	enum vk_opt_result (*operand)(char *arg, void *dest);
	void *operand_dest;
};

/* A row: letter, long name, type, the value's name, help, dest, then
 * designated fields (.lo, .hi, .call, ...). */
#define VK_OPT(l, n, t, a, h, d, ...)                                           \
	{ .letter = l, .name = n, .type = t, .arg = a, .help = h, .dest = d, __VA_ARGS__ }
/* A command's struct vk_options from its rows, an array of at most
 * VK_MAX_OPTIONS (else it does not compile). */
#define VK_OPTIONS(h, t, rows)                                                  \
	{ .head = h, .tail = t, .opt = rows,                                    \
	  .n = ARRAY_SIZE(rows) + 0 * sizeof(char[ARRAY_SIZE(rows) <= VK_MAX_OPTIONS ? 1 : -1]) }

/* Rows every command shares. */
#define VK_OPT_HELP_ROW VK_OPT('h', "help", VK_OPT_PRINT_HELP, NULL, "show this help", NULL)
/* --format: the formats of kind's documents (report/format.h), and also,
 * unless VK_FMT_NONE; --help lists them, then help's lines, if any. */
#define VK_OPT_FORMAT_ROW_ALSO(dest, kind, also, help)                         \
	VK_OPT('f', "format", VK_OPT_FORMAT, "FMT", help, dest,                 \
	       .formats = &(const struct vk_formats){ kind, also })
#define VK_OPT_FORMAT_ROW(dest, kind, help) VK_OPT_FORMAT_ROW_ALSO(dest, kind, VK_FMT_NONE, help)

/* Parse argv's options into the rows' destinations; optind is then at the
 * first operand. Prints --help, or a usage error, itself. */
enum vk_opt_result vk_options_parse(const struct vk_options *o, int argc, char **argv);
/* The whole --help: head, one line (and more) per listed row, tail. */
void vk_options_help(FILE *f, const struct vk_options *o);

/* Print "vdsokit CMD: message" and a pointer to --help; returns 2. */
int vk_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
/* The same for option handling: returns VK_OPT_BAD. */
enum vk_opt_result vk_opt_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/*
 * Option values, strictly: digits only (and for numbers a '.' and an
 * exponent), no spaces, signs, hex, "inf" or anything past the range.
 * A positive number of seconds up to VK_MAX_SECONDS; a number >= 0; a
 * whole number; a signed whole number. Each says what is wrong itself.
 */
#define VK_MAX_SECONDS 604800	/* a week */
enum vk_opt_result vk_parse_seconds(const char *opt, const char *arg,
				    double *out);
enum vk_opt_result vk_parse_number(const char *opt, const char *arg,
				   double *out);
enum vk_opt_result vk_parse_count(const char *opt, const char *arg,
				  unsigned long long *out);
enum vk_opt_result vk_parse_signed(const char *opt, const char *arg,
				   long long *out);
/* The same, from lo to hi; else "OPT takes LO to HI". */
enum vk_opt_result vk_parse_count_in(const char *opt, const char *arg,
				     unsigned long long lo, unsigned long long hi,
				     unsigned long long *out);

#endif /* VK_OPTIONS_H */

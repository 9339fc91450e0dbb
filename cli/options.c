// SPDX-License-Identifier: MIT
/*
 * The option tables' parser: getopt_long()'s arrays, strict values and
 * --help's option lines, all from each command's rows (options.h).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"

const char *vk_progname = "vdsokit";

/* Rows wider than this do not push every help line's text to the right. */
#define MAX_COLUMN 26
/* getopt_long()'s value for a row without a letter: past every char. */
#define LONG_ONLY 0x100

int vk_opt_exit(enum vk_opt_result r)
{
	return r == VK_OPT_HELP ? VK_EXIT_OK : VK_EXIT_USAGE;
}

/* "  -d, --duration SECONDS", "      --cold", or "  -F FMT", into buf. */
static int option_words(const struct vk_option *r, char *buf, size_t size)
{
	char letter[8] = "    ";

	if (r->letter)
		snprintf(letter, sizeof(letter), "-%c%s", r->letter, r->name ? ", " : "");
	return snprintf(buf, size, "  %s%s%s%s%s", letter, r->name ? "--" : "",
			r->name ? r->name : "", r->arg ? " " : "", r->arg ? r->arg : "");
}

static int help_column(const struct vk_options *o)
{
	char buf[128];
	int col = 0;

	for (size_t i = 0; i < o->n; i++) {
		int w = option_words(&o->opt[i], buf, sizeof(buf));

		if (o->opt[i].help && w <= MAX_COLUMN && w > col)
			col = w;
	}
	return col + 2;
}

/* --format's formats, "text (default), ktap or json", in lines that end
 * by column 80, broken between two words but never after "or". */
static void format_list(FILE *f, const struct vk_option *r, int col)
{
	char list[160];
	const char *s = vk_format_list(list, sizeof(list), r->formats, " (default)");
	int at = col;

	for (size_t len; *s; s += len) {
		len = strcspn(s + 1, " ") + 1;
		if (!strncmp(s, " or ", 4))
			len = 4 + strcspn(s + 4, " ");
		if (at + (int)len > 80) {
			fprintf(f, "\n%*s", col, "");
			at = col;
			s++;
			len--;
		}
		fprintf(f, "%.*s", (int)len, s);
		at += len;
	}
	fputs(*r->help ? "\n" : "", f);
}

static void help_row(FILE *f, const struct vk_option *r, int col)
{
	char buf[128];
	int w = option_words(r, buf, sizeof(buf));
	const char *line = r->help;

	fprintf(f, "%s%*s", buf, w + 2 > col ? 2 : col - w, "");
	if (r->type == VK_OPT_FORMAT) {
		format_list(f, r, col);
		if (*line)
			fprintf(f, "%*s", col, "");
	}
	for (size_t len; (len = strcspn(line, "\n")), line[len]; line += len + 1)
		fprintf(f, "%.*s\n%*s", (int)len, line, col, "");
	fprintf(f, "%s\n", line);
}

void vk_options_help(FILE *f, const struct vk_options *o)
{
	int col = help_column(o);

	fputs(o->head, f);
	for (size_t i = 0; i < o->n; i++) {
		if (o->opt[i].help)
			help_row(f, &o->opt[i], col);
	}
	fputs(o->tail, f);
}

/* The name the messages give a row: "--duration", or "-F". */
static const char *row_name(const struct vk_option *r, char *buf, size_t size)
{
	if (r->name)
		snprintf(buf, size, "--%s", r->name);
	else
		snprintf(buf, size, "-%c", r->letter);
	return buf;
}

/* A parsed value in r's bounds, where it has them; else a usage error in
 * the form of what it takes, with unit after the range ("" for none). */
static enum vk_opt_result bounded(const char *name, const struct vk_option *r,
				  double value, const char *unit)
{
	if (r->hi && (value < r->lo || value > r->hi)) {
		vk_usage_error("%s%s %llu to %llu%s", name, *unit ? ":" : " takes", r->lo,
			       r->hi, unit);
		return VK_OPT_BAD;
	}
	return VK_OPT_OK;
}

static enum vk_opt_result seconds(const char *name, const struct vk_option *r,
				  const char *arg)
{
	double *d = r->dest;

	if (vk_parse_seconds(name, arg, d))
		return VK_OPT_BAD;
	return bounded(name, r, *d, " seconds");
}

static enum vk_opt_result number(const char *name, const struct vk_option *r,
				 const char *arg)
{
	double *d = r->dest;

	if (vk_parse_number(name, arg, d))
		return VK_OPT_BAD;
	return bounded(name, r, *d, "");
}

static enum vk_opt_result format(const struct vk_option *r, const char *arg)
{
	enum vk_format *dest = r->dest;
	int f = vk_format_parse(arg, r->formats);
	char names[128];

	if (f < 0) {
		vk_usage_error("unknown format '%s' (%s)", arg,
			       vk_format_list(names, sizeof(names), r->formats, ""));
		return VK_OPT_BAD;
	}
	*dest = f;
	return VK_OPT_OK;
}

static enum vk_opt_result take(const struct vk_options *o,
			       const struct vk_option *r, char *arg)
{
	char name[64];

	row_name(r, name, sizeof(name));
	if (r->given)
		*r->given = 1;
	switch (r->type) {
	case VK_OPT_FLAG:
		*(int *)r->dest = 1;
		return VK_OPT_OK;
	case VK_OPT_STRING:
		*(const char **)r->dest = arg;
		return VK_OPT_OK;
	case VK_OPT_SECONDS:
		return seconds(name, r, arg);
	case VK_OPT_NUMBER:
		return number(name, r, arg);
	case VK_OPT_COUNT:
		if (r->hi)
			return vk_parse_count_in(name, arg, r->lo, r->hi, r->dest);
		return vk_parse_count(name, arg, r->dest);
	case VK_OPT_SIGNED:
		return vk_parse_signed(name, arg, r->dest);
	case VK_OPT_FORMAT:
		return format(r, arg);
	case VK_OPT_CALL:
		return r->call(arg, r->dest);
	default:
		vk_options_help(stdout, o);
		return VK_OPT_HELP;
	}
}

/* getopt_long()'s two tables from the rows. */
static void getopt_tables(const struct vk_options *o, struct option *longopts, char *shortopts)
{
	size_t n = 0;

	if (o->operand)
		*shortopts++ = '-';
	else if (o->stop)
		*shortopts++ = '+';
	for (size_t i = 0; i < o->n; i++) {
		const struct vk_option *r = &o->opt[i];
		int arg = r->arg ? required_argument : no_argument;

		if (r->name)
			longopts[n++] = (struct option){ r->name, arg, NULL,
							 r->letter ? r->letter : LONG_ONLY + (int)i };
		if (r->letter) {
			*shortopts++ = r->letter;
			if (arg == required_argument)
				*shortopts++ = ':';
		}
	}
	longopts[n] = (struct option){ 0 };
	*shortopts = '\0';
}

static const struct vk_option *find_row(const struct vk_options *o, int c)
{
	if (c >= LONG_ONLY && c < LONG_ONLY + (int)o->n)
		return &o->opt[c - LONG_ONLY];
	for (size_t i = 0; i < o->n; i++) {
		if (o->opt[i].letter == c)
			return &o->opt[i];
	}
	return NULL;
}

enum vk_opt_result vk_options_parse(const struct vk_options *o, int argc,
				    char **argv)
{
	struct option longopts[VK_MAX_OPTIONS + 1];
	char shortopts[3 * VK_MAX_OPTIONS + 2];
	int c;

	getopt_tables(o, longopts, shortopts);
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		const struct vk_option *r = find_row(o, c);
		enum vk_opt_result res;

		if (c == 1) {
			res = o->operand(optarg, o->operand_dest);
		} else if (!r) {
			/* getopt_long() has said what was wrong. */
			fprintf(stderr, "Try '%s --help' for more information.\n", vk_progname);
			res = VK_OPT_BAD;
		} else {
			res = take(o, r, optarg);
		}
		if (res != VK_OPT_OK)
			return res;
	}
	return VK_OPT_OK;
}

static void usage_error(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", vk_progname);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", vk_progname);
}

int vk_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	usage_error(fmt, ap);
	va_end(ap);
	return VK_EXIT_USAGE;
}

enum vk_opt_result vk_opt_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	usage_error(fmt, ap);
	va_end(ap);
	return VK_OPT_BAD;
}

/*
 * strtod() and strtoull() take leading spaces, signs, hex and "inf", and
 * strtoull() wraps "-1" to its largest value: what they convert is first
 * checked to be plain decimal digits, with a '.' and exponent if allowed.
 */
static int decimal(const char *s, int fraction)
{
	size_t n = strspn(s, fraction ? "0123456789.eE+-" : "0123456789");

	return s[0] >= '0' && s[0] <= '9' && s[n] == '\0';
}

enum vk_opt_result vk_parse_number(const char *opt, const char *arg, double *out)
{
	char *end;
	double d = decimal(arg + (arg[0] == '-'), 1) ? strtod(arg, &end) : NAN;

	if (!isfinite(d) || *end)
		return vk_opt_error("%s: '%s' is not a number", opt, arg);
	*out = d;
	return VK_OPT_OK;
}

enum vk_opt_result vk_parse_seconds(const char *opt, const char *arg, double *out)
{
	char *end;
	double d = decimal(arg, 1) ? strtod(arg, &end) : NAN;

	if (!isfinite(d) || *end || d <= 0 || d > VK_MAX_SECONDS)
		return vk_opt_error("%s: '%s' is not a positive number of seconds (at most %d)",
				    opt, arg, VK_MAX_SECONDS);
	*out = d;
	return VK_OPT_OK;
}

enum vk_opt_result vk_parse_count(const char *opt, const char *arg, unsigned long long *out)
{
	unsigned long long n;

	errno = 0;
	n = decimal(arg, 0) ? strtoull(arg, NULL, 10) : 0;
	if (!decimal(arg, 0) || errno == ERANGE)
		return vk_opt_error("%s: '%s' is not a whole number (0 to %llu)", opt, arg,
				    ULLONG_MAX);
	*out = n;
	return VK_OPT_OK;
}

enum vk_opt_result vk_parse_signed(const char *opt, const char *arg, long long *out)
{
	const char *digits = arg + (arg[0] == '-');
	long long n;

	errno = 0;
	n = decimal(digits, 0) ? strtoll(arg, NULL, 10) : 0;
	if (!decimal(digits, 0) || errno == ERANGE)
		return vk_opt_error("%s: '%s' is not a whole number (%lld to %lld)", opt, arg,
				    LLONG_MIN, LLONG_MAX);
	*out = n;
	return VK_OPT_OK;
}

enum vk_opt_result vk_parse_count_in(const char *opt, const char *arg, unsigned long long lo,
		      unsigned long long hi, unsigned long long *out)
{
	if (vk_parse_count(opt, arg, out))
		return VK_OPT_BAD;
	if (*out < lo || *out > hi)
		return vk_opt_error("%s takes %llu to %llu", opt, lo, hi);
	return VK_OPT_OK;
}

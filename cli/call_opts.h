/* SPDX-License-Identifier: MIT */
/* What the commands that make calls read on their command line: paths,
 * --impl, --cpu, the APIs named, and the vDSO image, live or a file. */
#ifndef VK_CALL_OPTS_H
#define VK_CALL_OPTS_H

#include "core/image/image.h"
#include "cli/options.h"

/* What every command that makes calls shares: paths, --impl, the format. */
struct vk_call_opts {
	unsigned paths;
	const char *impl;
	enum vk_format format;
};

/* --paths LIST into an unsigned of path bits. */
enum vk_opt_result vk_opt_paths(const char *arg, void *paths);
#define VK_OPT_PATHS_ROW(o, help)                                              \
	VK_OPT('p', "paths", VK_OPT_CALL, "LIST", help, &(o)->paths, .call = vk_opt_paths)
#define VK_OPT_IMPL_ROW(o, help) VK_OPT('I', "impl", VK_OPT_STRING, "LIB.so", help, &(o)->impl)
/* -F: the format's letter before -f was --format in every command. */
#define VK_OPT_OLD_FORMAT_ROW(dest, kind)                                       \
	VK_OPT('F', NULL, VK_OPT_FORMAT, "FMT", NULL, dest,                     \
	       .formats = &(const struct vk_formats){ kind, VK_FMT_NONE })
/* Both: -f/--format and -F. */
#define VK_OPT_FORMAT_ROWS(dest, kind, help)                                    \
	VK_OPT_FORMAT_ROW(dest, kind, help), VK_OPT_OLD_FORMAT_ROW(dest, kind)

/* verify's and timens's -v: the passing checks' bounds one by one. */
#define VK_OPT_VERBOSE_ROW(dest)                                                \
	VK_OPT('v', "verbose", VK_OPT_FLAG, NULL,                                \
	       "text: each passing check's bound (its tightest\n"                \
	       "bracket or hand-off), not only their range", dest)
/* After the options: --verbose, given, is for the text report only. */
enum vk_opt_result vk_verbose_text(int verbose, enum vk_format format);

/* After the options: paths default to base, and impl with --impl; the
 * impl path needs --impl. */
enum vk_opt_result vk_call_paths(struct vk_call_opts *o, unsigned base);
struct vk_target;
/* The APIs named after the options (argv[optind...]), or all of them. */
enum vk_opt_result vk_call_targets(int argc, char **argv, struct vk_target *t,
				   int *nt);

/* --cpu N into a long, CPU_SETSIZE for any N past the last. */
enum vk_opt_result vk_opt_cpu(const char *arg, void *cpu);

/* Open FILE, or the live vDSO when it is NULL; print why not. */
int vk_open_image(const char *path, struct vk_image *im);

#endif /* VK_CALL_OPTS_H */

// SPDX-License-Identifier: MIT
/*
 * The options of the commands that make calls (paths, --impl, --cpu, APIs,
 * image), parsed once for all of them (call_opts.h).
 */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>

#include "core/call/targets.h"
#include "cli/call_opts.h"

int vk_open_image(const char *path, struct vk_image *im)
{
	int err = path ? vk_image_open_file(im, path) : vk_image_open_live(im);

	if (err == 0)
		return VK_EXIT_OK;
	fprintf(stderr, "%s: %s\n", vk_progname, im->err);
	vk_image_close(im);
	return err == -VK_IMAGE_ENOVDSO ? VK_EXIT_SKIP : VK_EXIT_USAGE;
}

enum vk_opt_result vk_opt_paths(const char *arg, void *paths)
{
	if (vk_paths_parse(arg, paths))
		return vk_opt_error("--paths: '%s' is not a list of vdso, libc, syscall, impl, "
				    "vsyscall",
				    arg);
	return VK_OPT_OK;
}

enum vk_opt_result vk_opt_cpu(const char *arg, void *cpu)
{
	unsigned long long n;

	if (vk_parse_count_in("--cpu", arg, 0, CPU_SETSIZE - 1, &n))
		return VK_OPT_BAD;
	*(long *)cpu = (long)n;
	return VK_OPT_OK;
}

enum vk_opt_result vk_verbose_text(int verbose, enum vk_format format)
{
	if (verbose && format != VK_FMT_TEXT)
		return vk_opt_error("--verbose is for the text report");
	return VK_OPT_OK;
}

enum vk_opt_result vk_call_paths(struct vk_call_opts *o, unsigned base)
{
	if (!o->paths)
		o->paths = base | (o->impl ? VK_PATH_BIT(VK_PATH_IMPL) : 0);
	if ((o->paths & VK_PATH_BIT(VK_PATH_IMPL)) && !o->impl)
		return vk_opt_error("the impl path needs --impl LIB.so");
	return VK_OPT_OK;
}

enum vk_opt_result vk_call_targets(int argc, char **argv, struct vk_target *t,
				   int *nt)
{
	*nt = 0;
	for (int i = optind; i < argc; i++) {
		int err = vk_targets_add(t, nt, argv[i]);

		if (err == -E2BIG)
			return vk_opt_error("'%s': more than %d clocks of one function", argv[i],
					    VK_MAX_CLOCKS);
		if (err)
			return vk_opt_error("unknown API '%s' (see 'vdsokit list-apis')", argv[i]);
	}
	if (optind == argc)
		*nt = vk_targets_all(t);
	return VK_OPT_OK;
}

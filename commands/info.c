// SPDX-License-Identifier: MIT
/*
 * vdsokit info: the facts a report needs to be read (kernel, ABI, image,
 * symbols, clocksource), of this process's vDSO or of an image file.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/info/info.h"
#include "report/report.h"
#include "commands/commands.h"

static const char head[] =
	"Usage: vdsokit info [--image FILE] [--format text|ktap|json|openmetrics]\n\n"
	"Describe the vDSO: kernel and build ABI, image base and size, soname,\n"
	"Linux version note and build-id, hash tables, version definitions, every\n"
	"exported symbol, the symbol serving each function, the clocksource and\n"
	"whether it serves the vDSO (no where the vDSO exports no clock_gettime;\n"
	"measured where vdsokit does not know its name: does the vDSO's\n"
	"clock_gettime(CLOCK_MONOTONIC) make a syscall?), whether this process is\n"
	"in a non-initial time namespace, whether the kernel has them and one\n"
	"can be made here, and why not; x86_64's vsyscall page: its mode\n"
	"(xonly, emulate or none, from /proc/self/maps) and what a read of it\n"
	"does, probed; for this process's vDSO, whether each function stays in\n"
	"userspace.\n\n";

static const char tail[] =
	"\n"
	"Exit status: 0 success, 2 usage error or bad image, 4 no vDSO in this process.\n";

static int run(const char *path, enum vk_format format)
{
	struct vk_info in = { 0 };
	struct vk_image im;
	int status = vk_open_image(path, &im);

	if (status == VK_EXIT_USAGE)
		return status;
	vk_info_read(&in, status == VK_EXIT_OK ? &im : NULL);
	in.version = vk_version;
	in.no_image = im.err;
	vk_run_render(format, &(const struct vk_doc){ .command = "info", .kind = VK_DOC_INFO,
						      .info = &in });
	if (vk_run_keep_info(&in))
		status = VK_EXIT_USAGE;
	vk_image_close(&im);
	return status;
}

int cmd_info(int argc, char **argv)
{
	const char *path = NULL;
	enum vk_format format = VK_FMT_TEXT;
	const struct vk_option opt[] = {
		VK_OPT('i', "image", VK_OPT_STRING, "FILE",
		  "read a vDSO image from FILE instead of this process's", &path),
		VK_OPT_FORMAT_ROW(&format, VK_DOC_INFO, ""),
		VK_OPT_HELP_ROW,
	};
	const struct vk_options o = VK_OPTIONS(head, tail, opt);
	enum vk_opt_result r = vk_options_parse(&o, argc, argv);

	if (r != VK_OPT_OK)
		return vk_opt_exit(r);
	if (optind < argc)
		return vk_usage_error("unexpected argument '%s'", argv[optind]);
	return run(path, format);
}

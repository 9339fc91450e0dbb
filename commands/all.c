// SPDX-License-Identifier: MIT
#include <stdio.h>

#include "commands.h"

static const char usage[] =
	"Usage: vdsokit all [--format text|json]\n\n"
	"The main job: run every command on this process's vDSO. For now that is\n"
	"'info'; verify, bench, abi and fallback join it as they land.\n\n"
	"  -f, --format FMT   text (default) or json\n"
	"  -h, --help         show this help\n\n"
	"Exit status: the worst of the commands run: 1 a check failed,\n"
	"2 usage error, 4 no vDSO in this process, else 0.\n";

int cmd_all(int argc, char **argv)
{
	const char *path = NULL;
	int json = 0, status;

	status = vk_parse_image_opts(argc, argv, usage, &path, &json);
	if (status >= 0)
		return status;
	if (path)
		return vk_usage_error(argv[0], "--image is for info and list-apis: "
				      "all runs on this process's vDSO");
	return vk_run_info(argv[0], NULL, json);
}

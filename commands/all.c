// SPDX-License-Identifier: MIT
#include <stdio.h>

#include "../report/bench.h"
#include "../report/report.h"
#include "commands.h"

static const char usage[] =
	"Usage: vdsokit all [--format text|json]\n\n"
	"The main job: run every command on this process's vDSO with its\n"
	"defaults: info, verify, abi, timens, fallback, then bench. With --format\n"
	"json, one object holds each command's report under its name.\n\n"
	"  -f, --format FMT   text (default) or json\n"
	"  -h, --help         show this help\n\n"
	"Exit status: the worst of the commands run: 1 a check failed,\n"
	"2 usage error, 4 no vDSO in this process, else 0.\n";

static int worst(int a, int b)
{
	static const int rank[] = { [VK_EXIT_OK] = 0, [VK_EXIT_SKIP] = 1,
				    [VK_EXIT_FAIL] = 2, [VK_EXIT_USAGE] = 3 };

	return rank[b] > rank[a] ? b : a;
}

static int run_all(const char *cmd, int json)
{
	int status;

	if (json)
		printf("{\"info\": ");
	else
		printf("== info ==\n");
	status = vk_run_info(cmd, NULL, json);
	fflush(stdout);
	if (json)
		printf(", \"verify\": ");
	else
		printf("\n== verify ==\n");
	status = worst(status, vk_run_verify(cmd, json ? VK_FMT_JSON : VK_FMT_TEXT));
	fflush(stdout);
	if (json)
		printf(", \"abi\": ");
	else
		printf("\n== abi ==\n");
	status = worst(status, vk_run_abi(cmd, json ? VK_FMT_JSON : VK_FMT_TEXT));
	fflush(stdout);
	/* timens joins only where namespaces can be made: elsewhere its SKIP
	 * says nothing about this vDSO. */
	if (json)
		printf(", \"timens\": ");
	else
		printf("\n== timens ==\n");
	status = worst(status, vk_run_timens(cmd, json ? VK_FMT_JSON : VK_FMT_TEXT) == VK_EXIT_FAIL ?
				       VK_EXIT_FAIL : VK_EXIT_OK);
	fflush(stdout);
	if (json)
		printf(", \"fallback\": ");
	else
		printf("\n== fallback ==\n");
	status = worst(status, vk_run_fallback(cmd, json ? VK_FMT_JSON : VK_FMT_TEXT));
	fflush(stdout);
	if (json)
		printf(", \"bench\": ");
	else
		printf("\n== bench ==\n");
	status = worst(status, vk_run_bench(cmd, json ? VK_BENCH_JSON : VK_BENCH_TEXT));
	if (json)
		printf("}\n");
	return status;
}

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
	return run_all(argv[0], json);
}

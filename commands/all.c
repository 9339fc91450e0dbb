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

static int info(const char *cmd, int json)
{
	return vk_run_info(cmd, NULL, json);
}

static int verify(const char *cmd, int json)
{
	return vk_run_verify(cmd, json ? VK_FMT_JSON : VK_FMT_TEXT);
}

static int abi(const char *cmd, int json)
{
	return vk_run_abi(cmd, json ? VK_FMT_JSON : VK_FMT_TEXT);
}

/* Where no time namespace can be made, timens's SKIP says nothing about
 * this vDSO and leaves the status alone. */
static int timens(const char *cmd, int json)
{
	return vk_run_timens(cmd, json ? VK_FMT_JSON : VK_FMT_TEXT) == VK_EXIT_FAIL ?
		       VK_EXIT_FAIL : VK_EXIT_OK;
}

static int fallback(const char *cmd, int json)
{
	return vk_run_fallback(cmd, json ? VK_FMT_JSON : VK_FMT_TEXT);
}

static int bench(const char *cmd, int json)
{
	return vk_run_bench(cmd, json ? VK_BENCH_JSON : VK_BENCH_TEXT);
}

static const struct {
	const char *name;
	int (*run)(const char *cmd, int json);
} steps[] = {
	{ "info", info }, { "verify", verify }, { "abi", abi },
	{ "timens", timens }, { "fallback", fallback }, { "bench", bench },
};

static int run_all(const char *cmd, int json)
{
	int status = VK_EXIT_OK;

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (json)
			printf("%s\"%s\": ", i ? ", " : "{", steps[i].name);
		else
			printf("%s== %s ==\n", i ? "\n" : "", steps[i].name);
		fflush(stdout);
		status = worst(status, steps[i].run(cmd, json));
		fflush(stdout);
	}
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

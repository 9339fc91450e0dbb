// SPDX-License-Identifier: MIT
/*
 * vdsokit: test and benchmark the Linux vDSO. This file is only the
 * command table and the dispatch: one row per command, each command in
 * commands/<name>.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/base/array.h"
#include "commands/commands.h"
#include "commands/vm_cmd.h"
#include "core/base/children.h"
#include "core/base/sysinfo.h"

const char vk_version[] = VK_VERSION;

/* --version says which build this is: a release has one per arch. */
#ifdef VK_STATIC
#define STATIC_NOTE ", static"
#else
#define STATIC_NOTE ""
#endif

static const struct vk_cmd commands[] = {
	{ "abi", cmd_abi, "hostile arguments on every path, outcomes against the syscall's" },
	{ "all", cmd_all, "run every command on this machine's vDSO (the main job)" },
	{ "bench", cmd_bench, "measure ns per call of every API on every path" },
	{ "compare", cmd_compare, "compare two bench JSON files: ratios and significance" },
	{ "dump", cmd_dump, "write the vDSO image, byte for byte, to a file" },
	{ "fallback", cmd_fallback, "prove whether each call stays in userspace (seccomp)" },
	{ "info", cmd_info, "describe the vDSO, its symbols, versions and the clocksource" },
	{ "inspect", cmd_inspect, "read the vDSO's code: frames, barriers, indirect branches; A/B" },
	{ "list-apis", cmd_list_apis, "list the API table and what the vDSO exports" },
	{ "stress", cmd_stress, "read every clock while faults change it (vdsokit vm only)" },
	{ "timens", cmd_timens, "check the vDSO inside time namespaces, and y2038 on 32-bit" },
	{ "verify", cmd_verify, "check every API on every path against the syscalls" },
	{ "vm", cmd_vm, "boot a kernel under qemu and run a command on its vDSO" },
};

#define NCOMMANDS ARRAY_SIZE(commands)

static void usage(FILE *f)
{
	fprintf(f, "Usage: vdsokit [--help] [--version] COMMAND [ARGS]\n\n"
		   "Test and benchmark the Linux vDSO.\n\nCommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nvdsotest's command line also works: vdsokit [-d SEC] [-f NUM] API verify|bench|abi,\n"
		   "vdsokit list-test-types; installed as vdsotest, vdsotest-all and vdsotest-bench,\n"
		   "vdsokit is those programs.\n"
		   "\n'vdsokit COMMAND --help' describes a command. Exit status: 0 success,\n"
		   "1 a check failed, 2 usage or input error, 4 nothing could run (no vDSO),\n"
		   "128+N signal N ended it, and every process it started.\n");
}

static const struct vk_cmd *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	}
	return NULL;
}

/* A failed write to stdout is a failure even when the command succeeded. */
static int finish(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "vdsokit: write error: %s\n", strerror(errno));
		return VK_EXIT_USAGE;
	}
	return status;
}

static int run(const struct vk_cmd *cmd, int argc, char **argv)
{
	char name[64];

	snprintf(name, sizeof(name), "vdsokit %s", cmd->name);
	argv[0] = name;
	return finish(cmd->fn(argc, argv));
}

/* Installed as vdsotest's programs, vdsokit is them: the name says which. */
static int (*vdsotest_program(const char *argv0))(int, char **)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} programs[] = {
		{ "vdsotest", vk_vdsotest },
		{ "vdsotest-all", vk_vdsotest_all },
		{ "vdsotest-bench", vk_vdsotest_bench },
	};
	const char *slash = strrchr(argv0, '/'), *name = slash ? slash + 1 : argv0;

	for (size_t i = 0; i < ARRAY_SIZE(programs); i++) {
		if (!strcmp(name, programs[i].name))
			return programs[i].fn;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int (*program)(int, char **) = vdsotest_program(argv[0] ? argv[0] : "");
	const struct vk_cmd *cmd;
	int status;

	/* /init of the initramfs `vdsokit vm` packed. */
	if (getpid() == 1 && access("/vdsokit.args", F_OK) == 0)
		vk_vm_init();
	vk_children_catch();
	if (program)
		return finish(program(argc, argv));
	if (argc < 2) {
		usage(stderr);
		return VK_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    (!strcmp(argv[1], "help") && argc == 2)) {
		usage(stdout);
		return finish(VK_EXIT_OK);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("vdsokit %s\nbuild: %s%s\n", vk_version, vk_build_abi(), STATIC_NOTE);
		return finish(VK_EXIT_OK);
	}
	/* "vdsokit help CMD" is "vdsokit CMD --help". */
	if (!strcmp(argv[1], "help")) {
		argv[1] = argv[2];
		argv[2] = "--help";
		argc = 3;
	}
	cmd = find_command(argv[1]);
	if (!cmd && vk_vdsotest_compat(argc, argv, &status))
		return finish(status);
	if (!cmd) {
		fprintf(stderr, "vdsokit: '%s' is not a command. See 'vdsokit --help'.\n",
			argv[1]);
		return VK_EXIT_USAGE;
	}
	return run(cmd, argc - 1, argv + 1);
}

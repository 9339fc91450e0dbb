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
#include "core/base/children.h"
#include "core/base/sysinfo.h"
#include "core/vm/vm.h"

const char vk_version[] = VK_VERSION;

/* --version says which build this is: a release has one per arch. */
#ifdef VK_STATIC
#define STATIC_NOTE ", static"
#else
#define STATIC_NOTE ""
#endif

/*
 * The command table: what each command is, and how `all` runs it. all
 * runs the rows flagged VK_CMD_ALL, in this order: info, verify, abi,
 * timens, fallback, then bench; stress last, as it changes the clock.
 * Where no time namespace can be made, timens's SKIP leaves the verdict
 * alone.
 */
const struct vk_cmd vk_commands[] = {
	{ "all", cmd_all, "run every command on this machine's vDSO (the main job)", .flags = 0 },
	{ "info", cmd_info, "describe the vDSO, its symbols, versions and the clocksource",
	  .flags = VK_CMD_ALL, .weight = 0.1 },
	{ "verify", cmd_verify, "check every API on every path against the syscalls",
	  .flags = VK_CMD_ALL | VK_CMD_ALL_D | VK_CMD_ALL_VERBOSE | VK_CMD_COVERAGE, .weight = 7 },
	{ "abi", cmd_abi, "hostile arguments on every path, outcomes against the syscall's",
	  .flags = VK_CMD_ALL, .weight = 1 },
	{ "timens", cmd_timens, "check the vDSO inside time namespaces, and y2038 on 32-bit",
	  .flags = VK_CMD_ALL | VK_CMD_ALL_D | VK_CMD_ALL_VERBOSE | VK_CMD_SKIP_NEUTRAL, .weight = 2 },
	{ "fallback", cmd_fallback, "prove whether each call stays in userspace (seccomp)",
	  .flags = VK_CMD_ALL | VK_CMD_CALL_MAP, .weight = 0.2 },
	{ "bench", cmd_bench, "measure ns per call of every API on every path",
	  .flags = VK_CMD_ALL | VK_CMD_ALL_D, .weight = 7 },
	/* Every fault, for half its own default time. */
	{ "stress", cmd_stress, "read every clock while faults change it (vdsokit vm only)",
	  .flags = VK_CMD_ALL | VK_CMD_VM_ONLY, .all_args = (char *[]){ "-d", "30", NULL },
	  .weight = 30 },
	{ "compare", cmd_compare, "compare two bench JSON files: ratios and significance", .flags = 0 },
	{ "dump", cmd_dump, "write the vDSO image, byte for byte, to a file", .flags = 0 },
	{ "inspect", cmd_inspect, "read the vDSO's code: frames, barriers, indirect branches; A/B",
	  .flags = 0 },
	{ "list-apis", cmd_list_apis, "list the API table and what the vDSO exports", .flags = 0 },
	{ "vm", cmd_vm, "boot a kernel under qemu and run a command on its vDSO", .flags = 0 },
	/* Installed as vdsotest's programs, vdsokit is them: argv[0] says which. */
	{ "vdsotest", vk_vdsotest, NULL, .flags = VK_CMD_ARGV0 },
	{ "vdsotest-all", vk_vdsotest_all, NULL, .flags = VK_CMD_ARGV0 },
	{ "vdsotest-bench", vk_vdsotest_bench, NULL, .flags = VK_CMD_ARGV0 },
};

const size_t vk_ncommands = ARRAY_SIZE(vk_commands);

static void usage(FILE *f)
{
	fprintf(f, "Usage: vdsokit [--help] [--version] COMMAND [ARGS]\n\n"
		   "Test and benchmark the Linux vDSO.\n\nCommands:\n");
	for (size_t i = 0; i < vk_ncommands; i++) {
		if (vk_commands[i].summary)
			fprintf(f, "  %-12s %s\n", vk_commands[i].name, vk_commands[i].summary);
	}
	fprintf(f, "\nvdsotest's command line also works: vdsokit [-d SEC] [-f NUM] API verify|bench|abi,\n"
		   "vdsokit list-test-types; installed as vdsotest, vdsotest-all and vdsotest-bench,\n"
		   "vdsokit is those programs.\n"
		   "\n'vdsokit COMMAND --help' describes a command. Exit status: 0 success,\n"
		   "1 a check failed, 2 usage or input error, 4 nothing could run (no vDSO),\n"
		   "128+N signal N ended it, and every process it started.\n");
}

/* The row called name: a command, or with VK_CMD_ARGV0 a program. */
static const struct vk_cmd *find_command(const char *name, unsigned argv0)
{
	for (size_t i = 0; i < vk_ncommands; i++) {
		if ((vk_commands[i].flags & VK_CMD_ARGV0) == argv0 &&
		    strcmp(vk_commands[i].name, name) == 0)
			return &vk_commands[i];
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
	static char name[64];

	snprintf(name, sizeof(name), "vdsokit %s", cmd->name);
	argv[0] = name;
	vk_progname = name;
	return finish(cmd->fn(argc, argv));
}

/* The program argv[0] names, if vdsokit is installed as one of them. */
static const struct vk_cmd *program_of(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');

	return find_command(slash ? slash + 1 : argv0, VK_CMD_ARGV0);
}

int main(int argc, char **argv)
{
	const struct vk_cmd *program = program_of(argv[0] ? argv[0] : ""), *cmd;
	int status;

	/* /init of the initramfs `vdsokit vm` packed. */
	if (getpid() == 1 && access("/vdsokit.args", F_OK) == 0)
		vk_vm_init();
	vk_children_catch();
	if (program)
		return finish(program->fn(argc, argv));
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
	cmd = find_command(argv[1], 0);
	if (!cmd && vk_vdsotest_compat(argc, argv, &status))
		return finish(status);
	if (!cmd) {
		fprintf(stderr, "vdsokit: '%s' is not a command. See 'vdsokit --help'.\n",
			argv[1]);
		return VK_EXIT_USAGE;
	}
	return run(cmd, argc - 1, argv + 1);
}

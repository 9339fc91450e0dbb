// SPDX-License-Identifier: MIT
/*
 * vdsotest's command line, for the scripts and test farms built on it:
 *   vdsokit [-d SEC] [-f NUM] [-v] [-g] API verify|bench|abi
 * runs vdsokit's verify, bench or abi of that API. bench prints vdsotest's
 * "API: syscall: N nsec/call" lines. Unlike vdsotest, -d 0 and junk are
 * refused instead of hanging or being read as 0.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"

struct compat {
	const char *api, *type;
	const char *seconds;	/* -d, or NULL */
	const char *max_fails;	/* -f, or NULL */
};

/* Accept vdsotest's options (-d, -f, -v, -g, their long forms) anywhere. */
static int parse(int argc, char **argv, struct compat *c)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **val = NULL;

		if (!strcmp(a, "-d") || !strcmp(a, "--duration"))
			val = &c->seconds;
		else if (!strcmp(a, "-f") || !strcmp(a, "--maxfails"))
			val = &c->max_fails;
		else if (!strncmp(a, "--duration=", 11))
			c->seconds = a + 11;
		else if (!strncmp(a, "--maxfails=", 11))
			c->max_fails = a + 11;
		else if (!strcmp(a, "-v") || !strcmp(a, "--verbose") || !strcmp(a, "-g") ||
			 !strcmp(a, "--debug"))
			continue;	/* vdsokit's reports already say everything */
		else if (a[0] == '-')
			return -1;
		else if (!c->api)
			c->api = a;
		else if (!c->type)
			c->type = a;
		else
			return -1;
		if (val) {
			if (++i == argc)
				return -1;
			*val = argv[i];
		}
	}
	return c->api && c->type ? 0 : -1;
}

int vk_vdsotest_compat(int argc, char **argv)
{
	struct compat c = { 0 };
	char *args[16], name[32];
	int n = 0;

	if (parse(argc, argv, &c))
		return -1;
	if (!strcmp(c.type, "bench")) {
		snprintf(name, sizeof(name), "vdsokit bench");
		args[n++] = name;
		args[n++] = "--format";
		args[n++] = "vdsotest";
	} else if (!strcmp(c.type, "verify")) {
		snprintf(name, sizeof(name), "vdsokit verify");
		args[n++] = name;
		if (c.max_fails) {
			args[n++] = "--max-fails";
			args[n++] = (char *)c.max_fails;
		}
	} else if (!strcmp(c.type, "abi")) {
		snprintf(name, sizeof(name), "vdsokit abi");
		args[n++] = name;
	} else {
		return -1;
	}
	if (c.seconds && c.type[0] != 'a') {
		args[n++] = "--duration";
		args[n++] = (char *)c.seconds;
	}
	args[n++] = (char *)c.api;
	args[n] = NULL;
	/* Let getopt_long() start afresh on the new argument vector. */
	optind = 0;
	if (c.type[0] == 'a')
		return cmd_abi(n, args);
	return c.type[0] == 'b' ? cmd_bench(n, args) : cmd_verify(n, args);
}

// SPDX-License-Identifier: MIT
/*
 * Turns the architecture table (core/base/arches.def) into what make and
 * the shell read, so that neither keeps a copy of it: `arches make` prints
 * $(O)/arches.mk, `arches sh` prints $(O)/arches.sh (bash). Built and run
 * on the build machine (HOSTCC), whatever CROSS_COMPILE says.
 */
#include <stdio.h>
#include <string.h>

#include "core/base/elf_ids.h"

struct row {
	const char *name, *abi, *kernel, *debian, *cross, *cflags, *cc_pkgs, *libc_pkgs;
	int dist;
	const char *qemu_user, *qemu, *qemu_pkg, *console, *append;
	int machine, is64, big_endian;
	const char *host, *compat;
	const char *words[8];
};

#define VK_ARCH(name, abi, debian, cross, cflags, cc_pkgs, libc_pkgs, dist, qemu_user, qemu,     \
		qemu_pkg, console, append, machine, is64, big_endian, host, compat, ...)          \
	{ name, abi, name, debian, cross, cflags, cc_pkgs, libc_pkgs, dist, qemu_user, qemu,      \
	  qemu_pkg, console, append, machine, is64, big_endian, host, compat, { __VA_ARGS__ } },
#define VK_USERSPACE(name, abi, kernel, cross, cflags, cc_pkgs, libc_pkgs, qemu_user)           \
	{ name, abi, kernel, NULL, cross, cflags, cc_pkgs, libc_pkgs, 0, qemu_user, NULL, NULL,    \
	  NULL, NULL, 0, 0, 0, NULL, NULL, { NULL } },
static const struct row rows[] = {
#include "core/base/arches.def"
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

static const char *str(const char *s)
{
	return s ? s : "";
}

/* The row's qemu words, space-separated. */
static void words(char *buf, size_t len, const struct row *r)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < 8 && r->words[i] && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? " " : "", r->words[i]);
}

/*
 * make: ARCHES (every row), CROSS_ARCHES (make cross's), PREFIX_name (the
 * row's cross prefix) and CROSS_name, the prefix to build name with here:
 * none where this machine's own gcc builds it.
 */
static void print_make(void)
{
	printf("ARCHES :=");
	for (size_t i = 0; i < NROWS; i++)
		printf(" %s", rows[i].name);
	printf("\nCROSS_ARCHES :=");
	for (size_t i = 0; i < NROWS; i++) {
		if (rows[i].dist)
			printf(" %s", rows[i].name);
	}
	printf("\nUNAME_M := $(shell uname -m)\n");
	for (size_t i = 0; i < NROWS; i++) {
		const struct row *r = &rows[i];

		printf("PREFIX_%s := %s\n", r->name, r->cross);
		if (r->is64 && r->host)
			printf("CROSS_%s := $(if $(filter %s,$(UNAME_M)),,%s)\n", r->name,
			       r->host, r->cross);
		else
			printf("CROSS_%s := %s\n", r->name, r->cross);
	}
}

/* One bash associative array: each row's column, as get() reads it. */
static void print_array(const char *array, const char *(*get)(const struct row *))
{
	printf("declare -gA %s=(", array);
	for (size_t i = 0; i < NROWS; i++) {
		const char *v = get(&rows[i]);

		if (v)
			printf("%s[%s]='%s'", i ? " " : "", rows[i].name, v);
	}
	printf(")\n");
}

#define GETTER(col)                                      \
	static const char *get_##col(const struct row *r) \
	{                                                \
		return r->col;                           \
	}
GETTER(abi)
GETTER(kernel)
GETTER(debian)
GETTER(cflags)
GETTER(cc_pkgs)
GETTER(libc_pkgs)
GETTER(qemu_user)
GETTER(qemu)
GETTER(qemu_pkg)
GETTER(console)
GETTER(append)

static const char *get_cross(const struct row *r)
{
	return str(r->cross);
}

static const char *get_native(const struct row *r)
{
	return r->is64 ? r->host : NULL;
}

static const char *get_machine(const struct row *r)
{
	static char buf[256];	/* printed before the next row's */

	if (!r->qemu)
		return NULL;
	words(buf, sizeof(buf), r);
	return buf;
}

/*
 * sh: arches (every row's name), cross_arches (make cross's),
 * arch_COLUMN[name] for each column, and arch_of_debian[debian name].
 * arch_cross[name] is the table's prefix; arch_prefix NAME says the one
 * to use here.
 */
static void print_sh(void)
{
	printf("# The architectures' table, from core/base/arches.def by scripts/arches.c.\n");
	printf("arches=(");
	for (size_t i = 0; i < NROWS; i++)
		printf("%s%s", i ? " " : "", rows[i].name);
	printf(")\ncross_arches=(");
	for (size_t i = 0, n = 0; i < NROWS; i++) {
		if (rows[i].dist)
			printf("%s%s", n++ ? " " : "", rows[i].name);
	}
	printf(")\n");
	print_array("arch_abi", get_abi);
	print_array("arch_kernel", get_kernel);
	print_array("arch_debian", get_debian);
	print_array("arch_cross", get_cross);
	print_array("arch_native", get_native);
	print_array("arch_cflags", get_cflags);
	print_array("arch_cc_pkgs", get_cc_pkgs);
	print_array("arch_libc_pkgs", get_libc_pkgs);
	print_array("arch_qemu_user", get_qemu_user);
	print_array("arch_qemu", get_qemu);
	print_array("arch_qemu_pkg", get_qemu_pkg);
	print_array("arch_qemu_machine", get_machine);
	print_array("arch_console", get_console);
	print_array("arch_append", get_append);
	printf("declare -gA arch_of_debian=(");
	for (size_t i = 0, n = 0; i < NROWS; i++) {
		if (rows[i].debian)
			printf("%s[%s]='%s'", n++ ? " " : "", rows[i].debian, rows[i].name);
	}
	printf(")\n");
	printf("# arch_prefix NAME: NAME's compiler prefix here: none where this machine's\n"
	       "# own gcc builds it.\n"
	       "arch_prefix() {\n"
	       "\tif [ -n \"${arch_native[$1]:-}\" ] && [ \"${arch_native[$1]}\" = \"$(uname -m)\" ]; then\n"
	       "\t\techo\n"
	       "\telse\n"
	       "\t\techo \"${arch_cross[$1]}\"\n"
	       "\tfi\n"
	       "}\n");
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "make"))
		print_make();
	else if (argc == 2 && !strcmp(argv[1], "sh"))
		print_sh();
	else {
		fprintf(stderr, "usage: arches make|sh\n");
		return 2;
	}
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}

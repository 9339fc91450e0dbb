// SPDX-License-Identifier: MIT
/*
 * Each ABI's syscall numbers in core/arch.c against its compiler's
 * <asm/unistd.h>. tests/cases/syscall_numbers.sh preprocesses the header
 * with each installed cross compiler and gives one line per ABI on
 * stdin: "NAME MACHINE IS64 EFLAGS N..." with the numbers in enum vk_func's
 * order (-1: the header has none), or "NAME MACHINE IS64 EFLAGS" alone where no
 * compiler is installed, which checks only that the table has numbers.
 */
#include <stdio.h>
#include <string.h>

#include "core/base/api.h"
#include "core/base/arch.h"
#include "tests/unit/test.h"

static void check_abi(const char *name, unsigned machine, int is64, unsigned eflags,
		      const long *want, int n)
{
	const struct vk_arch *a = vk_arch_find((uint16_t)machine, is64, eflags);
	const long *got = a ? vk_arch_sysno(a) : NULL;
	char diff[512] = "";
	size_t len = 0;

	CHECK(a && !strcmp(a->name, name), "%s is the row of machine %u, %d-bit", name, machine,
	      is64 ? 64 : 32);
	CHECK(got, "%s has syscall numbers", name);
	if (!got || n == 0)
		return;
	for (int f = 0; f < VK_NFUNCS && f < n; f++) {
		if (got[f] != want[f] && len < sizeof(diff))
			len += snprintf(diff + len, sizeof(diff) - len, " %s %ld, not %ld;",
					vk_funcs[f].name, got[f], want[f]);
	}
	CHECK(!diff[0] && n == VK_NFUNCS, "%s's numbers are its <asm/unistd.h>'s:%s", name,
	      diff[0] ? diff : " all equal");
}

int main(void)
{
	char line[512], name[32];

	while (fgets(line, sizeof(line), stdin)) {
		long want[VK_NFUNCS];
		unsigned machine, eflags;
		int is64, used, n = 0;
		char *p = line;

		if (sscanf(p, "%31s %u %d %u%n", name, &machine, &is64, &eflags, &used) != 4)
			continue;
		p += used;
		while (n < VK_NFUNCS && sscanf(p, "%ld%n", &want[n], &used) == 1) {
			p += used;
			n++;
		}
		check_abi(name, machine, is64, eflags, want, n);
	}
	return test_exit();
}

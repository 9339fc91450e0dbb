// SPDX-License-Identifier: MIT
/*
 * The vvar-pages rule on a planted mapping, as a kernel before 7.3 maps
 * [vvar]: a file of two pages (one with data, one of zeros) mapped four
 * pages long, whose pages past the file's end raise SIGBUS when read.
 * The rule's reader must tell each page's outcome, and its judgement
 * fail the SIGBUS from Linux 7.3 on (43648f9f3a67), SKIP it before, and
 * pass a mapping that reads throughout.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tests/unit/test.h"
#include "core/verify/verify_shared.h"

int main(void)
{
	long size = sysconf(_SC_PAGESIZE);
	FILE *f = tmpfile();
	unsigned char *map;
	int out[4];
	char d[512];

	if (!f || ftruncate(fileno(f), 2 * size) || pwrite(fileno(f), "x", 1, 7) != 1)
		return 1;
	map = mmap(NULL, 4 * size, PROT_READ, MAP_SHARED, fileno(f), 0);
	if (map == MAP_FAILED)
		return 1;
	CHECK(vk_vvar_pages(map, 4, out) == 0, "the planted mapping's pages are read");
	CHECK(out[0] == VK_VVAR_DATA && out[1] == VK_VVAR_ZERO && out[2] == SIGBUS && out[3] == SIGBUS,
	      "data, zeros, then SIGBUS past the file's end: %d %d %d %d", out[0], out[1], out[2], out[3]);

	CHECK(vk_vvar_judge(1, out, 4, d, sizeof(d)) == VK_FAIL && strstr(d, "pages 2, 3 of 4") &&
	      strstr(d, "43648f9f3a67"), "a SIGBUS fails on 7.3, naming the pages and the commit: %s", d);
	CHECK(vk_vvar_judge(0, out, 4, d, sizeof(d)) == VK_SKIP && strstr(d, "before 7.3"),
	      "before 7.3 it is a SKIP that says so: %s", d);
	CHECK(vk_vvar_judge(1, out, 2, d, sizeof(d)) == VK_PASS && strstr(d, "all 2 pages") &&
	      strstr(d, "1 of them zeroed"), "pages that all read pass, counting the zeroed: %s", d);
	mprotect(map, size, PROT_NONE);
	CHECK(vk_vvar_pages(map, 1, out) == 0 && out[0] == SIGSEGV &&
	      vk_vvar_judge(0, out, 1, d, sizeof(d)) == VK_FAIL && strstr(d, "another signal"),
	      "a page that kills its reader otherwise fails on any kernel: %s", d);
	munmap(map, 4 * size);
	fclose(f);
	return test_exit();
}

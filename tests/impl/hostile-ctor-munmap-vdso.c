// SPDX-License-Identifier: MIT
/* The constructor unmaps the kernel's vDSO from the process that loads it. */
#include <stdio.h>
#include <string.h>

#include "impl.h"

__attribute__((constructor)) static void hostile_ctor(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	unsigned long start, end;
	char line[256];

	while (f && fgets(line, sizeof(line), f)) {
		if (strstr(line, "[vdso]") && sscanf(line, "%lx-%lx", &start, &end) == 2)
			munmap((void *)start, end - start);
	}
	if (f)
		fclose(f);
}

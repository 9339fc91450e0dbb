// SPDX-License-Identifier: MIT
/*
 * The correct implementation, whose loading makes the kernel log an
 * emergency (level 0, through /dev/kmsg): the console line that would
 * land in `vdsokit vm`'s frames if /init let emergencies through
 * (tests/cases/vm.sh). Only inside vm's guest (vdsokit.vm=1 on the
 * kernel command line), never on a host's console.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "impl.h"

#define EMERGENCY "<0>vdsokit-test: an emergency while a command runs\n"

static int in_vm_guest(void)
{
	char line[1024];
	int fd = open("/proc/cmdline", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, line, sizeof(line) - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return 0;
	line[n] = '\0';
	return strstr(line, "vdsokit.vm=1") != NULL;
}

__attribute__((constructor)) static void emergency(void)
{
	int fd = in_vm_guest() ? open("/dev/kmsg", O_WRONLY) : -1;
	ssize_t n;

	if (fd < 0)
		return;
	/* One not written is missing from the console log: the test says so. */
	n = write(fd, EMERGENCY, strlen(EMERGENCY));
	close(fd);
	(void)n;
}

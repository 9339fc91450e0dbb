// SPDX-License-Identifier: MIT
/*
 * Just enough of QMP, qemu's machine protocol (JSON lines on a unix
 * socket), to stop a guest and let it go on: a greeting, then
 * qmp_capabilities, stop and cont, each answered by a "return" line;
 * lines of events may come between.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "core/base/isolate.h"
#include "core/vm/vm.h"

/* How long qemu may take to answer. */
#define QMP_WAIT_MS 10000

/* Read until a line holding want; -1 on an error, a timeout or EOF. */
static int await(int fd, const char *want)
{
	char buf[4096];
	size_t n = 0;

	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		ssize_t got;
		char *nl;

		if (poll(&p, 1, QMP_WAIT_MS) <= 0)
			return -1;
		got = read(fd, buf + n, sizeof(buf) - 1 - n);
		if (got <= 0)
			return -1;
		n += got;
		buf[n] = '\0';
		while ((nl = strchr(buf, '\n'))) {
			*nl = '\0';
			if (strstr(buf, want))
				return 0;
			n -= nl + 1 - buf;
			memmove(buf, nl + 1, n + 1);
		}
		if (n == sizeof(buf) - 1)
			n = 0;	/* a line too long to be an answer */
	}
}

static int execute(int fd, const char *cmd)
{
	char line[96];
	int n = snprintf(line, sizeof(line), "{\"execute\": \"%s\"}\n", cmd);

	return vk_write_all(fd, line, n) || await(fd, "\"return\"");
}

int vk_vm_qmp_pause(const char *path, double seconds, char *err, size_t len)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct timespec ts = { (time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9) };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), bad;

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		snprintf(err, len, "QMP %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	bad = await(fd, "\"QMP\"") || execute(fd, "qmp_capabilities") || execute(fd, "stop");
	while (!bad && nanosleep(&ts, &ts) && errno == EINTR)
		;
	/* Let it go on whatever became of stop. */
	bad |= execute(fd, "cont");
	close(fd);
	if (bad)
		snprintf(err, len, "QMP %s: qemu did not answer", path);
	return bad ? -1 : 0;
}

// SPDX-License-Identifier: MIT
/*
 * What /proc/self/timens_offsets refuses, each with the errno the kernel
 * gives (time_namespaces(7); LTP's timens01 checks the same): a line it
 * cannot read, a clock other than MONOTONIC and BOOTTIME, an offset out
 * of range, and any write once a process has entered the namespace. A
 * refused write changes nothing, not even its valid first line.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/base/children.h"
#include "core/base/isolate.h"
#include "core/timens/timens_check.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

static const struct refusal {
	const char *name, *line;
	int err;
} refusals[] = {
	{ "malformed", "an offset", EINVAL },
	{ "no-nsec", "monotonic 5", EINVAL },
	{ "negative-nsec", "boottime 5 -1", EINVAL },
	{ "nsec-past-1s", "monotonic 5 1000000000", EINVAL },
	{ "realtime", "0 5 0", EINVAL },
	{ "bad-second-line", "monotonic 5 0\nx", EINVAL },
	{ "past-ktime-max", "boottime 9223372037 0", ERANGE },
	{ "clock-below-0", "monotonic -9223372036 0", ERANGE },
	{ "after-entry", "monotonic 5 0", EACCES },	/* last: a child enters first */
};
#define NREFUSALS ARRAY_SIZE(refusals)

struct answers {
	int unshare_err;
	int err[NREFUSALS];	/* the write's errno, 0 if it was taken */
	char inherited[128];	/* what the file said before them: the maker's */
	char offsets[128];	/* what the file said after the refusals */
};

static int write_line(const char *line)
{
	int fd = open("/proc/self/timens_offsets", O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, line, strlen(line)) < 0)
		err = errno;
	close(fd);
	return err;
}

static void read_offsets(char *buf, size_t len)
{
	int fd = open("/proc/self/timens_offsets", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);

	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
}

static void refuse(void *ctx, int fd)
{
	struct answers a = { 0 };
	int status;
	pid_t pid;

	(void)ctx;
	a.unshare_err = unshare(CLONE_NEWTIME) ? errno : 0;
	read_offsets(a.inherited, sizeof(a.inherited));
	for (size_t i = 0; !a.unshare_err && i < NREFUSALS; i++) {
		if (i == NREFUSALS - 1) {
			read_offsets(a.offsets, sizeof(a.offsets));
			/* A child in the namespace freezes its offsets. */
			pid = vk_fork();
			if (pid == 0)
				_exit(0);
			if (pid > 0)
				vk_waitpid(pid, &status, 0);
		}
		a.err[i] = write_line(refusals[i].line);
	}
	vk_write_all(fd, &a, sizeof(a));
}

/* The line as C would write it: its newline as \n. */
static void shown(char *buf, size_t len, const char *line)
{
	size_t n = 0;

	for (; *line && n + 3 < len; line++) {
		if (*line == '\n') {
			buf[n++] = '\\';
			buf[n++] = 'n';
		} else {
			buf[n++] = *line;
		}
	}
	buf[n] = '\0';
}

static const char *err_name(int err)
{
	return err == 0 ? "nothing (it was taken)" : strerror(err);
}

void vk_timens_refusals(struct vk_results *rs)
{
	struct vk_isolated out;
	struct vk_result *r;
	struct answers a;
	char check[48], line[64], why[96];
	int ran = !vk_isolate(refuse, NULL, 10, &out);

	if (ran && out.len == sizeof(a))
		memcpy(&a, out.data, sizeof(a));
	else if (ran)
		vk_isolated_describe(&out, 10, why, sizeof(why));
	else
		snprintf(why, sizeof(why), "could not be forked: %s", strerror(errno));
	for (size_t i = 0; i < NREFUSALS; i++) {
		snprintf(check, sizeof(check), "refuses-%s", refusals[i].name);
		r = vk_results_add(rs, "timens", VK_PATH_SYSCALL, check);
		r->calls = 1;
		shown(line, sizeof(line), refusals[i].line);
		if (!ran || out.len != sizeof(a))
			vk_result_error(rs, r, "not tested: the child that writes the offsets %s", why);
		else if (a.unshare_err)
			vk_result_skip(r, "unshare(CLONE_NEWTIME): %s", strerror(a.unshare_err));
		else if (a.err[i] != refusals[i].err)
			vk_result_fail(rs, r, "writing \"%s\" gave %s, not %s", line, err_name(a.err[i]),
				       strerror(refusals[i].err));
	}
	r = vk_results_add(rs, "timens", VK_PATH_SYSCALL, "refusals-change-nothing");
	r->calls = 1;
	if (!ran || out.len != sizeof(a))
		vk_result_error(rs, r, "not tested: the child that writes the offsets %s", why);
	else if (a.unshare_err)
		vk_result_skip(r, "unshare(CLONE_NEWTIME): %s", strerror(a.unshare_err));
	else if (!*a.inherited || strcmp(a.inherited, a.offsets))
		vk_result_fail(rs, r, "the refused writes changed the offsets: \"%s\", inherited as \"%s\"",
			       a.offsets, a.inherited);
	if (ran)
		vk_isolated_free(&out);
}

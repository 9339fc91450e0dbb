// SPDX-License-Identifier: MIT
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/base/children.h"
#include "core/timens/timens.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

const char *vk_timens_unsupported(void)
{
	if (access("/proc/self/timens_offsets", F_OK))
		return "the kernel has no time namespaces (CONFIG_TIME_NS) or /proc is not mounted";
	return NULL;
}

static long long now_sec(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec;
}

static void set(struct vk_timens_set *s, const char *name, long long mono, long long boot)
{
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->mono = mono;
	s->boot = boot;
}

/*
 * The kernel refuses an offset that would make a clock negative, so the
 * most negative offsets leave each clock at one second; 2^31 s is where
 * a 32-bit tv_sec overflows.
 */
int vk_timens_default_sets(struct vk_timens_set *sets, int max)
{
	long long mono = now_sec(CLOCK_MONOTONIC), boot = now_sec(CLOCK_BOOTTIME);
	const long long y2038 = 1ll << 31;
	int n = 0;

	if (max < 4)
		return 0;
	set(&sets[n++], "small", 1000, 2000);
	set(&sets[n++], "near-2^31", y2038 - 60 - mono, y2038 - 60 - boot);
	set(&sets[n++], "past-2^31", y2038 + 3600 - mono, y2038 + 3600 - boot);
	set(&sets[n++], "most-negative", 1 - mono, 1 - boot);
	return n;
}

struct outer {
	const struct vk_timens_set *set;
	void (*fn)(void *ctx, int fd);
	void *ctx;
};

/* The offsets must be written before any task enters the namespace. */
static int write_offsets(const struct vk_timens_set *s)
{
	char buf[96];
	int n = snprintf(buf, sizeof(buf), "monotonic %lld 0\nboottime %lld 0\n", s->mono, s->boot);
	FILE *f = fopen("/proc/self/timens_offsets", "we");
	int ok;

	if (!f)
		return -errno;
	ok = fwrite(buf, 1, n, f) == (size_t)n;
	if (fclose(f) || !ok)
		return -(errno ? errno : EIO);
	return 0;
}

/*
 * In the first child: make the namespace (for its children), then fork
 * the child that lives in it. It writes a status word first: 0, or the
 * errno of unshare() (positive) or of writing the offsets (negative).
 */
static void outer(void *ctx, int fd)
{
	struct outer *o = ctx;
	int status = 0;
	pid_t pid;

	if (unshare(CLONE_NEWTIME))
		status = errno;
	else
		status = write_offsets(o->set);
	vk_write_all(fd, &status, sizeof(status));
	if (status)
		return;
	pid = vk_fork();
	if (pid == 0) {
		o->fn(o->ctx, fd);
		_exit(0);
	}
	while (pid > 0 && vk_waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}

int vk_timens_isolate(const struct vk_timens_set *set, void (*fn)(void *ctx, int fd), void *ctx,
		      double timeout, struct vk_isolated *out, char *why, size_t len, int *err)
{
	struct outer o = { set, fn, ctx };
	int status;

	*err = 0;
	if (vk_isolate(outer, &o, timeout, out)) {
		snprintf(why, len, "could not fork");
		return -1;
	}
	if (out->len < sizeof(status)) {
		vk_isolated_describe(out, timeout, why, len);
		vk_isolated_free(out);
		return -1;
	}
	memcpy(&status, out->data, sizeof(status));
	if (status > 0) {
		*err = status;
		snprintf(why, len, "unshare(CLONE_NEWTIME): %s%s", strerror(status),
			 status == EPERM ? " (needs CAP_SYS_TIME)" : "");
	} else if (status < 0) {
		*err = -status;
		snprintf(why, len, "writing the offsets %lld, %lld: %s", set->mono, set->boot,
			 strerror(-status));
	}
	if (status) {
		vk_isolated_free(out);
		return -1;
	}
	/* Drop the status word: the rest is what fn wrote. */
	memmove(out->data, out->data + sizeof(status), out->len - sizeof(status));
	out->len -= sizeof(status);
	return 0;
}

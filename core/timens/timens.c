// SPDX-License-Identifier: MIT
/*
 * Running code in a new time namespace with given offsets, and the
 * default sets of offsets timens checks (timens.h).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/base/children.h"
#include "core/base/sysinfo.h"
#include "core/timens/timens.h"
#include "core/timens/timens_rules.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

const char *vk_timens_unsupported(void)
{
	static struct vk_sysinfo si;

	if (access("/proc/self/timens_offsets", F_OK) == 0)
		return NULL;
	/* Which: /proc is not mounted, or the kernel has no time namespaces. */
	vk_sysinfo_read(&si);
	return si.timens_kernel == VK_YES ? "/proc/self/timens_offsets is missing" : si.timens_note;
}

#define NSEC 1000000000LL

void vk_timens_read_offsets(int64_t ns[2])
{
	static const char *const names[2] = { "monotonic", "boottime" };
	FILE *f = fopen("/proc/self/timens_offsets", "re");
	char name[16];
	long long sec, nsec;

	ns[0] = ns[1] = VK_TIMENS_NONE;
	while (f && fscanf(f, "%15s %lld %lld", name, &sec, &nsec) == 3) {
		for (int k = 0; k < 2; k++) {
			if (!strcmp(name, names[k]))
				ns[k] = sec * NSEC + nsec;
		}
	}
	if (f)
		fclose(f);
}

static int64_t now_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * NSEC + ts.tv_nsec;
}

static void set(struct vk_timens_set *s, const char *name, int64_t mono, int64_t boot)
{
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->mono_ns = mono;
	s->boot_ns = boot;
}

/*
 * The kernel refuses an offset that would make a clock negative, so the
 * most negative offsets leave each clock at one second, to the ns; 2^31 s
 * is where a 32-bit tv_sec overflows. "fraction" has offsets of part of a
 * second either way: the kernel takes seconds and nanoseconds.
 */
int vk_timens_default_sets(struct vk_timens_set *sets, int max)
{
	int64_t mono = now_ns(CLOCK_MONOTONIC), boot = now_ns(CLOCK_BOOTTIME);
	const int64_t y2038 = (1ll << 31) * NSEC;
	int n = 0;

	if (max < VK_TIMENS_NSETS)
		return 0;
	set(&sets[n++], "small", 1000 * NSEC, 2000 * NSEC);
	set(&sets[n++], "fraction", -NSEC / 2 - 1, NSEC + 1);
	set(&sets[n++], "near-2^31", (y2038 - 60 * NSEC - mono) / NSEC * NSEC,
	    (y2038 - 60 * NSEC - boot) / NSEC * NSEC);
	set(&sets[n++], "past-2^31", (y2038 + 3600 * NSEC - mono) / NSEC * NSEC,
	    (y2038 + 3600 * NSEC - boot) / NSEC * NSEC);
	set(&sets[n++], "most-negative", NSEC - mono, NSEC - boot);
	return n;
}

struct outer {
	const struct vk_timens_set *set;
	void (*fn)(void *ctx, int fd);
	void *ctx;
	int inside;		/* fn runs in a child inside, else in the maker */
};

/* The offsets must be written before any task enters the namespace, as
 * the kernel takes them: seconds (floored) and 0 to 999999999 ns, on top
 * of those it inherited (vdsokit's own namespace's, in a container). */
static int write_offsets(const struct vk_timens_set *s)
{
	int64_t base[2], mono, boot, ms, bs;
	char buf[128];
	FILE *f;
	int n, ok;

	vk_timens_read_offsets(base);
	if (base[0] == VK_TIMENS_NONE || base[1] == VK_TIMENS_NONE)
		return -(errno ? errno : EIO);
	if (__builtin_add_overflow(base[0], s->mono_ns, &mono) ||
	    __builtin_add_overflow(base[1], s->boot_ns, &boot))
		return -ERANGE;
	ms = vk_timens_floor_sec(mono);
	bs = vk_timens_floor_sec(boot);
	n = snprintf(buf, sizeof(buf), "monotonic %lld %lld\nboottime %lld %lld\n", (long long)ms,
		     (long long)(mono - ms * NSEC), (long long)bs, (long long)(boot - bs * NSEC));
	f = fopen("/proc/self/timens_offsets", "we");
	if (!f)
		return -errno;
	ok = fwrite(buf, 1, n, f) == (size_t)n;
	if (fclose(f) || !ok)
		return -(errno ? errno : EIO);
	return 0;
}

/*
 * In the first child: make the namespace (for its children), then fork
 * the child that lives in it, or run fn here, outside it. It writes a
 * status word first: 0, or the errno of unshare() (positive) or of
 * writing the offsets (negative).
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
	if (!o->inside) {
		o->fn(o->ctx, fd);
		return;
	}
	pid = vk_fork();
	if (pid == 0) {
		o->fn(o->ctx, fd);
		_exit(0);
	}
	while (pid > 0 && vk_waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}

/* Why the kernel refused the set's offsets; with ERANGE, its bounds now. */
static void refused(const struct vk_timens_set *s, int err, char *why, size_t len)
{
	char m[32], b[32], bounds[256] = "";

	if (err == ERANGE)
		vk_timens_bounds_said(bounds, sizeof(bounds), now_ns(CLOCK_MONOTONIC),
				      now_ns(CLOCK_BOOTTIME));
	snprintf(why, len, "writing the offsets %s s, %s s: %s%s%s%s",
		 vk_timens_seconds(m, sizeof(m), s->mono_ns),
		 vk_timens_seconds(b, sizeof(b), s->boot_ns), strerror(err),
		 err == EPERM ? " (needs CAP_SYS_TIME)" : "", *bounds ? ": " : "", bounds);
}

static int isolate(struct outer *o, double timeout, struct vk_isolated *out, char *why,
		   size_t len, int *err)
{
	const struct vk_timens_set *set = o->set;
	int status;

	*err = 0;
	if (vk_isolate(outer, o, timeout, out)) {
		vk_isolate_failure(out, why, len);
		return VK_TIMENS_NOT_RUN;
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
			 status == EPERM ? " (needs CAP_SYS_ADMIN)" : "");
	} else if (status < 0) {
		*err = -status;
		refused(set, -status, why, len);
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

int vk_timens_isolate(const struct vk_timens_set *set, void (*fn)(void *ctx, int fd), void *ctx,
		      double timeout, struct vk_isolated *out, char *why, size_t len, int *err)
{
	struct outer o = { set, fn, ctx, 1 };

	return isolate(&o, timeout, out, why, len, err);
}

int vk_timens_isolate_maker(const struct vk_timens_set *set, void (*fn)(void *ctx, int fd),
			    void *ctx, double timeout, struct vk_isolated *out, char *why,
			    size_t len, int *err)
{
	struct outer o = { set, fn, ctx, 0 };

	return isolate(&o, timeout, out, why, len, err);
}

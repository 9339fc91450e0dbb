// SPDX-License-Identifier: MIT
/*
 * Calls x86_64's legacy vsyscall page safely, and reads its mode, so that
 * verify can check the path old static binaries still take (vsyscall.h).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/base/isolate.h"
#include "core/call/vsyscall.h"

#define READ_TIMEOUT 5.0

/* The page's mode as /proc/self/maps shows it. */
static enum vk_vsyscall_mode maps_mode(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	enum vk_vsyscall_mode m = VK_VSYSCALL_ABSENT;
	char line[512];

	if (!f)
		return VK_VSYSCALL_UNKNOWN;
	while (fgets(line, sizeof(line), f)) {
		char perms[8];

		if (!strstr(line, "[vsyscall]") || sscanf(line, "%*s %7s", perms) != 1)
			continue;
		m = perms[0] == 'r' ? VK_VSYSCALL_EMULATE : VK_VSYSCALL_XONLY;
		break;
	}
	fclose(f);
	return m;
}

const char *vk_vsyscall_mode_name(enum vk_vsyscall_mode m)
{
	static const char *const names[] = {
		[VK_VSYSCALL_UNKNOWN] = "unknown",
		[VK_VSYSCALL_ABSENT] = "none",
		[VK_VSYSCALL_XONLY] = "xonly",
		[VK_VSYSCALL_EMULATE] = "emulate",
	};

	return names[m];
}

/* Why this build calls no function through the page, or NULL if it can. */
static const char *unbuilt(void)
{
#if defined(__x86_64__) && !defined(__ILP32__)
	return NULL;
#elif defined(__x86_64__)
	return "x32 has no vsyscall page: the kernel maps it for 64-bit processes only";
#elif defined(__i386__)
	return "i386 has no vsyscall page: the kernel maps it for 64-bit processes only";
#else
	return "no vsyscall page: only x86_64 has one";
#endif
}

const char *vk_vsyscall_missing(enum vk_vsyscall_mode *mode)
{
	const char *why = unbuilt();

	*mode = why ? VK_VSYSCALL_ABSENT : maps_mode();
	if (why)
		return why;
	if (*mode == VK_VSYSCALL_ABSENT)
		return "no vsyscall page: the kernel runs with vsyscall=none "
		       "(no [vsyscall] in /proc/self/maps)";
	if (*mode == VK_VSYSCALL_UNKNOWN)
		return "no /proc/self/maps to tell whether there is a vsyscall page";
	return NULL;
}

static int read_fd;

/* The fault is the answer: caught, so that no core is dumped for it. */
static void on_fault(int sig)
{
	(void)sig;
	vk_write_all(read_fd, "n", 1);
	_exit(0);
}

/* In the child: read the page's first byte, which xonly answers with SIGSEGV. */
static void read_page(void *ctx, int fd)
{
	volatile const unsigned char *page = ctx;

	read_fd = fd;
	signal(SIGSEGV, on_fault);
	(void)*page;	/* volatile: read, though its value is not wanted */
	vk_write_all(fd, "y", 1);
}

static enum vk_tristate probe_read(void)
{
	struct vk_isolated out;
	enum vk_tristate r = VK_UNKNOWN;

	if (vk_isolate(read_page, vk_vsyscall_entry(VK_FN_GETTIMEOFDAY), READ_TIMEOUT, &out))
		return r;
	if (out.exited && out.len == 1)
		r = out.data[0] == 'y' ? VK_YES : VK_NO;
	vk_isolated_free(&out);
	return r;
}

static const char *read_said(enum vk_tristate r)
{
	return r == VK_YES ? "a read of it succeeds" : r == VK_NO ?
	       "a read of it is SIGSEGV" : "what a read of it does is unknown (the probe failed)";
}

void vk_vsyscall_read(struct vk_vsyscall *v)
{
	const char *why = vk_vsyscall_missing(&v->mode);

	v->readable = VK_UNKNOWN;
	if (why) {
		snprintf(v->note, sizeof(v->note), "%s", why);
		return;
	}
	v->readable = probe_read();
	snprintf(v->note, sizeof(v->note), "[vsyscall] %s: each call faults into the kernel, "
		 "which emulates the syscall (seccomp sees it); %s",
		 v->mode == VK_VSYSCALL_XONLY ? "--xp" : "r-xp", read_said(v->readable));
}

void *vk_vsyscall_entry(enum vk_func f)
{
#if defined(__x86_64__) && !defined(__ILP32__)
	if (vk_funcs[f].vsyscall >= 0)
		return (void *)(VK_VSYSCALL_ADDR + vk_funcs[f].vsyscall);
#endif
	(void)f;
	return NULL;
}

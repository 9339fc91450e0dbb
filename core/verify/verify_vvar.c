// SPDX-License-Identifier: MIT
/*
 * The vvar-pages rule: every page of the vDSO's data mapping ([vvar])
 * reads. Linux 7.3 maps a zeroed page where the kernel has no data for
 * one (43648f9f3a67: the time namespace's page outside a namespace, the
 * arch's pages where it has none); before, such a read raised SIGBUS.
 * Each page is read in a child of its own, so a SIGBUS ends only it.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/verify/verify_shared.h"

/* In a child: whether the page has a byte other than 0. */
static int read_page(const volatile unsigned char *page, long size)
{
	int data = 0;

	for (long i = 0; i < size; i++)
		data |= page[i] != 0;
	return data;
}

int vk_vvar_pages(const unsigned char *base, size_t npages, int *outcome)
{
	long size = sysconf(_SC_PAGESIZE);

	for (size_t i = 0; i < npages; i++) {
		int status;
		pid_t pid = fork();

		if (pid < 0)
			return -1;
		if (pid == 0)
			_exit(read_page(base + i * size, size));
		if (waitpid(pid, &status, 0) != pid)
			return -1;
		outcome[i] = WIFSIGNALED(status) ? WTERMSIG(status) :
			     WEXITSTATUS(status) ? VK_VVAR_DATA : VK_VVAR_ZERO;
	}
	return 0;
}

/* The pages whose outcome is sig (0: any signal), "1, 3", into buf. */
static size_t pages_killed(char *buf, size_t len, const int *outcome, size_t n, int sig)
{
	size_t count = 0, at = 0;

	*buf = '\0';
	for (size_t i = 0; i < n; i++) {
		if (outcome[i] <= 0 || (sig && outcome[i] != sig))
			continue;
		if (at < len)
			at += snprintf(buf + at, len - at, "%s%zu", count ? ", " : "", i);
		count++;
	}
	return count;
}

enum vk_status vk_vvar_judge(int promised, const int *outcome, size_t n, char *detail, size_t len)
{
	char bus[96], other[96];
	size_t nbus = pages_killed(bus, sizeof(bus), outcome, n, SIGBUS), zero = 0;

	for (size_t i = 0; i < n; i++)
		zero += outcome[i] == VK_VVAR_ZERO;
	if (pages_killed(other, sizeof(other), outcome, n, 0) > nbus) {
		snprintf(detail, len, "a page of [vvar] killed its reader with another signal than SIGBUS (pages %s)",
			 other);
		return VK_FAIL;
	}
	if (!nbus) {
		snprintf(detail, len, "all %zu pages of [vvar] read, %zu of them zeroed (no data there)", n,
			 zero);
		return VK_PASS;
	}
	snprintf(detail, len, "page%s %s of %zu in [vvar] raised SIGBUS%s", nbus == 1 ? "" : "s", bus,
		 n, promised ? ": Linux 7.3 and later map a zeroed page where data is unavailable (43648f9f3a67)"
			     : ", as kernels before 7.3 do where data is unavailable; 7.3 maps a zeroed page (43648f9f3a67)");
	return promised ? VK_FAIL : VK_SKIP;
}

/* [vvar]'s start and its pages, from /proc/self/maps: 0, or -1. */
static int find_vvar(unsigned char **base, size_t *npages)
{
	char line[512];
	unsigned long start, end;
	FILE *f = fopen("/proc/self/maps", "re");
	int found = -1;

	while (f && found && fgets(line, sizeof(line), f)) {
		char *name = strrchr(line, ' ');

		if (name && !strcmp(name, " [vvar]\n") && sscanf(line, "%lx-%lx", &start, &end) == 2) {
			*base = (unsigned char *)start;
			*npages = (end - start) / (unsigned long)sysconf(_SC_PAGESIZE);
			found = 0;
		}
	}
	if (f)
		fclose(f);
	return found;
}

void vk_verify_vvar(struct vk_verify *v, const struct vk_target *t)
{
	int outcome[VK_VVAR_MAX_PAGES];
	char name[40], detail[sizeof(((struct vk_result *)0)->detail)];
	struct vk_result *r;
	struct utsname u;
	unsigned char *base;
	size_t n;
	enum vk_status st;

	vk_target_name(name, sizeof(name), t);
	r = vk_results_add(v->rs, name, VK_PATH_VDSO, "vvar-pages");
	if (find_vvar(&base, &n)) {
		vk_result_skip(r, "no [vvar] mapping in /proc/self/maps: the vDSO's data is mapped otherwise here");
		return;
	}
	if (n > VK_VVAR_MAX_PAGES)
		n = VK_VVAR_MAX_PAGES;
	if (vk_vvar_pages(base, n, outcome)) {
		vk_result_error(v->rs, r, "could not fork or wait for a child to read a [vvar] page");
		return;
	}
	r->calls = n;
	/* The release that maps zeroed pages (43648f9f3a67) also prefaults
	 * them on mlockall() (c27e727c9a60): 7.3. */
	st = vk_vvar_judge(!uname(&u) && vk_mlock_promised(u.release), outcome, n, detail,
			   sizeof(detail));
	if (st == VK_FAIL)
		vk_result_fail(v->rs, r, "%s", detail);
	else if (st == VK_SKIP)
		vk_result_skip(r, "%s", detail);
	else
		snprintf(r->detail, sizeof(r->detail), "%s", detail);
}

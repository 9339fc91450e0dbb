// SPDX-License-Identifier: MIT
/*
 * How far a guest has run, seen from the host: the CPU time of qemu's
 * busiest thread. Under TCG the guest's clocks follow the host's, so a
 * qemu that the host starves (a loaded machine, a SIGSTOP) sees its
 * guest's time pass while its vCPUs do nothing; its threads' CPU time
 * stops with them. The busiest thread, not their sum: a guest busy on
 * every vCPU runs as far in a second as one busy on one. The time a
 * thread waited for a CPU (schedstat's run_delay) is how far the host
 * disturbed the guest.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/isolate.h"
#include "core/vm/vm.h"

/* utime + stime of /proc/PID/task/TID/stat, in clock ticks; 0 if gone. */
static unsigned long long thread_ticks(pid_t pid, int tid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, tid);
	return vk_stat_ticks(path);
}

/* Nanoseconds TID waited for a CPU, schedstat's second field; 0 if gone,
 * ~0 where the kernel keeps no schedstat. */
static unsigned long long thread_waited(pid_t pid, int tid)
{
	unsigned long long on, waited = ~0ull;
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", (int)pid, tid);
	f = fopen(path, "re");
	if (!f)
		return access(path, F_OK) ? 0 : ~0ull;
	if (fscanf(f, "%llu %llu", &on, &waited) != 2)
		waited = ~0ull;
	fclose(f);
	return waited;
}

/* Call fn for each thread of pid; -1 if /proc cannot list them. */
static int each_thread(pid_t pid, void (*fn)(void *ctx, int tid), void *ctx)
{
	char path[32];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		if (d->d_name[0] != '.')
			fn(ctx, atoi(d->d_name));
	}
	closedir(dir);
	return 0;
}

static void note(void *ctx, int tid)
{
	struct vk_vm_progress *p = ctx;

	if (p->n < VK_VM_MAX_THREADS) {
		p->tid[p->n] = tid;
		p->waited[p->n] = thread_waited(p->pid, tid);
		p->ticks[p->n++] = thread_ticks(p->pid, tid);
	}
}

void vk_vm_progress_start(struct vk_vm_progress *p, pid_t pid)
{
	p->pid = pid;
	p->n = 0;
	each_thread(pid, note, p);
}

struct busiest {
	const struct vk_vm_progress *p;
	unsigned long long most;
};

/* tid's place among the threads at the start, or -1: one started since,
 * whose time is all since. */
static int at_start(const struct vk_vm_progress *p, int tid)
{
	for (int i = 0; i < p->n; i++) {
		if (p->tid[i] == tid)
			return i;
	}
	return -1;
}

static void compare(void *ctx, int tid)
{
	struct busiest *b = ctx;
	int i = at_start(b->p, tid);
	unsigned long long now = thread_ticks(b->p->pid, tid), then = i < 0 ? 0 : b->p->ticks[i];

	if (now > then && now - then > b->most)
		b->most = now - then;
}

double vk_vm_progress_ran(const struct vk_vm_progress *p)
{
	struct busiest b = { p, 0 };

	if (each_thread(p->pid, compare, &b))
		return -1;
	return (double)b.most / sysconf(_SC_CLK_TCK);
}

struct most_waited {
	const struct vk_vm_progress *p;
	unsigned long long most;
	int unknown;
};

static void compare_waited(void *ctx, int tid)
{
	struct most_waited *m = ctx;
	int i = at_start(m->p, tid);
	unsigned long long now = thread_waited(m->p->pid, tid), then = i < 0 ? 0 : m->p->waited[i];

	if (now == ~0ull || then == ~0ull)
		m->unknown = 1;
	else if (now > then && now - then > m->most)
		m->most = now - then;
}

double vk_vm_progress_waited(const struct vk_vm_progress *p)
{
	struct most_waited m = { p, 0, 0 };

	if (each_thread(p->pid, compare_waited, &m) || m.unknown)
		return -1;
	return m.most / 1e9;
}

int vk_vm_host_disturbed(const struct vk_vm_host *h, long cpus)
{
	return h->load > cpus || (h->waited >= 0 && h->waited > h->wall / 10);
}

int vk_vm_overdue(double wall, double ran, double limit)
{
	/* Where /proc tells nothing, the clock alone. */
	if (ran < 0)
		return wall >= limit ? VK_VM_OVERDUE_WALL : 0;
	if (ran >= limit)
		return VK_VM_OVERDUE_RAN;
	return wall >= VK_VM_BACKSTOP * limit ? VK_VM_OVERDUE_WALL : 0;
}

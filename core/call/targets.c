// SPDX-License-Identifier: MIT
/* Which clocks and functions a command tests, and their API names. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/base/children.h"
#include "core/call/targets.h"

/* <linux/posix-timers.h>: CPU-time clocks of a pid or tid, fd clocks. */
#define CPUCLOCK_SCHED 2
#define CPUCLOCK_PERTHREAD 4
#define CLOCKFD 3
#define MAKE_CPUCLOCK(pid, clock) ((int)(~(unsigned)(pid) << 3) | (clock))

void vk_clock_api(char *buf, size_t len, enum vk_func f, const struct vk_clock *c)
{
	const char *prefix = vk_funcs[f].shape == VK_SHAPE_CLOCK_TS ? vk_funcs[f].api : "";

	snprintf(buf, len, "%s%s", prefix, c->name);
}

static void add(struct vk_clock *clocks, int *n, int max, int id, const char *name)
{
	if (*n >= max)
		return;
	clocks[*n].id = id;
	snprintf(clocks[*n].name, sizeof(clocks[*n].name), "%s", name);
	(*n)++;
}

/* A pid that existed and is gone: a reaped child's. */
static pid_t dead_pid(void)
{
	pid_t pid = vk_fork();

	if (pid == 0)
		_exit(0);
	if (pid > 0)
		vk_waitpid(pid, NULL, 0);
	return pid > 0 ? pid : INT_MAX / 8;
}

/* The clock ids beyond 0-31 and -1 that every run tries, by the names
 * results give them, which vk_clock_parse() takes back. */
static const char *const specials[] = {
	"cpu:self", "cpu:thread", "cpu:dead-pid", "fd:closed", "id:INT_MIN", "id:INT_MAX",
};
#define NSPECIALS (int)ARRAY_SIZE(specials)

static clockid_t special_id(int i)
{
	int fd;

	switch (i) {
	case 0:
		return MAKE_CPUCLOCK(getpid(), CPUCLOCK_SCHED);
	case 1:
		return MAKE_CPUCLOCK(gettid(), CPUCLOCK_SCHED | CPUCLOCK_PERTHREAD);
	case 2:
		return MAKE_CPUCLOCK(dead_pid(), CPUCLOCK_SCHED);
	case 3:
		/* An fd clock of an fd that was open and is now closed. */
		fd = dup(0);
		if (fd >= 0)
			close(fd);
		return MAKE_CPUCLOCK(fd < 0 ? 1000 : fd, CLOCKFD);
	case 4:
		return INT_MIN;
	default:
		return INT_MAX;
	}
}

static int special_index(const char *name)
{
	for (int i = 0; i < NSPECIALS; i++) {
		if (strcmp(name, specials[i]) == 0)
			return i;
	}
	return -1;
}

int vk_clocks_all(struct vk_clock *clocks, int max)
{
	int n = 0;
	char name[24];

	for (int id = 0; id < 32; id++) {
		const char *named = vk_clock_name(id);

		snprintf(name, sizeof(name), "id:%d", id);
		add(clocks, &n, max, id, named ? named : name);
	}
	add(clocks, &n, max, -1, "id:-1");
	for (int i = 0; i < NSPECIALS; i++)
		add(clocks, &n, max, special_id(i), specials[i]);
	return n;
}

int vk_clock_parse(const char *name, struct vk_clock *c)
{
	int special = special_index(name);
	const char *digits;
	char *end;
	long id;

	for (int i = 0; i < 32; i++) {
		const char *named = vk_clock_name(i);

		if (named && strcmp(name, named) == 0) {
			c->id = i;
			snprintf(c->name, sizeof(c->name), "%s", named);
			return 0;
		}
	}
	if (special >= 0) {
		c->id = special_id(special);
		snprintf(c->name, sizeof(c->name), "%s", specials[special]);
		return 0;
	}
	/* Decimal only: strtol() would take " 5", "+5", hex and octal ("010" is 8). */
	if (strncmp(name, "id:", 3) != 0)
		return -1;
	digits = name + 3 + (name[3] == '-');
	if (*digits < '0' || *digits > '9')
		return -1;
	errno = 0;
	id = strtol(name + 3, &end, 10);
	if (*end || errno == ERANGE || id < INT_MIN || id > INT_MAX)
		return -1;
	c->id = id;
	snprintf(c->name, sizeof(c->name), "id:%ld", id);
	return 0;
}

int vk_clock_api_parse(const char *name, enum vk_func *f, struct vk_clock *c)
{
	for (int i = 0; i < VK_NFUNCS; i++) {
		struct vk_clock probe = { .name = "" };
		char prefix[40];
		size_t len;

		if (vk_funcs[i].shape != VK_SHAPE_CLOCK_TS)
			continue;
		vk_clock_api(prefix, sizeof(prefix), i, &probe);
		len = strlen(prefix);
		if (!strncmp(name, prefix, len) && vk_clock_parse(name + len, c) == 0) {
			*f = i;
			return 0;
		}
	}
	return -1;
}

static struct vk_target *target_for(struct vk_target *t, int *n, enum vk_func f)
{
	for (int i = 0; i < *n; i++) {
		if (t[i].func == f)
			return &t[i];
	}
	memset(&t[*n], 0, sizeof(t[*n]));
	t[*n].func = f;
	return &t[(*n)++];
}

int vk_targets_add(struct vk_target *t, int *n, const char *name)
{
	struct vk_target *tg;
	struct vk_clock c;
	enum vk_func f;

	for (f = 0; f < VK_NFUNCS && strcmp(name, vk_funcs[f].name); f++)
		;
	if (f < VK_NFUNCS) {
		tg = target_for(t, n, f);
		if (vk_funcs[f].shape == VK_SHAPE_CLOCK_TS)
			tg->nclocks = vk_clocks_all(tg->clocks, VK_MAX_CLOCKS);
		return 0;
	}
	if (vk_clock_api_parse(name, &f, &c) == 0) {
		tg = target_for(t, n, f);
		if (tg->nclocks == VK_MAX_CLOCKS)
			return -E2BIG;
		tg->clocks[tg->nclocks++] = c;
		return 0;
	}
	return -1;
}

/* Every function of this ABI's class: one the vDSO lacks is still called
 * through libc and the syscall, and its vdso path says why it is skipped. */
int vk_targets_all(struct vk_target *t)
{
	int n = 0;

	for (int f = 0; f < VK_NFUNCS; f++) {
		struct vk_api probe = { .func = f };

		if (vk_api_applies(&probe, sizeof(void *) == 8))
			vk_targets_add(t, &n, vk_funcs[f].name);
	}
	return n;
}

int vk_api_func(const char *api, struct vk_clock *c, int *has_id)
{
	int best = -1;
	size_t best_len = 0;

	c->name[0] = '\0';
	*has_id = 0;
	for (int f = 0; f < VK_NFUNCS; f++) {
		struct vk_clock none = { .name = "" };
		char prefix[40];
		size_t len;

		if (!strcmp(api, vk_funcs[f].name))
			return f;
		if (vk_funcs[f].shape != VK_SHAPE_CLOCK_TS)
			continue;
		vk_clock_api(prefix, sizeof(prefix), f, &none);
		len = strlen(prefix);
		if (len > best_len && !strncmp(api, prefix, len)) {
			best = f;
			best_len = len;
		}
	}
	if (best >= 0) {
		snprintf(c->name, sizeof(c->name), "%s", api + best_len);
		/* cpu:self and the like name a clock, not an id of the table. */
		*has_id = special_index(api + best_len) < 0 && vk_clock_parse(api + best_len, c) == 0;
	}
	return best;
}

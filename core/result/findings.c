// SPDX-License-Identifier: MIT
/*
 * Groups the failed results of every command into findings, so that one
 * cause is reported once however many checks saw it (findings.h).
 */
#include <stdio.h>
#include <string.h>

#include "core/result/findings.h"

static const char *outcome(char *buf, size_t len, long ret)
{
	if (!vk_is_err(ret))
		return "succeeds";
	snprintf(buf, len, "fails with %s", vk_errno_name(-ret));
	return buf;
}

/* What went wrong, in words, and the key that groups it. */
static void describe(const char *command, const struct vk_result *r, const char *fn,
		     char *what, size_t wlen, char *key, size_t klen)
{
	char a[32], b[32];

	if (r->returns && !vk_is_err(r->ret) && !vk_is_err(r->sys_ret)) {
		snprintf(what, wlen, "%s returns other values than the syscall", fn);
		snprintf(key, klen, "%s ret", fn);
	} else if (r->returns) {
		snprintf(what, wlen, "%s %s where the syscall %s", fn, outcome(a, sizeof(a), r->ret),
			 outcome(b, sizeof(b), r->sys_ret));
		snprintf(key, klen, "%s ret %ld %ld", fn, vk_is_err(r->ret) ? r->ret : 0,
			 vk_is_err(r->sys_ret) ? r->sys_ret : 0);
	} else {
		snprintf(what, wlen, "%s breaks %s's %s rule", fn, command, r->check);
		snprintf(key, klen, "%s %s %s", fn, command, r->check);
	}
}

static struct vk_finding *find(struct vk_findings *fs, const char *key)
{
	for (size_t i = 0; i < fs->n; i++) {
		if (!strcmp(fs->f[i].key, key))
			return &fs->f[i];
	}
	if (fs->n == VK_MAX_FINDINGS)
		return NULL;
	memset(&fs->f[fs->n], 0, sizeof(fs->f[0]));
	snprintf(fs->f[fs->n].key, sizeof(fs->f[0].key), "%s", key);
	return &fs->f[fs->n++];
}

/* Clocks with an id go in order into ids; cpu:self and the like in others. */
static void add_clock(struct vk_finding *f, const struct vk_clock *c, int has_id)
{
	size_t used = strlen(f->others);
	int i;

	if (!has_id) {
		if (!strstr(f->others, c->name) && used + strlen(c->name) + 3 < sizeof(f->others))
			snprintf(f->others + used, sizeof(f->others) - used, "%s%s",
				 used ? ", " : "", c->name);
		return;
	}
	for (i = 0; i < f->nids && f->ids[i] < c->id; i++)
		;
	if ((i < f->nids && f->ids[i] == c->id) || f->nids == VK_MAX_CLOCKS)
		return;
	memmove(&f->ids[i + 1], &f->ids[i], (f->nids - i) * sizeof(f->ids[0]));
	f->ids[i] = c->id;
	f->nids++;
}

static void count(struct vk_finding *f, const char *command)
{
	int i;

	f->checks++;
	for (i = 0; i < f->nby && strcmp(f->by[i].command, command); i++)
		;
	if (i == f->nby && f->nby == VK_FINDING_CMDS)
		return;
	if (i == f->nby)
		f->by[f->nby++].command = command;
	f->by[i].checks++;
}

void vk_findings_add(struct vk_findings *fs, const char *command, const struct vk_results *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		const struct vk_result *r = rs->r[i];
		struct vk_finding *f;
		struct vk_clock c;
		char what[128], key[128];
		int fn, has_id = 0;

		/* An unconfirmed failure is no finding: no reproducer shows it. */
		if (r->status != VK_FAIL || r->confirm == VK_UNCONFIRMED)
			continue;
		fn = vk_api_func(r->api, &c, &has_id);
		describe(command, r, fn >= 0 ? vk_funcs[fn].name : r->api, what, sizeof(what), key,
			 sizeof(key));
		f = find(fs, key);
		if (!f) {
			fs->unsorted++;
			continue;
		}
		if (!f->example) {
			snprintf(f->what, sizeof(f->what), "%s", what);
			f->example = r;
			f->example_cmd = command;
		}
		if (!f->plain && r->nplain)
			f->plain = r;
		f->paths |= VK_PATH_BIT(r->path);
		if (fn >= 0 && c.name[0])
			add_clock(f, &c, has_id);
		count(f, command);
	}
}

void vk_finding_clocks(char *buf, size_t len, const struct vk_finding *f)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < f->nids && n < len; i++) {
		const char *name = vk_clock_name(f->ids[i]);
		int j = i;

		if (name) {
			n += snprintf(buf + n, len - n, "%s%s", n ? ", " : "", name);
			continue;
		}
		/* A run of consecutive unnamed ids: "16-23". */
		while (j + 1 < f->nids && f->ids[j + 1] == f->ids[j] + 1 && !vk_clock_name(f->ids[j + 1]))
			j++;
		if (j > i)
			n += snprintf(buf + n, len - n, "%s%d-%d", n ? ", " : "", f->ids[i], f->ids[j]);
		else
			n += snprintf(buf + n, len - n, "%s%d", n ? ", " : "", f->ids[i]);
		i = j;
	}
	if (f->others[0] && n < len)
		snprintf(buf + n, len - n, "%s%s", n ? ", " : "", f->others);
}

void vk_finding_reproduce(char *buf, size_t len, const struct vk_finding *f)
{
	const struct vk_result *r = f->example;

	if (!strcmp(f->example_cmd, "timens"))
		snprintf(buf, len, "vdsokit timens");
	/* stress's "APIs" are its fault steps, and it runs only in a guest. */
	else if (!strcmp(f->example_cmd, "stress"))
		snprintf(buf, len, "vdsokit vm --kernel IMAGE -- stress --paths %s",
			 vk_path_name(r->path));
	else
		snprintf(buf, len, "vdsokit %s --paths %s %s", f->example_cmd, vk_path_name(r->path),
			 r->api);
}

// SPDX-License-Identifier: MIT
/*
 * --output DIR's reproducers: a small C program and a text per finding,
 * so that a kernel developer can rerun it without vdsokit (repro.h).
 */
#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli/exit.h"
#include "cli/output.h"
#include "cli/repro.h"
#include "report/repro.h"

#define NAME_MAX_LEN 96

struct written {
	char name[VK_MAX_FINDINGS][NAME_MAX_LEN];
	size_t n;
};

/* One finding's files, added to s. */
static int add(struct vk_files *s, const char *sub, const struct vk_finding *f,
	       const struct utsname *uts, const char *version, const char *name)
{
	char file[NAME_MAX_LEN + 8];
	FILE *out;

	snprintf(file, sizeof(file), "%s.txt", name);
	out = vk_output_open(s, sub, file);
	if (!out)
		return -1;
	vk_repro_txt(out, f, uts, version);
	if (!vk_repro_has_c(f))
		return 0;
	snprintf(file, sizeof(file), "%s.c", name);
	out = vk_output_open(s, sub, file);
	if (!out)
		return -1;
	vk_repro_c(out, f);
	return 0;
}

/* A .c or .txt of no finding written now. */
static int stale(const char *file, const struct written *w)
{
	const char *dot = strrchr(file, '.');

	if (!dot || (strcmp(dot, ".c") && strcmp(dot, ".txt")))
		return 0;
	for (size_t i = 0; i < w->n; i++) {
		if (strlen(w->name[i]) == (size_t)(dot - file) &&
		    !strncmp(file, w->name[i], dot - file))
			return 0;
	}
	return 1;
}

/* An earlier run's reproducer of a finding gone since would mislead. */
static void remove_stale(const char *sub, const struct written *w)
{
	struct dirent *e;
	DIR *d = opendir(sub);

	while (d && (e = readdir(d))) {
		if (stale(e->d_name, w))
			unlinkat(dirfd(d), e->d_name, 0);
	}
	if (d)
		closedir(d);
}

/* all's four reports and each finding's two files: one set. */
_Static_assert(VK_FILES_MAX >= 4 + 2 * VK_MAX_FINDINGS, "a set holds every file of a run");

int vk_repro_write(const char *version, const char *dir,
		   const struct vk_findings *fs, struct vk_files *set)
{
	static struct vk_files own;
	static struct written w;
	struct vk_files *files = set ? set : &own;
	char sub[PATH_MAX];
	struct utsname uts;
	struct stat st;

	w.n = 0;
	snprintf(sub, sizeof(sub), "%s/repro", dir);
	if (mkdir(sub, 0777) && errno != EEXIST) {
		fprintf(stderr, "%s: cannot make %s: %s; none of its set was replaced\n", vk_progname, sub,
			strerror(errno));
		vk_files_drop(files);
		return VK_EXIT_USAGE;
	}
	if (stat(sub, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "%s: %s is not a directory: no reproducer written, none of its set replaced\n",
			vk_progname, sub);
		vk_files_drop(files);
		return VK_EXIT_USAGE;
	}
	uname(&uts);
	for (size_t i = 0; i < fs->n; i++) {
		vk_repro_name(w.name[w.n], sizeof(w.name[0]), &fs->f[i]);
		if (add(files, sub, &fs->f[i], &uts, version, w.name[w.n++])) {
			vk_files_drop(files);
			return VK_EXIT_USAGE;
		}
		vk_files_flush(files);
	}
	if (vk_files_commit(files))
		return VK_EXIT_USAGE;
	remove_stale(sub, &w);
	return VK_EXIT_OK;
}

int vk_repro_write_results(const char *version, const char *command,
			   const char *dir,
			   const struct vk_results *rs)
{
	struct vk_findings fs = { .n = 0 };

	vk_findings_add(&fs, command, rs);
	return vk_repro_write(version, dir, &fs, NULL);
}

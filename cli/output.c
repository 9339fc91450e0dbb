// SPDX-License-Identifier: MIT
/*
 * --output DIR: checks up front that DIR is writable and writes each file
 * whole, so a run cannot end in a lost report (output.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/children.h"
#include "report/report.h"
#include "cli/output.h"

/*
 * Whether a file can be made in dir, found by making one (access() says
 * yes to root whatever the mode): a run must not end in a write that
 * could never be done. 0, or -1 with errno set.
 */
static int writable(const char *dir)
{
	char path[PATH_MAX];
	int fd, err;

	if ((size_t)snprintf(path, sizeof(path), "%s/.vdsokit.%ld.probe", dir,
			     (long)getpid()) >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	vk_children_leave(path);	/* a signal meanwhile removes it */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
	err = fd < 0 || unlink(path) ? -1 : 0;
	vk_children_unleave(path);
	return err;
}

enum vk_opt_result vk_output_dir(const char *dir, void *dest)
{
	struct stat st;

	if (mkdir(dir, 0777) && errno != EEXIST)
		return vk_opt_error("--output: cannot make '%s': %s", dir, strerror(errno));
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return vk_opt_error("--output: '%s' is not a directory", dir);
	if (writable(dir))
		return vk_opt_error("--output: cannot write in '%s': %s", dir,
				    strerror(errno));
	*(const char **)dest = dir;
	return VK_OPT_OK;
}

/* path's temporary, beside it: ".NAME.PID.part" in the same directory,
 * so that rename() moves it in one step. */
static void part_name(char *tmp, size_t len, const char *path)
{
	const char *base = strrchr(path, '/');
	int dir = base ? (int)(base - path + 1) : 0;

	snprintf(tmp, len, "%.*s.%s.%ld.part", dir, path, base ? base + 1 : path, (long)getpid());
}

FILE *vk_files_open(struct vk_files *s, const char *path)
{
	struct vk_file *file;

	if (s->n == VK_FILES_MAX) {
		fprintf(stderr, "%s: %s: more than %d files at once\n", vk_progname, path, VK_FILES_MAX);
		return NULL;
	}
	/* Each its own allocation: children.c keeps a pointer to its tmp. */
	file = calloc(1, sizeof(*file));
	if (!file) {
		fprintf(stderr, "%s: cannot write %s: %s\n", vk_progname, path, strerror(errno));
		return NULL;
	}
	snprintf(file->path, sizeof(file->path), "%s", path);
	part_name(file->tmp, sizeof(file->tmp), path);
	file->f = fopen(file->tmp, "we");
	if (!file->f) {
		fprintf(stderr, "%s: cannot write %s: %s\n", vk_progname, path, strerror(errno));
		free(file);
		return NULL;
	}
	s->file[s->n++] = file;
	if (vk_children_leave(file->tmp)) {
		fprintf(stderr, "%s: %s: too many files at once\n", vk_progname, path);
		vk_files_drop(s);
		return NULL;
	}
	return file->f;
}

void vk_files_drop(struct vk_files *s)
{
	for (size_t i = 0; i < s->n; i++) {
		if (s->file[i]->f)
			fclose(s->file[i]->f);
		unlink(s->file[i]->tmp);
		vk_children_unleave(s->file[i]->tmp);
		free(s->file[i]);
	}
	s->n = 0;
}

void vk_files_flush(struct vk_files *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct vk_file *file = s->file[i];

		/* A write that failed left errno; a buffer that did not is
		 * written again now, failing afresh. */
		if (file->f && !file->err && (fflush(file->f) || ferror(file->f)))
			file->err = errno ? errno : EIO;
	}
}

/* File i cannot be written (err): none of the set is replaced. */
static int refuse(struct vk_files *s, size_t i, int err)
{
	fprintf(stderr, "%s: cannot write %s: %s; %s\n", vk_progname, s->file[i]->path, strerror(err),
		s->n > 1 ? "none of its set was replaced" : "it was not replaced");
	vk_files_drop(s);
	return VK_EXIT_USAGE;
}

/*
 * Whether a file can be renamed onto path: not onto a directory, which
 * rename() refuses only when its turn comes, after the set's others.
 */
static int replaceable(const char *path)
{
	struct stat st;

	if (!lstat(path, &st) && S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return 0;
	}
	return 1;
}

int vk_files_commit(struct vk_files *s)
{
	vk_files_flush(s);
	for (size_t i = 0; i < s->n; i++) {
		struct vk_file *file = s->file[i];

		if (fclose(file->f) && !file->err)
			file->err = errno ? errno : EIO;
		file->f = NULL;
	}
	for (size_t i = 0; i < s->n; i++) {
		if (s->file[i]->err)
			return refuse(s, i, s->file[i]->err);
	}
	/* Every one before any: the set is replaced whole or not at all. */
	for (size_t i = 0; i < s->n; i++) {
		if (!replaceable(s->file[i]->path))
			return refuse(s, i, errno);
	}
	for (size_t i = 0; i < s->n; i++) {
		if (rename(s->file[i]->tmp, s->file[i]->path)) {
			fprintf(stderr, "%s: cannot write %s: %s\n", vk_progname, s->file[i]->path,
				strerror(errno));
			vk_files_drop(s);
			return VK_EXIT_USAGE;
		}
		vk_children_unleave(s->file[i]->tmp);
	}
	for (size_t i = 0; i < s->n; i++)
		free(s->file[i]);
	s->n = 0;
	return VK_EXIT_OK;
}

FILE *vk_output_open(struct vk_files *s, const char *dir, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return vk_files_open(s, path);
}

int vk_output_render(struct vk_files *s, const char *dir, const struct vk_output *files,
		     size_t n, const struct vk_doc *doc)
{
	for (size_t i = 0; i < n; i++) {
		FILE *f = vk_output_open(s, dir, files[i].name);

		if (!f) {
			vk_files_drop(s);
			return VK_EXIT_USAGE;
		}
		vk_render(f, files[i].format, doc);
		vk_files_flush(s);
	}
	return VK_EXIT_OK;
}

int vk_output_write(struct vk_files *s, const char *dir, const struct vk_output *files, size_t n,
		    const struct vk_doc *doc)
{
	return vk_output_render(s, dir, files, n, doc) ? VK_EXIT_USAGE : vk_files_commit(s);
}

/* SPDX-License-Identifier: MIT */
/* What commands write to files: --output DIR, each file written whole. */
#ifndef VK_OUTPUT_H
#define VK_OUTPUT_H

#include <limits.h>
#include <stdio.h>

#include "report/format.h"
#include "cli/options.h"

struct vk_doc;

/* One file of --output DIR (all, bench, compare): its name and format. */
struct vk_output {
	const char *name;
	enum vk_format format;
};

/* Make DIR if it is missing, before the run, so that a bad one costs
 * nothing; as an option's call, *(const char **)dest = dir. */
enum vk_opt_result vk_output_dir(const char *dir, void *dest);

/*
 * Files written whole: each beside its final name, all of a set renamed
 * into place once every one is complete, so that a full disk or a
 * signal leaves the previous ones as they were, with no temporary.
 */
/* all's set: its four reports and two files for each finding. */
#define VK_FILES_MAX 40

struct vk_file {
	char path[PATH_MAX], tmp[PATH_MAX + 32];
	FILE *f;
	int err;	/* errno of its first failed write */
};

struct vk_files {
	size_t n;
	struct vk_file *file[VK_FILES_MAX];
};

/* A stream to path's temporary, or NULL after saying why. */
FILE *vk_files_open(struct vk_files *s, const char *path);
/* Note a failed write's errno: call it after each large write, which
 * stdio passes to write() unbuffered. */
void vk_files_flush(struct vk_files *s);
/* Rename each into place; VK_EXIT_OK, or VK_EXIT_USAGE after saying
 * which file failed and why, none replaced. */
int vk_files_commit(struct vk_files *s);
/* Remove the temporaries, replacing nothing. */
void vk_files_drop(struct vk_files *s);
/* vk_files_open() of DIR/name. */
FILE *vk_output_open(struct vk_files *s, const char *dir, const char *name);
/* Print doc into each of files in DIR, added to s, and commit s. */
int vk_output_write(struct vk_files *s, const char *dir, const struct vk_output *files, size_t n,
		    const struct vk_doc *doc);
/* The same, but s is left for the caller to add to and commit: 0, or
 * VK_EXIT_USAGE after saying why, s dropped. */
int vk_output_render(struct vk_files *s, const char *dir, const struct vk_output *files,
		     size_t n, const struct vk_doc *doc);

#endif /* VK_OUTPUT_H */

// SPDX-License-Identifier: MIT
/*
 * The guest's command words, as vm's command line gives them after its
 * own options: split into the commands /init runs one after another, and
 * the --impl libraries they name made absolute, with what a dynamic
 * vdsokit needs in the guest to load them.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/vm/vm.h"

int vk_vm_split_commands(char **words, int nwords)
{
	int n = 1;

	for (int i = 0; i < nwords; i++) {
		if (!strcmp(words[i], "--")) {
			words[i] = "";
			n++;
		}
		if (!strcmp(words[i], "vm") && (i == 0 || !words[i - 1][0]))
			return -1;
		if (!words[i][0] && (i == 0 || i + 1 == nwords || !strcmp(words[i + 1], "--")))
			return -1;
	}
	return n > VK_VM_MAX_CMDS ? -1 : n;
}

int vk_vm_impl_files(char **words, int nwords, struct vk_vm_files *files, char *err, size_t len)
{
	static char abs[VK_VM_MAX_FILES][PATH_MAX], word[VK_VM_MAX_FILES][PATH_MAX + 8];
	char *libs[VK_VM_MAX_FILES];
	int n = 0;

	files->n = 0;
	for (int i = 0; i < nwords && n < VK_VM_MAX_FILES; i++) {
		char *w = words[i];
		size_t at = 0;

		if ((!strcmp(w, "--impl") || !strcmp(w, "-I")) && i + 1 < nwords)
			w = words[++i];
		else if (!strncmp(w, "--impl=", 7))
			at = 7;
		else if (!strncmp(w, "-I", 2) && w[2])
			at = 2;
		else
			continue;
		if (!realpath(w + at, abs[n])) {
			snprintf(err, len, "--impl %s: %s", w + at, strerror(errno));
			return -1;
		}
		snprintf(word[n], sizeof(word[n]), "%.*s%s", (int)at, w, abs[n]);
		words[i] = word[n];
		libs[n] = abs[n];
		n++;
	}
	return n ? vk_vm_dynamic_files(libs, n, files, err, len) : 0;
}

/* SPDX-License-Identifier: MIT */
/* compare's table of bench files, for vm's A/B too. */
#ifndef VK_COMPARE_CMD_H
#define VK_COMPARE_CMD_H

/*
 * As `vdsokit compare OLD... --vs NEW...` with its defaults: the text
 * table to stdout, warnings and errors to stderr after vk_progname; its
 * exit status.
 */
int vk_compare_files(char *const *paths, int nold, int nnew);

#endif /* VK_COMPARE_CMD_H */

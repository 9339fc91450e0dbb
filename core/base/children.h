/* SPDX-License-Identifier: MIT */
/*
 * Every process this run started, so that none outlives it: each child
 * dies with its parent (even a SIGKILLed one), and a SIGINT, SIGTERM or
 * SIGHUP, or the run's own exit, ends every child still running, with
 * whatever the child forked into its process group.
 */
#ifndef VK_CHILDREN_H
#define VK_CHILDREN_H

#include <sys/types.h>

/* fork(), the child remembered until vk_waitpid() reaps it. */
pid_t vk_fork(void);
/* waitpid(), forgetting the child it reaps. */
pid_t vk_waitpid(pid_t pid, int *status, int options);
/* SIGKILL to every child still running and to its process group. */
void vk_children_end(void);
/* Once, in main: end them at exit, and on the signals not ignored at
 * start (as under nohup), which then end the run as they would have. */
void vk_children_catch(void);

#endif /* VK_CHILDREN_H */

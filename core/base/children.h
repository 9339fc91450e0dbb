/* SPDX-License-Identifier: MIT */
/*
 * Every process this run started, so that none outlives it: each child
 * dies with its parent (even a SIGKILLed one), and a SIGINT, SIGTERM or
 * SIGHUP, or the run's own exit, ends every child still running, with
 * whatever the child forked into its process group. The same moments
 * remove the files the run was still writing (temporaries, sockets);
 * a signal also says where what it keeps is.
 */
#ifndef VK_CHILDREN_H
#define VK_CHILDREN_H

#include <sys/types.h>

/* fork(), the child remembered until vk_waitpid() reaps it. */
pid_t vk_fork(void);
/* waitpid(), forgetting the child it reaps. */
pid_t vk_waitpid(pid_t pid, int *status, int options);
/* Whether child pid has ended, left unreaped: a reader of its pipe stops
 * there, not at EOF, which a process it forked may hold off for as long
 * as that lives. */
int vk_exited(pid_t pid);
/* Once child pid, a process group's leader, has ended (left unreaped,
 * so that its pid names no other group), SIGKILL to what is left of its
 * group: nothing it forked outlives it. */
void vk_end_group(pid_t pid);
/* SIGKILL to every child still running and to its process group. */
void vk_children_end(void);
/* Once, in main: end them at exit, and on the signals not ignored at
 * start (as under nohup), which then end the run as they would have. */
void vk_children_catch(void);
/* path is removed if the run ends before vk_children_unleave(path); the
 * string must live until then. -1 when the table is full. */
int vk_children_leave(const char *path);
void vk_children_unleave(const char *path);
/* msg (a line, or NULL for none) is written to stderr if a signal ends
 * the run: what it leaves behind, and where. It must live until
 * replaced. */
void vk_children_say(const char *msg);

#endif /* VK_CHILDREN_H */

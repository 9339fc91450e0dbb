// SPDX-License-Identifier: MIT
/*
 * The guest's side of `vdsokit vm`: this same static binary is /init of
 * the initramfs vm packs. It mounts what the commands read, waits
 * (SETTLE_S at most) for the kernel to settle on its clocksource, runs
 * "vdsokit ARGS" for each command in /vdsokit.args (its words, each
 * NUL-terminated: first each command's timeout in seconds, 0 for none,
 * then the commands with an empty word between two) and frames their
 * stdout and stderr on the console in numbered frames, each command's
 * closed with its status, length and checksum (core/vm/vm_frame.c), so the
 * host can tell them from the kernel's own messages on the same console
 * and find whatever the line lost. A command past its limit is stopped
 * when the host says so on the console's input (it counts qemu's CPU
 * time, which a starved guest does not have), or past BACKSTOP times the
 * limit on the clock. Then it powers the machine off, which ends qemu.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/klog.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "core/base/sysinfo.h"
#include "core/vm/vm.h"

#define MAX_ARGS 64
/* syslog(2)'s SYSLOG_ACTION_*, which libc does not name. */
#define READ_ALL 3
#define CLEAR 5
#define CONSOLE_LEVEL 8
#define SIZE_BUFFER 10
/* Seconds to wait for the clocksource the kernel settles on after boot. */
#define SETTLE_S 5

static struct vk_vm_frames frames;

/* The host writes to the console's input (VK_VM_STOP lines): echoed,
 * they would land in the middle of a frame. */
static void no_echo(void)
{
	struct termios t;

	if (tcgetattr(STDIN_FILENO, &t) == 0) {
		t.c_lflag &= ~(ECHO | ECHONL);
		tcsetattr(STDIN_FILENO, TCSANOW, &t);
	}
}

static void setup(void)
{
	int fd;

	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	/* The kernel may have found no /dev/console before devtmpfs. */
	fd = open("/dev/console", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	no_echo();
}

/* The words of /vdsokit.args, into buf; their bytes, or -1. */
static ssize_t read_args(char *buf, size_t len)
{
	int fd = open("/vdsokit.args", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);

	if (fd >= 0)
		close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/* The command that starts at *p, as an argv; *p moves past it. */
static void next_command(char **p, const char *end, char **argv)
{
	int argc = 0;

	argv[argc++] = "vdsokit";
	while (*p < end && **p && argc < MAX_ARGS) {
		argv[argc++] = *p;
		*p += strlen(*p) + 1;
	}
	if (*p < end)
		*p += strlen(*p) + 1;	/* the empty word between two commands */
	argv[argc] = NULL;
}

/* One stream of the command's: what it has written since its last newline. */
struct stream {
	int fd;
	char kind;		/* 'o' or 'e' */
	char line[VK_VM_FRAME_TEXT];
	size_t n;
};

static void frame(struct stream *s, int whole)
{
	vk_vm_frame_text(&frames, whole ? s->kind : s->kind - 32, s->line, s->n);
	s->n = 0;
}

/* Read what is there; 0 at end of stream. */
static int drain(struct stream *s)
{
	char buf[4096];
	ssize_t n = read(s->fd, buf, sizeof(buf));

	if (n < 0 && errno == EINTR)
		return 1;
	if (n <= 0) {
		if (s->n)
			frame(s, 0);
		return 0;
	}
	for (ssize_t i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			frame(s, 1);
			continue;
		}
		if (s->n == sizeof(s->line))
			frame(s, 0);
		s->line[s->n++] = buf[i];
	}
	return 1;
}

/* 1: the command's time on the clock is up; 3: so is its grace after SIGTERM. */
static volatile sig_atomic_t timed_out;

static void on_alarm(int sig)
{
	(void)sig;
	timed_out++;
}

/* Seconds between SIGTERM and SIGKILL for a command past its time. */
#define GRACE 10

/*
 * A command past its time: said (why), then told to stop with SIGTERM, so
 * that one that changed the machine (stress) can put it back, and killed
 * with whatever it started if it is still there GRACE seconds later.
 */
static void cut_short(struct stream *err, pid_t pid, const char *why)
{
	if (timed_out == 3) {
		kill(-pid, SIGKILL);
		timed_out = 4;
		return;
	}
	if (err->n)
		frame(err, 0);
	err->n = snprintf(err->line, sizeof(err->line), "vdsokit vm: timed out after %s", why);
	frame(err, 1);
	kill(-pid, SIGTERM);
	timed_out = 2;
	alarm(GRACE);
}

/* The alarm: the command's time on the clock, or its grace, is up. */
static void alarmed(struct stream *err, pid_t pid, unsigned timeout)
{
	char why[96];

	snprintf(why, sizeof(why), "%u s on the clock (%d times its limit of %u s of running)",
		 VK_VM_BACKSTOP * timeout, VK_VM_BACKSTOP, timeout);
	cut_short(err, pid, why);
}

/*
 * What the host wrote to the console: "stop N" when command N ran its
 * time (qemu's CPU time, which stops when the host starves the guest,
 * where the guest's clock does not). A line for a command that already
 * ended is late, and ignored. 0 once the console's input has ended.
 */
static int host_said(int fd, struct stream *err, pid_t pid, unsigned timeout)
{
	char line[64], why[96];
	ssize_t n = read(fd, line, sizeof(line) - 1);

	if (n < 0)
		return errno == EINTR || errno == EAGAIN;
	if (n == 0)
		return 0;
	line[n] = '\0';
	if (!timed_out && !strncmp(line, VK_VM_STOP, strlen(VK_VM_STOP)) &&
	    strtoul(line + strlen(VK_VM_STOP), NULL, 10) == (unsigned long)frames.cmd + 1) {
		snprintf(why, sizeof(why), "%u s of running (qemu's CPU time, as the host measured it)",
			 timeout);
		cut_short(err, pid, why);
	}
	return 1;
}

static int run(char **argv, unsigned timeout)
{
	struct stream s[2] = { { .kind = 'o' }, { .kind = 'e' } };
	struct sigaction sa = { .sa_handler = on_alarm };
	int out[2], err[2], status, open_streams = 2, host = STDIN_FILENO;
	pid_t pid;

	if (pipe(out) || pipe(err))
		return 127;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		setpgid(0, 0);
		/* The console's input is the host's, for /init. */
		dup2(null, STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		dup2(err[1], STDERR_FILENO);
		close(out[0]);
		close(err[0]);
		execv("/init", argv);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	s[0].fd = out[0];
	s[1].fd = err[0];
	setpgid(pid, pid);
	/* No SA_RESTART: the alarm interrupts poll() and waitpid(). */
	sigaction(SIGALRM, &sa, NULL);
	timed_out = 0;
	/* The host stops a command at its limit of running; the clock at
	 * BACKSTOP times that is for one that waits on nothing. */
	alarm(VK_VM_BACKSTOP * timeout);
	while (open_streams) {
		struct pollfd p[3] = { { s[0].fd, POLLIN, 0 }, { s[1].fd, POLLIN, 0 },
				       { timeout ? host : -1, POLLIN, 0 } };

		if (poll(p, 3, -1) < 0) {
			if (errno != EINTR)
				break;
			if (timed_out & 1)
				alarmed(&s[1], pid, timeout);
			continue;
		}
		if (p[2].revents && !host_said(host, &s[1], pid, timeout))
			host = -1;
		for (int i = 0; i < 2; i++) {
			if (s[i].fd >= 0 && p[i].revents && !drain(&s[i])) {
				close(s[i].fd);
				s[i].fd = -1;
				open_streams--;
			}
		}
	}
	/* As pid 1, also reap the orphans the command leaves behind. */
	for (;;) {
		pid_t w = waitpid(-1, &status, 0);

		if (w == pid)
			break;
		if (w < 0 && errno == EINTR && (timed_out & 1))
			alarmed(&s[1], pid, timeout);
		else if (w < 0 && errno != EINTR) {
			return 127;
		}
	}
	alarm(0);
	if (timed_out)
		return 124;
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

/*
 * The kernel's messages since the last CLEAR, each line a 'k' frame: the
 * console showed only emergencies while the command ran, and a reader
 * of the console log would otherwise never see them.
 */
static void relay_kernel(void)
{
	static char *buf;
	static int size;
	int n, start = 0;

	if (!buf && (size = klogctl(SIZE_BUFFER, NULL, 0)) > 0)
		buf = malloc(size);
	n = buf ? klogctl(READ_ALL, buf, size) : -1;
	for (int i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			vk_vm_frame_text(&frames, 'k', buf + start, i - start);
			start = i + 1;
		}
	}
	if (start < n)
		vk_vm_frame_text(&frames, 'k', buf + start, n - start);
	klogctl(CLEAR, NULL, 0);
}

/*
 * No kernel line on the console while the commands run, emergencies
 * included: a line in the middle of a frame damages it (a starved
 * guest's hard-lockup report did). relay_kernel() sends them after each
 * command, and a panic still shows, as panic() makes the console
 * verbose. syslog(2) stops at level 1, emergencies; the sysctl goes to 0.
 */
static void quiet_console(void)
{
	int fd = open("/proc/sys/kernel/printk", O_WRONLY);

	if (fd < 0 || write(fd, "0\n", 2) != 2)
		klogctl(CONSOLE_LEVEL, NULL, 1);
	if (fd >= 0)
		close(fd);
}

void vk_vm_init(void)
{
	static char buf[4096];
	char *argv[MAX_ARGS + 1], *p = buf, why[160];
	unsigned timeout = 0;
	ssize_t n;

	setup();
	quiet_console();
	vk_vm_frames_start(&frames, STDOUT_FILENO);
	n = read_args(buf, sizeof(buf));
	if (n > 0) {
		timeout = strtoul(p, NULL, 10);
		p += strlen(p) + 1;
	}
	/*
	 * The commands report the clocksource the kernel runs on, not the one
	 * it booted on; one that did not settle is said in the console log.
	 */
	memcpy(why, "vdsokit: ", 9);
	if (vk_clocksource_settle(SETTLE_S, why + 9, sizeof(why) - 9))
		vk_vm_frame_text(&frames, 'k', why, strlen(why));
	klogctl(CLEAR, NULL, 0);
	while (n >= 0 && p < buf + n) {
		next_command(&p, buf + n, argv);
		vk_vm_frame_exit(&frames, run(argv, timeout));
		relay_kernel();
	}
	vk_vm_frame_end(&frames);
	/* Power off only once the serial line has sent it all. */
	tcdrain(STDOUT_FILENO);
	sync();
	reboot(RB_POWER_OFF);
	/* pid 1 must not exit: that would panic the kernel. */
	for (;;)
		pause();
}

// SPDX-License-Identifier: MIT
/*
 * /init of the initramfs that make check-xarch boots: runs vdsokit's
 * commands one after another, each framed by marker lines that
 * tests/xarch/run.sh reads back from the serial console, then powers the
 * machine off, which ends qemu. Every command runs under a timeout, so a
 * hung one costs its timeout and not the boot.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MARK "vdsokit-xarch:"

struct command {
	const char *label;
	unsigned timeout;	/* seconds */
	const char *argv[10];
};

/*
 * Short budgets: under emulation the figures mean little and the whole
 * run must stay within minutes. The timeouts are about four times what
 * each took on the slowest target; run.sh's boot timeout exceeds their
 * sum. -f 0 lets verify count every failure.
 */
static const struct command commands[] = {
	{ "info", 30, { "info" } },
	{ "verify", 90, { "verify", "--format", "ktap", "-d", "0.2", "-f", "0" } },
	{ "abi", 150, { "abi", "--format", "ktap" } },
	{ "fallback", 60, { "fallback", "--format", "ktap" } },
	{ "timens", 60, { "timens", "--format", "ktap", "-d", "0.2" } },
	{ "bench", 60, { "bench", "--format", "ktap", "-d", "0.02" } },
};

static volatile sig_atomic_t timed_out;

static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

/* Unbuffered, so markers and the children's output keep their order. */
static void say(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	if (n > 0 && write(STDOUT_FILENO, buf, n) < 0)
		return;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void setup(void)
{
	struct utsname u;
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
	if (uname(&u) == 0)
		say("\n" MARK " kernel %s %s %s\n", u.release, u.version, u.machine);
}

/* Write all of buf to the console, or as much as it takes. */
static void put(const char *buf, ssize_t n)
{
	while (n > 0) {
		ssize_t w = write(STDOUT_FILENO, buf, n);

		if (w <= 0)
			return;
		buf += w;
		n -= w;
	}
}

/*
 * Copy the command's output to the console until every writer is gone.
 * Through a pipe, the command does not take the console for a terminal
 * and prints no progress. The alarm interrupts read(): then the command's
 * process group is killed, which closes the pipe.
 */
static void relay(int fd, pid_t pid)
{
	char buf[4096];
	ssize_t n;

	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n > 0)
			put(buf, n);
		else if (n == 0 || errno != EINTR)
			return;
		else if (timed_out)
			kill(-pid, SIGKILL);
	}
}

static void run(const struct command *c)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	char *argv[12] = { "/vdsokit" };
	double t0 = now();
	int status = 0, out[2];
	pid_t pid, w;

	for (int i = 0; c->argv[i]; i++)
		argv[i + 1] = (char *)c->argv[i];
	say(MARK " begin %s\n", c->label);
	if (pipe(out)) {
		say(MARK " end %s status pipe-failed %s\n", c->label, strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		dup2(out[1], STDOUT_FILENO);
		dup2(out[1], STDERR_FILENO);
		close(out[0]);
		close(out[1]);
		execv(argv[0], argv);
		say(MARK " exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(out[1]);
	if (pid < 0) {
		close(out[0]);
		say(MARK " end %s status fork-failed %s\n", c->label, strerror(errno));
		return;
	}
	setpgid(pid, pid);
	/* No SA_RESTART: the alarm interrupts read() and waitpid(). */
	sigaction(SIGALRM, &sa, NULL);
	timed_out = 0;
	alarm(c->timeout);
	relay(out[0], pid);
	close(out[0]);
	/* As pid 1, also reap the orphans the command leaves behind. */
	do {
		w = waitpid(-1, &status, 0);
		if (w < 0 && errno == EINTR && timed_out)
			kill(-pid, SIGKILL);
	} while (w != pid && !(w < 0 && errno == ECHILD));
	alarm(0);
	if (timed_out)
		say(MARK " end %s status timeout after %u s\n", c->label, c->timeout);
	else if (WIFSIGNALED(status))
		say(MARK " end %s status signal %d (%.1f s)\n", c->label, WTERMSIG(status),
		    now() - t0);
	else
		say(MARK " end %s status %d (%.1f s)\n", c->label, WEXITSTATUS(status),
		    now() - t0);
}

int main(void)
{
	setup();
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		run(&commands[i]);
	say(MARK " done\n");
	reboot(RB_POWER_OFF);
	/* pid 1 must not exit: that would panic the kernel. */
	for (;;)
		pause();
}

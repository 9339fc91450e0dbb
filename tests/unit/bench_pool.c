// SPDX-License-Identifier: MIT
/*
 * bench's pool of workers on planted workers: their lines read as the
 * parent reads a worker's, and /bin/sh scripts run as workers that
 * finish, die by a signal, exit early, go silent or cannot be started.
 * Nothing is measured.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include "core/bench/bench_pool.h"
#include "tests/unit/test.h"

#define GOOD "ref 1 2 3\nrow 0 1 100 0 3 10 11 12\nref 1 2 3\nrow 1 1 100 0 2 20 21\nref 1 2 3\nend\n"

static struct vk_bench_result res[2];
static struct vk_bench_rows rows;
static const struct vk_bench_case cases[2] = {
	{ "clock-gettime-monotonic", VK_FN_CLOCK_GETTIME, 1, 0 }, { "getcpu", VK_FN_GETCPU, -1, 0 },
};

static void fresh(void)
{
	memset(res, 0, sizeof(res));
	memset(&rows, 0, sizeof(rows));
	rows.r = res;
	rows.n = 2;
	rows.cases = cases;
	rows.ncases = 2;
	snprintf(res[0].api, sizeof(res[0].api), "clock-gettime-monotonic");
	snprintf(res[1].api, sizeof(res[1].api), "getcpu");
}

static enum vk_worker_end read_lines(const char *text, int k, long *at)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s", text);
	return vk_bench_pool_read(buf, &rows, k, at);
}

static void reading(void)
{
	long at = -1;

	fresh();
	CHECK(read_lines(GOOD, 0, &at) == VK_WORKER_OK && read_lines(GOOD, 1, &at) == VK_WORKER_OK,
	      "two whole workers are read");
	CHECK(res[0].n == 6 && res[0].ngroups == 2 && res[0].group_n[1] == 3 &&
	      res[0].samples[3] == 10 && res[1].n == 4 && res[0].calls == 200,
	      "their samples are pooled, each worker a group (%d samples, %d groups)", res[0].n,
	      res[0].ngroups);
	CHECK(rows.ref[1].ns[1] == 2, "each worker's reference is its own median");

	fresh();
	CHECK(read_lines("ref 1 2 3\nrow 0 1 100 0 3 10 11 12\n", 0, &at) == VK_WORKER_SHORT &&
	      at == 0, "a worker that stopped after row 0 is short, and row 1 is the one it died in");
	CHECK(read_lines("ref 1 2 3\nrow 0 1 100 0 3 10 11\nend\n", 0, &at) == VK_WORKER_BAD,
	      "a row with fewer samples than it says is what a worker does not send");
	CHECK(read_lines("row 7 1 100 0 1 10\nend\n", 0, &at) == VK_WORKER_BAD,
	      "a row past the run's is refused");

	fresh();
	read_lines(GOOD, 0, &at);
	read_lines("ref 1 2 3\nskip 1 no such symbol\nrow 0 1 100 0 3 10 11 12\nend\n", 1, &at);
	read_lines(GOOD, 2, &at);
	CHECK(res[1].skipped && !strcmp(res[1].skipped, "no such symbol") && res[1].n == 2,
	      "a row one worker skipped is skipped for all, its samples kept no further");
	read_lines("row 0 1 100 0 1 10\nend\n", 3, &at);
	CHECK(isnan(rows.ref[3].ns[0]) && res[0].n == 10,
	      "a worker that sent no reference has none, its samples kept");

	/* Calls that failed: a row with no figure, whatever another worker measured. */
	fresh();
	read_lines(GOOD, 0, &at);
	CHECK(read_lines("ref 1 2 3\nrow 0 1 100 0 3 10 11 12\nfail 1 5 100 22\nend\n", 1, &at) ==
	      VK_WORKER_OK, "a worker's failed row is read");
	read_lines(GOOD, 2, &at);
	CHECK(res[1].failed == 5 && res[1].failed_of == 100 && res[1].err == 22 &&
	      res[1].skipped && !strcmp(res[1].call, "getcpu") &&
	      strstr(res[1].skipped, "getcpu failed: ") && strstr(res[1].skipped, "5 of 100 calls"),
	      "its calls failed for all: the call, its errno and how often (%s)", res[1].skipped);
	CHECK(read_lines("fail 0 0 100 22\nend\n", 3, &at) == VK_WORKER_BAD &&
	      read_lines("fail 0 5 4 22\nend\n", 3, &at) == VK_WORKER_BAD &&
	      read_lines("fail 0 5 100 0\nend\n", 3, &at) == VK_WORKER_BAD,
	      "a fail line with no failure, more failures than calls or no errno is refused");
}

static int run(const char *script, double silence, int k, struct vk_worker *w)
{
	char *argv[] = { "sh", "-c", (char *)script, NULL };

	return vk_bench_pool_run("/bin/sh", argv, silence, &rows, k, w);
}

static void running(void)
{
	struct vk_worker w;

	fresh();
	CHECK(run("printf '" GOOD "'", 60, 0, &w) == 0 && w.end == VK_WORKER_OK && res[0].n == 3,
	      "a worker that sends every row and exits 0 is pooled");

	fresh();
	CHECK(run("printf 'ref 1 2 3\\nrow 0 1 100 0 1 10\\n'; kill -9 $$", 60, 0, &w) == -1 &&
	      w.end == VK_WORKER_SHORT && WIFSIGNALED(w.wstatus) && WTERMSIG(w.wstatus) == 9 &&
	      w.at == 0, "a worker killed by a signal after row 0 is told, with its signal and row");
	CHECK(res[0].n == 1, "what it sent before it died is kept");

	fresh();
	CHECK(run("printf '" GOOD "'; exit 3", 60, 0, &w) == -1 && w.end == VK_WORKER_OK &&
	      WIFEXITED(w.wstatus) && WEXITSTATUS(w.wstatus) == 3,
	      "a worker that sent every row but exited 3 fails, with its status");

	fresh();
	CHECK(run("exec sleep 60", 0.2, 0, &w) == -1 && w.end == VK_WORKER_SILENT &&
	      WIFSIGNALED(w.wstatus), "a silent worker is killed and told as silent");

	fresh();
	CHECK(vk_bench_pool_run("/nonexistent/vdsokit", (char *[]){ "x", NULL }, 60, &rows, 0,
				&w) == -1 && w.end == VK_WORKER_NO_EXEC && w.err == ENOENT,
	      "a worker that cannot be executed is told, with its errno");
}

int main(void)
{
	reading();
	running();
	return test_exit();
}

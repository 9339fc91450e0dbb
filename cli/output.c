// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/children.h"
#include "core/call/targets.h"
#include "report/bench.h"
#include "report/report.h"
#include "commands/commands.h"

static void usage_error(const char *cmd, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", cmd);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", cmd);
}

int vk_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	usage_error(cmd, fmt, ap);
	va_end(ap);
	return VK_EXIT_USAGE;
}

enum vk_opt_result vk_opt_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	usage_error(cmd, fmt, ap);
	va_end(ap);
	return VK_OPT_BAD;
}

int vk_open_image(const char *cmd, const char *path, struct vk_image *im)
{
	int err = path ? vk_image_open_file(im, path) : vk_image_open_live(im);

	if (err == 0)
		return VK_EXIT_OK;
	fprintf(stderr, "%s: %s\n", cmd, im->err);
	vk_image_close(im);
	return err == -VK_IMAGE_ENOVDSO ? VK_EXIT_SKIP : VK_EXIT_USAGE;
}

/*
 * strtod() and strtoull() take leading spaces, signs, hex and "inf", and
 * strtoull() wraps "-1" to its largest value: what they convert is first
 * checked to be plain decimal digits, with a '.' and exponent if allowed.
 */
static int decimal(const char *s, int fraction)
{
	size_t n = strspn(s, fraction ? "0123456789.eE+-" : "0123456789");

	return s[0] >= '0' && s[0] <= '9' && s[n] == '\0';
}

enum vk_opt_result vk_parse_number(const char *cmd, const char *opt, const char *arg, double *out)
{
	char *end;
	double d = decimal(arg + (arg[0] == '-'), 1) ? strtod(arg, &end) : NAN;

	if (!isfinite(d) || *end)
		return vk_opt_error(cmd, "%s: '%s' is not a number", opt, arg);
	*out = d;
	return VK_OPT_OK;
}

enum vk_opt_result vk_parse_seconds(const char *cmd, const char *opt, const char *arg, double *out)
{
	char *end;
	double d = decimal(arg, 1) ? strtod(arg, &end) : NAN;

	if (!isfinite(d) || *end || d <= 0 || d > VK_MAX_SECONDS)
		return vk_opt_error(cmd, "%s: '%s' is not a positive number of seconds (at most %d)",
				    opt, arg, VK_MAX_SECONDS);
	*out = d;
	return VK_OPT_OK;
}

enum vk_opt_result vk_parse_count(const char *cmd, const char *opt, const char *arg, unsigned long long *out)
{
	unsigned long long n;

	errno = 0;
	n = decimal(arg, 0) ? strtoull(arg, NULL, 10) : 0;
	if (!decimal(arg, 0) || errno == ERANGE)
		return vk_opt_error(cmd, "%s: '%s' is not a whole number (0 to %llu)", opt, arg,
				    ULLONG_MAX);
	*out = n;
	return VK_OPT_OK;
}

enum vk_opt_result vk_parse_signed(const char *cmd, const char *opt, const char *arg, long long *out)
{
	const char *digits = arg + (arg[0] == '-');
	long long n;

	errno = 0;
	n = decimal(digits, 0) ? strtoll(arg, NULL, 10) : 0;
	if (!decimal(digits, 0) || errno == ERANGE)
		return vk_opt_error(cmd, "%s: '%s' is not a whole number (%lld to %lld)", opt, arg,
				    LLONG_MIN, LLONG_MAX);
	*out = n;
	return VK_OPT_OK;
}

enum vk_opt_result vk_parse_count_in(const char *cmd, const char *opt, const char *arg, unsigned long long lo,
		      unsigned long long hi, unsigned long long *out)
{
	if (vk_parse_count(cmd, opt, arg, out))
		return VK_OPT_BAD;
	if (*out < lo || *out > hi)
		return vk_opt_error(cmd, "%s takes %llu to %llu", opt, lo, hi);
	return VK_OPT_OK;
}

enum vk_opt_result vk_opt_paths(const char *cmd, const char *arg, void *paths)
{
	if (vk_paths_parse(arg, paths))
		return vk_opt_error(cmd, "--paths: '%s' is not a list of vdso, libc, syscall, impl",
				    arg);
	return VK_OPT_OK;
}

enum vk_opt_result vk_opt_cpu(const char *cmd, const char *arg, void *cpu)
{
	unsigned long long n;

	if (vk_parse_count_in(cmd, "--cpu", arg, 0, CPU_SETSIZE - 1, &n))
		return VK_OPT_BAD;
	*(long *)cpu = (long)n;
	return VK_OPT_OK;
}

enum vk_opt_result vk_verbose_text(const char *cmd, int verbose, enum vk_format format)
{
	if (verbose && format != VK_FMT_TEXT)
		return vk_opt_error(cmd, "--verbose is for the text report");
	return VK_OPT_OK;
}

enum vk_opt_result vk_call_paths(const char *cmd, struct vk_call_opts *o, unsigned base)
{
	if (!o->paths)
		o->paths = base | (o->impl ? VK_PATH_BIT(VK_PATH_IMPL) : 0);
	if ((o->paths & VK_PATH_BIT(VK_PATH_IMPL)) && !o->impl)
		return vk_opt_error(cmd, "the impl path needs --impl LIB.so");
	return VK_OPT_OK;
}

enum vk_opt_result vk_call_targets(const char *cmd, int argc, char **argv, struct vk_target *t,
				   int *nt)
{
	*nt = 0;
	for (int i = optind; i < argc; i++) {
		int err = vk_targets_add(t, nt, argv[i]);

		if (err == -E2BIG)
			return vk_opt_error(cmd, "'%s': more than %d clocks of one function", argv[i],
					    VK_MAX_CLOCKS);
		if (err)
			return vk_opt_error(cmd, "unknown API '%s' (see 'vdsokit list-apis')", argv[i]);
	}
	if (optind == argc)
		*nt = vk_targets_all(t);
	return VK_OPT_OK;
}

void vk_step_keep(struct vk_step *step, struct vk_results *rs)
{
	if (!step) {
		vk_results_free(rs);
		return;
	}
	step->rs = *rs;
	memset(rs, 0, sizeof(*rs));
}

void vk_step_free(struct vk_step *step)
{
	vk_results_free(&step->rs);
	free(step->info);
	free(step->bench);
	free(step->bench_run);
	memset(step, 0, sizeof(*step));
}

FILE *vk_step_out(const struct vk_step *step)
{
	return step && step->out ? step->out : stdout;
}

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

enum vk_opt_result vk_output_dir(const char *cmd, const char *dir, void *dest)
{
	struct stat st;

	if (mkdir(dir, 0777) && errno != EEXIST)
		return vk_opt_error(cmd, "--output: cannot make '%s': %s", dir, strerror(errno));
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return vk_opt_error(cmd, "--output: '%s' is not a directory", dir);
	if (writable(dir))
		return vk_opt_error(cmd, "--output: cannot write in '%s': %s", dir,
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
		fprintf(stderr, "%s: %s: more than %d files at once\n", s->cmd, path, VK_FILES_MAX);
		return NULL;
	}
	file = &s->file[s->n];
	snprintf(file->path, sizeof(file->path), "%s", path);
	part_name(file->tmp, sizeof(file->tmp), path);
	file->err = 0;
	file->f = fopen(file->tmp, "we");
	if (!file->f) {
		fprintf(stderr, "%s: cannot write %s: %s\n", s->cmd, path, strerror(errno));
		return NULL;
	}
	s->n++;
	if (vk_children_leave(file->tmp)) {
		fprintf(stderr, "%s: %s: too many files at once\n", s->cmd, path);
		vk_files_drop(s);
		return NULL;
	}
	return file->f;
}

void vk_files_drop(struct vk_files *s)
{
	for (size_t i = 0; i < s->n; i++) {
		if (s->file[i].f)
			fclose(s->file[i].f);
		unlink(s->file[i].tmp);
		vk_children_unleave(s->file[i].tmp);
	}
	s->n = 0;
}

void vk_files_flush(struct vk_files *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct vk_file *file = &s->file[i];

		/* A write that failed left errno; a buffer that did not is
		 * written again now, failing afresh. */
		if (file->f && !file->err && (fflush(file->f) || ferror(file->f)))
			file->err = errno ? errno : EIO;
	}
}

int vk_files_commit(struct vk_files *s)
{
	vk_files_flush(s);
	for (size_t i = 0; i < s->n; i++) {
		struct vk_file *file = &s->file[i];

		if (fclose(file->f) && !file->err)
			file->err = errno ? errno : EIO;
		file->f = NULL;
	}
	for (size_t i = 0; i < s->n; i++) {
		if (s->file[i].err) {
			fprintf(stderr, "%s: cannot write %s: %s; %s\n", s->cmd, s->file[i].path,
				strerror(s->file[i].err),
				s->n > 1 ? "none of its set was replaced" : "it was not replaced");
			vk_files_drop(s);
			return VK_EXIT_USAGE;
		}
	}
	for (size_t i = 0; i < s->n; i++) {
		if (rename(s->file[i].tmp, s->file[i].path)) {
			fprintf(stderr, "%s: cannot write %s: %s\n", s->cmd, s->file[i].path,
				strerror(errno));
			vk_files_drop(s);
			return VK_EXIT_USAGE;
		}
		vk_children_unleave(s->file[i].tmp);
	}
	s->n = 0;
	return VK_EXIT_OK;
}

FILE *vk_output_open(struct vk_files *s, const char *dir, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return vk_files_open(s, path);
}

int vk_output_write(struct vk_files *s, const char *dir, const struct vk_output *files, size_t n,
		    const struct vk_doc *doc)
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
	return vk_files_commit(s);
}

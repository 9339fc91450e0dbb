// SPDX-License-Identifier: MIT
/*
 * inspect: the vDSO's code per exported function and the whole image's
 * checks, of one image or of two side by side.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "core/base/array.h"
#include "core/base/sysinfo.h"
#include "core/inspect/inspect.h"
#include "report/format.h"
#include "commands/commands.h"

static const char head[] =
	"Usage: vdsokit inspect [--image FILE [--image FILE]] [--format text|ktap|json]\n\n"
	"Read the vDSO's code with LLVM's disassembler, from any arch's image on any\n"
	"host. Per exported function: its bytes and instructions, its largest stack\n"
	"adjustment, stack probes, indirect calls and jumps (through a register,\n"
	"memory, a retpoline or a return thunk), calls out and to what, system-call\n"
	"instructions, and the arch's barriers and counter reads. Then the image's\n"
	"checks: no dynamic relocation but R_*_NONE and no TEXTREL, no undefined\n"
	"symbol, no writable and executable segment, a stack that is not executable,\n"
	"an FDE for each exported function and an .eh_frame_hdr where the arch's vDSO\n"
	"promises them, no indirect branch, no stack probe, and the landing pads of\n"
	"the GNU_PROPERTY features the image claims. Two --image: B against A, per\n"
	"function.\n\n";

static const char tail[] =
	"\n"
	"Exit status: 0 every check passed or SKIPped, 1 a check failed (either image's),\n"
	"2 usage error, bad image or an arch inspect does not know, 3 vdsokit's own error,\n"
	"4 no vDSO in this process, or a build without inspect (static, musl, no LLVM).\n";

struct images {
	const char *path[2];
	size_t n;
};

static enum vk_opt_result add_image(const char *arg, void *dest)
{
	struct images *im = dest;

	if (im->n == ARRAY_SIZE(im->path))
		return vk_opt_error("--image: at most two images, A and B");
	im->path[im->n++] = arg;
	return VK_OPT_OK;
}

#ifdef VK_HAVE_LLVM
static int run(const struct images *paths, enum vk_format format)
{
	struct vk_image im[2];
	struct vk_inspect in[2];
	struct vk_insp_diff diff;
	struct vk_sysinfo sys;
	struct vk_inspect_report r = { .version = vk_version, .sys = &sys,
				       .n = paths->n ? paths->n : 1 };
	int status = VK_EXIT_OK;
	size_t done = 0;

	vk_sysinfo_read(&sys);
	for (; done < r.n; done++) {
		status = vk_open_image(paths->path[done], &im[done]);
		if (status != VK_EXIT_OK)
			break;
		int err = vk_inspect(&im[done], &in[done]);

		if (err) {
			fprintf(stderr, "%s: %s\n", vk_progname, in[done].err);
			vk_inspect_free(&in[done]);
			vk_image_close(&im[done]);
			status = err == -1 ? VK_EXIT_USAGE : VK_EXIT_ERROR;
			break;
		}
		r.img[done] = &in[done];
	}
	if (status == VK_EXIT_OK && r.n == 2) {
		if (vk_inspect_diff(&in[0], &in[1], &diff)) {
			fprintf(stderr, "%s: out of memory\n", vk_progname);
			status = VK_EXIT_ERROR;
		}
		r.diff = status == VK_EXIT_OK ? &diff : NULL;
	}
	if (status == VK_EXIT_OK) {
		vk_render(stdout, format, &(const struct vk_doc){ .command = "inspect",
								  .kind = VK_DOC_INSPECT,
								  .inspect = &r });
		for (size_t i = 0; i < r.n; i++)
			status = in[i].fails ? VK_EXIT_FAIL : status;
		if (r.diff)
			vk_inspect_diff_free(&diff);
	}
	while (done--) {
		vk_inspect_free(&in[done]);
		vk_image_close(&im[done]);
	}
	return status;
}
#else
static int run(const struct images *paths, enum vk_format format)
{
	(void)paths;
	(void)format;
	fprintf(stderr, "%s: this vdsokit was built without inspect (a static, musl or cross "
			"build, or no llvm-config-19): it needs LLVM's disassembler\n", vk_progname);
	return VK_EXIT_SKIP;
}
#endif

int cmd_inspect(int argc, char **argv)
{
	struct images paths = { 0 };
	enum vk_format format = VK_FMT_TEXT;
	const struct vk_option opt[] = {
		VK_OPT('i', "image", VK_OPT_CALL, "FILE",
		  "read a vDSO image from FILE instead of this process's;\n"
		  "twice: A, then B, and B against A", &paths, .call = add_image),
		VK_OPT_FORMAT_ROW(&format, VK_DOC_INSPECT, ""),
		VK_OPT_HELP_ROW,
	};
	const struct vk_options o = VK_OPTIONS(head, tail, opt);
	enum vk_opt_result r = vk_options_parse(&o, argc, argv);

	if (r != VK_OPT_OK)
		return vk_opt_exit(r);
	if (optind < argc)
		return vk_usage_error("unexpected argument '%s'", argv[optind]);
	return run(&paths, format);
}

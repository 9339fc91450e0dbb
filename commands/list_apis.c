// SPDX-License-Identifier: MIT
/*
 * vdsokit list-apis: which calls vdsokit knows and which of them a vDSO
 * image exports, with the libc function and syscall behind each.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/apis.h"
#include "report/report.h"
#include "commands/commands.h"

static const char head[] =
	"Usage: vdsokit list-apis [--image FILE] [--format text|json]\n\n"
	"List the API table: each API's function, clock id, vDSO symbol, libc\n"
	"function and syscall, and whether the vDSO exports its symbol. Syscall\n"
	"numbers are the image's ABI's; '?' where vdsokit does not know them.\n\n";

static const char tail[] =
	"\n"
	"Exit status: 0 success, 2 usage error or bad image, 4 no vDSO in this process.\n";

static int list(const char *path, enum vk_format format)
{
	struct vk_api_row rows[vk_nlisted];
	struct vk_sysinfo si;
	struct vk_api_list l = { .version = vk_version, .sys = &si, .rows = rows };
	struct vk_image im;
	int status = vk_open_image(path, &im);
	const struct vk_arch *arch;
	int time32_off;

	if (status == VK_EXIT_USAGE)
		return status;
	arch = status == VK_EXIT_OK ? im.arch : vk_arch_host();
	l.image = status == VK_EXIT_OK ? im.source : NULL;
	l.abi = arch ? arch->name : NULL;
	l.sysno = vk_arch_sysno(arch);
	time32_off = l.image && vk_image_time32_off(&im);
	for_each_listed_api(a) {
		struct vk_api_row *r = &rows[l.n];

		if (arch && !(arch->funcs & VK_FN_BIT(a->func)))
			continue;
		if (!vk_api_applies(a, arch ? arch->is64 : sizeof(void *) == 8))
			continue;
		r->api = a;
		r->time32_off = 0;
		if (!l.image)
			snprintf(r->f.want, sizeof(r->f.want), "%s%s", arch ? arch->prefix : "",
				 vk_funcs[a->func].name);
		else if (vk_image_func(&im, a->func, &r->f))
			r->time32_off = time32_off && vk_func_time32(arch, a->func);
		l.n++;
	}
	vk_sysinfo_read(&si);
	vk_render(stdout, format,
		  &(const struct vk_doc){ .command = "list-apis", .kind = VK_DOC_APIS, .apis = &l });
	if (status == VK_EXIT_OK)
		vk_image_close(&im);
	return status;
}

int cmd_list_apis(int argc, char **argv)
{
	const char *path = NULL;
	enum vk_format format = VK_FMT_TEXT;
	const struct vk_option opt[] = {
		VK_OPT('i', "image", VK_OPT_STRING, "FILE",
		  "check a vDSO image from FILE instead of this process's", &path),
		VK_OPT_FORMAT_ROW(&format, VK_DOC_APIS, ""),
		VK_OPT_HELP_ROW,
	};
	const struct vk_options o = VK_OPTIONS(head, tail, opt);
	enum vk_opt_result r = vk_options_parse(&o, argc, argv);

	if (r != VK_OPT_OK)
		return vk_opt_exit(r);
	if (optind < argc)
		return vk_usage_error("unexpected argument '%s'", argv[optind]);
	return list(path, format);
}

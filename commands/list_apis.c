// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>

#include "report/apis.h"
#include "commands/commands.h"

static const char usage[] =
	"Usage: vdsokit list-apis [--image FILE] [--format text|json]\n\n"
	"List the API table: each API's function, clock id, vDSO symbol, libc\n"
	"function and syscall, and whether the vDSO exports its symbol. Syscall\n"
	"numbers are the image's ABI's; '?' where vdsokit does not know them.\n\n"
	"  -i, --image FILE   check a vDSO image from FILE instead of this process's\n"
	"  -f, --format FMT   text (default) or json\n"
	"  -h, --help         show this help\n\n"
	"Exit status: 0 success, 2 usage error or bad image, 4 no vDSO in this process.\n";

static int list(const char *cmd, const char *path, int json)
{
	struct vk_api_row rows[vk_napis];
	struct vk_api_list l = { .rows = rows };
	struct vk_image im;
	int status = vk_open_image(cmd, path, &im);
	const struct vk_arch *arch;

	if (status == VK_EXIT_USAGE)
		return status;
	arch = status == VK_EXIT_OK ? im.arch : vk_arch_host();
	l.image = status == VK_EXIT_OK ? im.source : NULL;
	l.abi = arch ? arch->name : NULL;
	l.sysno = vk_arch_sysno(arch);
	for_each_api(a) {
		struct vk_api_row *r = &rows[l.n];

		if (arch && !(arch->funcs & VK_FN_BIT(a->func)))
			continue;
		if (!vk_api_applies(a, arch ? arch->is64 : sizeof(void *) == 8))
			continue;
		r->api = a;
		if (l.image)
			vk_image_func(&im, a->func, &r->f);
		else
			snprintf(r->f.want, sizeof(r->f.want), "%s%s", arch ? arch->prefix : "",
				 vk_funcs[a->func].name);
		l.n++;
	}
	if (json)
		vk_report_apis_json(stdout, &l);
	else
		vk_report_apis_text(stdout, &l);
	if (status == VK_EXIT_OK)
		vk_image_close(&im);
	return status;
}

int cmd_list_apis(int argc, char **argv)
{
	const char *path = NULL;
	int json = 0, status;

	status = vk_parse_image_opts(argc, argv, usage, &path, &json);
	if (status >= 0)
		return status;
	return list(argv[0], path, json);
}

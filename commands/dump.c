// SPDX-License-Identifier: MIT
/*
 * vdsokit dump: saves this process's vDSO image to a file, for readelf,
 * objdump, a bug report or a later 'info --image'.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands/commands.h"

static const char head[] =
	"Usage: vdsokit dump FILE\n\n"
	"Write this process's vDSO image, byte for byte, to FILE ('-' for standard\n"
	"output). readelf, objdump and 'vdsokit info --image FILE' can read it.\n\n";

static const char tail[] =
	"\n"
	"Exit status: 0 success, 2 usage or write error, 4 no vDSO in this process.\n";

static int write_all(int fd, const unsigned char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

static int dump(const char *path)
{
	static struct vk_files s = { 0 };
	struct vk_image im;
	int status;
	FILE *f;

	status = vk_open_image(NULL, &im);
	if (status)
		return status;
	if (strcmp(path, "-") == 0) {
		if (write_all(STDOUT_FILENO, im.elf.base, im.elf.size)) {
			fprintf(stderr, "%s: %s: %s\n", vk_progname, path, strerror(errno));
			return VK_EXIT_USAGE;
		}
		return VK_EXIT_OK;
	}
	f = vk_files_open(&s, path);
	if (!f)
		return VK_EXIT_USAGE;
	fwrite(im.elf.base, 1, im.elf.size, f);
	vk_files_flush(&s);
	return vk_files_commit(&s);
}

int cmd_dump(int argc, char **argv)
{
	const struct vk_option opt[] = { VK_OPT_HELP_ROW };
	const struct vk_options o = VK_OPTIONS(head, tail, opt);
	enum vk_opt_result r = vk_options_parse(&o, argc, argv);

	if (r != VK_OPT_OK)
		return vk_opt_exit(r);
	if (argc - optind != 1)
		return vk_usage_error(argc == optind ? "missing FILE" : "too many arguments");
	return dump(argv[optind]);
}

// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands/commands.h"

static const char usage[] =
	"Usage: vdsokit dump FILE\n\n"
	"Write this process's vDSO image, byte for byte, to FILE ('-' for standard\n"
	"output). readelf, objdump and 'vdsokit info --image FILE' can read it.\n\n"
	"  -h, --help   show this help\n\n"
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

static int dump(const char *cmd, const char *path)
{
	int to_stdout = strcmp(path, "-") == 0;
	struct vk_image im;
	int fd, status, err;

	status = vk_open_image(cmd, NULL, &im);
	if (status)
		return status;
	fd = to_stdout ? STDOUT_FILENO : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "%s: %s: %s\n", cmd, path, strerror(errno));
		return VK_EXIT_USAGE;
	}
	err = write_all(fd, im.elf.base, im.elf.size);
	if (!to_stdout && close(fd))
		err = -1;
	if (err) {
		fprintf(stderr, "%s: %s: %s\n", cmd, path, strerror(errno));
		return VK_EXIT_USAGE;
	}
	return VK_EXIT_OK;
}

int cmd_dump(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c != 'h')
			return vk_bad_option(argv[0]);
		fputs(usage, stdout);
		return VK_EXIT_OK;
	}
	if (argc - optind != 1)
		return vk_usage_error(argv[0], argc == optind ? "missing FILE" : "too many arguments");
	return dump(argv[0], argv[optind]);
}

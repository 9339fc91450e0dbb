// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <string.h>

#include "report/format.h"

static const char *const names[] = {
	[VK_FMT_TEXT] = "text", [VK_FMT_KTAP] = "ktap", [VK_FMT_JSON] = "json",
	[VK_FMT_CSV] = "csv", [VK_FMT_MARKDOWN] = "markdown", [VK_FMT_HTML] = "html",
	[VK_FMT_VDSOTEST] = "vdsotest",
};

const char *vk_format_name(enum vk_format f)
{
	return f < VK_FMT_NONE ? names[f] : "none";
}

int vk_format_parse(const char *name, const enum vk_format *formats)
{
	for (; *formats != VK_FMT_NONE; formats++) {
		if (!strcmp(name, names[*formats]))
			return *formats;
	}
	return -1;
}

const char *vk_format_list(char *buf, size_t size, const enum vk_format *formats)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; formats[i] != VK_FMT_NONE && len < size; i++) {
		const char *sep = !i ? "" : formats[i + 1] == VK_FMT_NONE ? " or " : ", ";

		len += snprintf(buf + len, size - len, "%s%s", sep, names[formats[i]]);
	}
	return buf;
}

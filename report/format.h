/* SPDX-License-Identifier: MIT */
/*
 * The output formats: every one any command prints, named once. A command
 * states which it takes in its --format row (a list ended by VK_FMT_NONE,
 * in the order its messages name them); one parser reads them all.
 */
#ifndef VK_REPORT_FORMAT_H
#define VK_REPORT_FORMAT_H

#include <stddef.h>

enum vk_format {
	VK_FMT_TEXT, VK_FMT_KTAP, VK_FMT_JSON, VK_FMT_CSV, VK_FMT_MARKDOWN, VK_FMT_HTML,
	VK_FMT_VDSOTEST,
	VK_FMT_NONE,		/* prints nothing: `all` keeps the results for its own report */
};

/* A command's formats: VK_FORMATS(VK_FMT_TEXT, VK_FMT_JSON). */
#define VK_FORMATS(...) ((const enum vk_format[]){ __VA_ARGS__, VK_FMT_NONE })

const char *vk_format_name(enum vk_format f);
/* name's format when it is one of formats; else -1. */
int vk_format_parse(const char *name, const enum vk_format *formats);
/* formats as a message names them: "text, ktap or json". */
const char *vk_format_list(char *buf, size_t size, const enum vk_format *formats);

#endif /* VK_REPORT_FORMAT_H */

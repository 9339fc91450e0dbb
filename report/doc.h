/* SPDX-License-Identifier: MIT */
/*
 * The envelope every JSON document opens with, whatever the command: its
 * schema's name and version, the command, the tool and the environment
 * it ran in (doc/json-schema/envelope.json). The command's content
 * follows as more members of the same object.
 */
#ifndef VK_REPORT_DOC_H
#define VK_REPORT_DOC_H

#include "core/base/sysinfo.h"
#include "report/json.h"

/* The envelope's keys, for its writer and the readers of documents. */
#define VK_DOC_SCHEMA "schema"
#define VK_DOC_COMMAND "command"
#define VK_DOC_TOOL "tool"
#define VK_DOC_VERSION "version"
#define VK_DOC_BUILD "build"
#define VK_DOC_ENVIRONMENT "environment"
#define VK_DOC_KERNEL "kernel"
#define VK_DOC_RELEASE "release"
#define VK_DOC_MACHINE "machine"
#define VK_DOC_CLOCKSOURCE "clocksource"
#define VK_DOC_OPTIONS "options"

struct vk_envelope {
	const char *command;	/* "verify": its schema is "vdsokit-verify/VERSION" */
	int version;		/* of the command's schema */
	const char *tool_version;
	/* Where the document's figures were made: a reader's copy names the
	 * writer's; where release is NULL, sys's (the system the command ran
	 * on, read by the command). build NULL: this process's. */
	const char *build, *release, *machine, *clocksource;
	const struct vk_sysinfo *sys;
	/* The options' members, and more of the environment; either NULL. */
	void (*options)(struct vk_json *j, const void *ctx);
	void (*environment)(struct vk_json *j, const void *ctx);
	const void *ctx;
};

/* Open d's document at key (NULL: the root, or an array's element) and
 * write its envelope; the content follows, then vk_json_end(). */
void vk_doc_begin(struct vk_json *j, const char *key, const struct vk_envelope *d);

#endif /* VK_REPORT_DOC_H */

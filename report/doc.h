/* SPDX-License-Identifier: MIT */
/*
 * A command run's document: its command and one kind of content (struct
 * vk_doc), which report/format.h prints in any format. And the envelope
 * every JSON document opens with, whatever the command: its schema's
 * name and version, the command, the tool and the environment it ran in
 * (doc/json-schema/envelope.json). The command's content follows as more
 * members of the same object.
 */
#ifndef VK_REPORT_DOC_H
#define VK_REPORT_DOC_H

#include "core/base/envelope.h"
#include "core/base/sysinfo.h"
#include "report/json_writer.h"


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

struct vk_report;
struct vk_bench_report;
struct vk_compare_report;
struct vk_info;
struct vk_api_list;
struct vk_summary;
struct vk_inspect_report;

/* What a document holds: one kind of content. None is 0, so that a
 * document built without its kind is caught, not printed empty. */
enum vk_doc_kind {
	VK_DOC_SKIPPED = 1,	/* nothing ran: skipped says why */
	VK_DOC_RESULTS,		/* checks: verify, abi, fallback, timens, stress */
	VK_DOC_BENCH,
	VK_DOC_COMPARE,
	VK_DOC_INFO,
	VK_DOC_APIS,
	VK_DOC_SUMMARY,		/* all's */
	VK_DOC_INSPECT,
};

/* One command run's document: its content, of the kind it names. */
struct vk_doc {
	const char *command;	/* "bench" */
	enum vk_doc_kind kind;
	union {
		const char *skipped;	/* why nothing ran */
		const struct vk_report *results;
		const struct vk_bench_report *bench;
		const struct vk_compare_report *compare;
		const struct vk_info *info;
		const struct vk_api_list *apis;
		const struct vk_summary *summary;
		const struct vk_inspect_report *inspect;
	};
};

/* Open d's document at key (NULL: the root, or an array's element) and
 * write its envelope; the content follows, then vk_json_end(). */
void vk_doc_begin(struct vk_json *j, const char *key, const struct vk_envelope *d);

#endif /* VK_REPORT_DOC_H */

/* SPDX-License-Identifier: MIT */
/*
 * The keys of the envelope every JSON document of vdsokit's has: its
 * writer (report/doc.c) and its readers (core/benchfile) spell them here.
 */
#ifndef VK_BASE_ENVELOPE_H
#define VK_BASE_ENVELOPE_H

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

#endif /* VK_BASE_ENVELOPE_H */

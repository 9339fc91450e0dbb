// SPDX-License-Identifier: MIT
/*
 * Begins and ends every command's document, and writes the envelope each
 * JSON document opens with (doc.h).
 */
#include <stdio.h>

#include "report/doc.h"

void vk_doc_begin(struct vk_json *j, const char *key, const struct vk_envelope *d)
{
	const char *release = d->release, *machine = d->machine, *cs = d->clocksource;
	char schema[64];

	if (!release) {
		release = d->sys->uts.release;
		machine = d->sys->uts.machine;
		cs = d->sys->clocksource;
	}
	snprintf(schema, sizeof(schema), "vdsokit-%s/%d", d->command, d->version);
	vk_json_object(j, key);
	vk_json_str(j, VK_DOC_SCHEMA, schema);
	vk_json_str(j, VK_DOC_COMMAND, d->command);
	vk_json_object(j, VK_DOC_TOOL);
	vk_json_str(j, VK_DOC_VERSION, d->tool_version);
	vk_json_str(j, VK_DOC_BUILD, d->build ? d->build : vk_build_abi());
	vk_json_end(j);
	vk_json_object(j, VK_DOC_ENVIRONMENT);
	vk_json_object(j, VK_DOC_KERNEL);
	vk_json_str(j, VK_DOC_RELEASE, release);
	vk_json_str(j, VK_DOC_MACHINE, machine);
	vk_json_end(j);
	vk_json_str(j, VK_DOC_CLOCKSOURCE, cs && *cs ? cs : NULL);
	vk_json_object(j, VK_DOC_OPTIONS);
	if (d->options)
		d->options(j, d->ctx);
	vk_json_end(j);
	if (d->environment)
		d->environment(j, d->ctx);
	vk_json_end(j);
}

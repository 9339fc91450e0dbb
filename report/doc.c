// SPDX-License-Identifier: MIT
#include <stdio.h>

#include "core/base/sysinfo.h"
#include "report/doc.h"

void vk_doc_begin(struct vk_json *j, const char *key, const struct vk_envelope *d)
{
	char schema[64];
	struct vk_sysinfo si;

	/* The system is read as the document is written, as uname(1) would. */
	if (!d->release)
		vk_sysinfo_read(&si);
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
	vk_json_str(j, VK_DOC_RELEASE, d->release ? d->release : si.uts.release);
	vk_json_str(j, VK_DOC_MACHINE, d->release ? d->machine : si.uts.machine);
	vk_json_end(j);
	if (d->release)
		vk_json_str(j, VK_DOC_CLOCKSOURCE, d->clocksource && *d->clocksource ? d->clocksource : NULL);
	else
		vk_json_str(j, VK_DOC_CLOCKSOURCE, si.clocksource[0] ? si.clocksource : NULL);
	vk_json_object(j, VK_DOC_OPTIONS);
	if (d->options)
		d->options(j, d->ctx);
	vk_json_end(j);
	if (d->environment)
		d->environment(j, d->ctx);
	vk_json_end(j);
}

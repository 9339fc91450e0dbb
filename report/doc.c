// SPDX-License-Identifier: MIT
#include <stdio.h>

#include "core/base/sysinfo.h"
#include "report/doc.h"

void vk_doc_begin(struct vk_json *j, const char *key, const struct vk_doc *d)
{
	char schema[64];
	struct vk_sysinfo si;

	/* The system is read as the document is written, as uname(1) would. */
	if (!d->release)
		vk_sysinfo_read(&si);
	snprintf(schema, sizeof(schema), "vdsokit-%s/%d", d->command, d->version);
	vk_json_object(j, key);
	vk_json_str(j, "schema", schema);
	vk_json_str(j, "command", d->command);
	vk_json_object(j, "tool");
	vk_json_str(j, "version", d->tool_version);
	vk_json_str(j, "build", d->build ? d->build : vk_build_abi());
	vk_json_end(j);
	vk_json_object(j, "environment");
	vk_json_object(j, "kernel");
	vk_json_str(j, "release", d->release ? d->release : si.uts.release);
	vk_json_str(j, "machine", d->release ? d->machine : si.uts.machine);
	vk_json_end(j);
	if (d->release)
		vk_json_str(j, "clocksource", d->clocksource && *d->clocksource ? d->clocksource : NULL);
	else
		vk_json_str(j, "clocksource", si.clocksource[0] ? si.clocksource : NULL);
	vk_json_object(j, "options");
	if (d->options)
		d->options(j, d->ctx);
	vk_json_end(j);
	if (d->environment)
		d->environment(j, d->ctx);
	vk_json_end(j);
}

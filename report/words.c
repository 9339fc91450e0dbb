// SPDX-License-Identifier: MIT
/*
 * The words more than one format prints, so that they read the same in
 * each: a result's cases and how often it broke, compare's one line and
 * a verdict beyond the machine's move, a symbol with its version, a
 * tristate, an API's state in an image, inspect's kinds of site and a
 * step's outcome. The formats themselves are one file each (text.c,
 * ktap.c, json.c, ...).
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "report/apis.h"
#include "report/compare.h"
#include "report/info.h"
#include "report/inspect.h"
#include "report/report.h"
#include "report/safe.h"
#include "report/summary.h"

void vk_report_cases(char *buf, size_t len, const struct vk_result *r)
{
	size_t n = 0;

	buf[0] = '\0';
	if (r->ncases + !!r->more_cases < 2)
		return;
	for (int i = 0; i < r->ncases && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? ", " : "", vk_safe(r->cases[i]));
	if (r->more_cases && n < len)
		snprintf(buf + n, len - n, " and %llu more", r->more_cases);
}

/* " (broken 2 times in 38 calls: flags 0x6, flags 0x7)": how often, and
 * each case where more than one broke. */
void vk_report_broken(char *buf, size_t len, const struct vk_result *r)
{
	char cases[VK_RESULT_CASES * 40];

	vk_report_cases(cases, sizeof(cases), r);
	snprintf(buf, len, " (broken %llu times in %llu calls%s%s)", r->fails, r->calls,
		 cases[0] ? ": " : "", cases);
}

/* A verdict given although the machine moved: how far beyond its move. */
const char *vk_report_compare_beyond(char *buf, size_t size, const struct vk_compare_row *r)
{
	buf[0] = 0;
	if (isfinite(r->beyond))
		snprintf(buf, size, " (%+.1f%% beyond the machine's own %+.1f%%)", r->beyond,
			 r->machine_move);
	return buf;
}

const char *vk_report_compare_oneline(char *buf, size_t size, const struct vk_compare_report *c)
{
	char more[80] = "";
	size_t at = 0;

	if (c->no_verdict)
		at += snprintf(more, sizeof(more), ", %zu without a verdict", c->no_verdict);
	if (c->nfailed)
		snprintf(more + at, sizeof(more) - at, ", %zu failed", c->nfailed);
	snprintf(buf, size, "%zu faster, %zu slower, %zu unchanged%s; geometric mean %.3f",
		 c->improvements, c->regressions, c->unchanged, more, c->geomean);
	return buf;
}

const char *vk_report_symver(char *buf, size_t len, const struct vk_elf_sym *s)
{
	snprintf(buf, len, "%s%s%s", s->name, s->version ? (s->hidden ? "@" : "@@") : "",
		 s->version ? s->version : "");
	return buf;
}

const char *vk_report_tristate(enum vk_tristate t)
{
	return t == VK_YES ? "yes" : t == VK_NO ? "no" : "unknown";
}

const char *vk_report_api_status(const struct vk_api_list *l, const struct vk_api_row *r)
{
	if (!l->image)
		return "no vDSO";
	if (r->f.found)
		return "exported";
	if (r->time32_off)
		return "not built: CONFIG_COMPAT_32BIT_TIME=n";
	return r->f.wrong_version ? "wrong version" : "absent";
}

const char *const vk_report_insp_kinds[VK_INSP_NKINDS] = {
	[VK_INSP_INDIRECT] = "indirect", [VK_INSP_CALL] = "call",
	[VK_INSP_SYSCALL] = "syscall", [VK_INSP_BARRIER] = "barrier",
	[VK_INSP_COUNTER] = "counter", [VK_INSP_PROBE] = "probe",
};

const char *vk_outcome_name(enum vk_outcome o)
{
	static const char *const name[] = { [VK_OUTCOME_OK] = "ok", [VK_OUTCOME_FAIL] = "FAIL",
					    [VK_OUTCOME_SKIP] = "SKIP", [VK_OUTCOME_ERROR] = "ERROR" };

	return name[o];
}

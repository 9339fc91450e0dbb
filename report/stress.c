// SPDX-License-Identifier: MIT
/* Prints stress's report: its results, and what it found and put back. */
#include "report/json_writer.h"
#include "report/ktap.h"
#include "report/stress.h"

/* What stress found before it began, as one line. */
static const char *found(char *buf, size_t size, const struct vk_stress_end *e)
{
	snprintf(buf, size, "found: clocksource %s, frequency %ld, tick %ld us, REALTIME %lld ns at "
		 "MONOTONIC %lld ns, %d reader threads",
		 e->saved.clocksource[0] ? e->saved.clocksource : "(none)", e->saved.freq,
		 e->saved.tick, (long long)e->saved.real_ns, (long long)e->saved.mono_ns, e->threads);
	return buf;
}

/* Whether it put that back, as one line. */
static const char *restored(char *buf, size_t size, const struct vk_stress_end *e)
{
	if (e->restored)
		snprintf(buf, size, "restored: clocksource %s, frequency %ld, tick %ld us, CPUs online, "
			 "REALTIME%s%s", e->saved.clocksource[0] ? e->saved.clocksource : "(none)",
			 e->saved.freq, e->saved.tick,
			 e->saved.faults & (1u << VK_FAULT_LEAP) ? ", adjtimex status and TAI offset" : "",
			 e->saved.faults & (1u << VK_FAULT_TIMEZONE) ? ", timezone" : "");
	else
		snprintf(buf, size, "NOT RESTORED: %s", e->restore_err);
	return buf;
}

static void text(FILE *f, const struct vk_report *r, const struct vk_stress_end *e)
{
	const struct vk_tally t = vk_results_tally(r->rs);
	char line[256];

	fprintf(f, "%s\n", found(line, sizeof(line), e));
	fprintf(f, "\n%-34s %-8s %12s  %s\n", "fault", "path", "calls", "result");
	for (size_t i = 0; i < r->rs->n; i++) {
		const struct vk_result *x = r->rs->r[i];

		fprintf(f, "%-34s %-8s %12llu  %s: %s\n", x->api, vk_path_name(x->path), x->calls,
			x->status == VK_PASS ? "ok" : x->status == VK_FAIL ? "FAIL" :
			x->status == VK_ERROR ? "ERROR, vdsokit's own" : "SKIP", x->detail);
	}
	fprintf(f, "\n%s: %zu fault steps and paths: %zu survived, %zu failed, %zu skipped",
		r->command, r->rs->n, t.pass, t.fail, t.skip);
	if (t.error)
		fprintf(f, ", %zu not tested for vdsokit's own error", t.error);
	fputc('\n', f);
	if (e->what[0])
		fprintf(f, "ended early: %s\n", e->what);
	fprintf(f, "%s\n", restored(line, sizeof(line), e));
}

static void json_more(struct vk_json *j, const void *ctx)
{
	const struct vk_stress_end *e = ctx;

	vk_json_object(j, "found");
	vk_json_str(j, "clocksource", e->saved.clocksource);
	vk_json_int(j, "frequency", e->saved.freq);
	vk_json_int(j, "tick", e->saved.tick);
	vk_json_int(j, "realtime_ns", e->saved.real_ns);
	vk_json_int(j, "monotonic_ns", e->saved.mono_ns);
	vk_json_end(j);
	vk_json_int(j, "threads", e->threads);
	vk_json_str(j, "ended_early", e->what[0] ? e->what : NULL);
	vk_json_bool(j, "restored", e->restored);
	vk_json_str(j, "restore_error", e->restored ? NULL : e->restore_err);
}

static void text_hook(FILE *f, const struct vk_report *r)
{
	text(f, r, r->ctx);
}

static void ktap_more(const struct vk_out *k, const void *ctx)
{
	const struct vk_stress_end *e = ctx;
	char line[256];

	vk_ktap_diag(k, "%s", found(line, sizeof(line), e));
	if (e->what[0])
		vk_ktap_diag(k, "ended early: %s", e->what);
	vk_ktap_diag(k, "%s", restored(line, sizeof(line), e));
}

void vk_report_stress_hooks(struct vk_report *r, const struct vk_stress_end *end)
{
	r->text = text_hook;
	r->json_more = json_more;
	r->ktap_more = ktap_more;
	r->ctx = end;
}

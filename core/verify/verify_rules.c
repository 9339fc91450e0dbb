// SPDX-License-Identifier: MIT
/*
 * verify's rules, listed once: each with its family and what it holds the
 * path under test to. verify --list-rules prints this table, --rules
 * selects from it, and the families' results carry these names.
 */
#include <stdio.h>
#include <string.h>

#include "core/verify/verify.h"

const struct vk_rule vk_verify_rules[] = {
	{ "clock", "errno", "return value and errno equal the syscall's, for every clock id" },
	{ "clock", "ordered", "syscall <= path <= syscall, read in that order" },
	{ "clock", "normalized", "0 <= nsec < 1e9, and no negative seconds where impossible" },
	{ "clock", "monotonic", "no reading earlier than the one before it" },
	{ "clock", "null-args", "a NULL the ABI allows behaves as the syscall's does" },
	{ "clock", "resolution", "clock_getres equals the syscall's" },
	{ "clock", "coarse-step", "MONOTONIC_COARSE never steps back" },
	{ "clock", "vvar-pages", "every page of [vvar] reads, zeroed where the kernel has no data (Linux 7.3 on)" },
	{ "relations", "boottime", "BOOTTIME - MONOTONIC is at least the namespace's offsets' gap" },
	{ "relations", "tai-offset", "TAI - REALTIME equals adjtimex()'s TAI offset" },
	{ "relations", "coarse-bound", "a coarse clock is never ahead of its fine clock, nor behind by more than its resolution" },
	{ "threads", "threads", "no thread reads a time earlier than one another thread published before" },
	{ "aux", "aux-enable", "a disabled aux clock (ids 16-23) is enabled" },
	{ "aux", "aux-ordered", "ordered on it while enabled, stepped and slewed" },
	{ "aux", "aux-monotonic", "monotonic on it while enabled, stepped and slewed" },
	{ "aux", "aux-step", "ADJ_SETOFFSET moves the syscall's reading by the step" },
	{ "aux", "aux-slew", "ADJ_FREQUENCY is taken, and the reads stay in order" },
	{ "aux", "aux-disable", "disabled again, the path returns what the syscall does" },
	{ "gettimeofday", "realtime", "gettimeofday lies between two CLOCK_REALTIME syscalls" },
	{ "gettimeofday", "timezone", "the timezone equals the syscall's" },
	{ "time", "time-pointer", "time(&t) stores what it returns" },
	{ "time", "coarse-seconds", "time() lies between two CLOCK_REALTIME_COARSE readings" },
	{ "getcpu", "cpu", "pinned to each allowed CPU in turn, getcpu gives it" },
	{ "getcpu", "node", "the node equals the syscall's" },
	{ "getcpu", "sysfs-node", "the node is the one sysfs's cpuN/nodeM names" },
	{ "getrandom", "query", "the state query gives a usable size and mapping" },
	{ "getrandom", "length", "getrandom writes exactly the bytes it reports, 0-64 KiB" },
	{ "getrandom", "flags", "each flag set is accepted or refused as the syscall does" },
	{ "getrandom", "differs", "two draws differ" },
	{ "getrandom", "fork", "a forked child does not draw the parent's bytes" },
	{ "getrandom", "fork-drawing", "a fork() while another thread draws leaves the child drawing its own bytes" },
	{ "getrandom", "thread-states", "threads, each with its own state, draw apart" },
	{ "getrandom", "straddle", "a state that straddles a page boundary works" },
	{ "getrandom", "no-files", "draws with RLIMIT_NOFILE at 0" },
	{ "getrandom", "statistics", "1 MiB of draws passes the randomness tests" },
	{ "every", "survives", "a function's checks on a path neither crash nor hang" },
	{ "every", "stack", "the most stack a call uses; over --max-stack, or on the guard pages, fails" },
	{ "every", "signal-call", "called again from a signal handler that interrupted it, it returns what it does outside" },
	{ "every", "signal-unwind", "from a signal inside the call, the unwinder reaches the caller" },
	{ "every", "mlockall", "no page fault in the first call after mlockall() (Linux 7.3 on)" },
	{ "every", "second-edge", "a call held inside across a second boundary reads neither back nor outside the syscall's bracket" },
};

const size_t vk_verify_nrules = sizeof(vk_verify_rules) / sizeof(vk_verify_rules[0]);
_Static_assert(sizeof(vk_verify_rules) / sizeof(vk_verify_rules[0]) <= VK_VERIFY_MAX_RULES,
	       "a selection holds VK_VERIFY_MAX_RULES rules");

/* Select each rule named, or each of a family named, in the comma list. */
int vk_verify_rules_select(const char *list, unsigned char *on, char *bad, size_t len)
{
	char name[64];

	memset(on, 0, vk_verify_nrules);
	while (*list) {
		size_t n = strcspn(list, ",");
		int found = 0;

		snprintf(name, sizeof(name), "%.*s", (int)n, list);
		for (size_t i = 0; i < vk_verify_nrules; i++)
			if (!strcmp(name, vk_verify_rules[i].name) ||
			    !strcmp(name, vk_verify_rules[i].family))
				found = on[i] = 1;
		if (!found) {
			snprintf(bad, len, "%s", name);
			return -1;
		}
		list += n + (list[n] == ',');
	}
	return 0;
}

/* The rules a run keeps whatever --rules says: a path not tested at all,
 * and one whose checks crashed or hung. */
static int always(const char *check)
{
	return !strcmp(check, "all") || !strcmp(check, "survives");
}

int vk_verify_wants(const struct vk_verify *v, const char *rule)
{
	if (!v->rules || always(rule))
		return 1;
	for (size_t i = 0; i < vk_verify_nrules; i++)
		if (!strcmp(rule, vk_verify_rules[i].name))
			return v->rules[i];
	return 0;
}

int vk_verify_wants_family(const struct vk_verify *v, const char *family)
{
	for (size_t i = 0; i < vk_verify_nrules; i++)
		if (!strcmp(family, vk_verify_rules[i].family) && (!v->rules || v->rules[i]))
			return 1;
	return 0;
}

static int wanted(const char *check, void *ctx)
{
	return vk_verify_wants(ctx, check);
}

void vk_verify_drop_unwanted(struct vk_verify *v)
{
	if (v->rules)
		vk_results_keep(v->rs, wanted, v);
}

# verify's registry of rules (core/verify/verify_rules.c): --list-rules
# lists every rule a run reports, and --rules judges only those selected,
# never hiding a crash.
. "$TOP/tests/lib.sh"

IMPL=$O/tests/impl

expect_status 0 "verify --list-rules exits 0" "$VK" verify --list-rules
cp "$TMP/out" "$TMP/rules"
contains "it lists a rule with its family and what it holds" "$TMP/rules" '^clock +ordered +syscall <= path'

# Every check a run reports is in the registry, so that a new rule cannot
# be added without a row there ("all" is a path not tested at all).
"$VK" verify -d 0.02 --format ktap >"$TMP/all.ktap" 2>/dev/null
missing=$(sed -nE 's/^(not )?ok [0-9]+ [^ ]+ [^ ]+ ([^ ]+).*/\2/p' "$TMP/all.ktap" | sort -u |
	while read -r rule; do
		[ "$rule" = all ] || awk '{ print $2 }' "$TMP/rules" | grep -qx -- "$rule" || echo "$rule"
	done)
if [ -z "$missing" ] && grep -q '^ok ' "$TMP/all.ktap"; then
	ok "every rule of a full verify is listed"
else
	not_ok "every rule of a full verify is listed" "not listed: ${missing:-(no results)}"
fi

expect_status 0 "--rules ordered passes" "$VK" verify -d 0.05 --rules ordered --format ktap \
	clock-gettime-monotonic
rules=$(sed -nE 's/^(not )?ok [0-9]+ [^ ]+ [^ ]+ ([^ ]+).*/\2/p' "$TMP/out" | sort -u | tr '\n' ' ')
if [ "$rules" = "ordered " ]; then ok "--rules ordered judges ordered alone"; else
	not_ok "--rules ordered judges ordered alone" "rules judged: $rules"; fi

expect_status 0 "--rules getcpu passes" "$VK" verify -d 0.05 --rules getcpu --format ktap
rules=$(sed -nE 's/^(not )?ok [0-9]+ [^ ]+ [^ ]+ ([^ ]+).*/\2/p' "$TMP/out" | sort -u | tr '\n' ' ')
if [ "$rules" = "cpu node sysfs-node " ]; then ok "a family selects its rules"; else
	not_ok "a family selects its rules" "rules judged: $rules"; fi

expect_status 2 "an unknown rule is a usage error" "$VK" verify --rules ordered,no-such-rule
contains "it is named" "$TMP/err" "no rule or family 'no-such-rule'"

# A failure of a rule left out is not judged; a crash is never hidden.
if [ -f "$IMPL/crash-getcpu.so" ]; then
	expect_status 1 "a crashing library fails whatever --rules selects" \
		"$VK" verify -d 0.05 --rules ordered --paths impl --impl "$IMPL/crash-getcpu.so" \
		--format ktap getcpu
	contains "its crash is named under survives" "$TMP/out" '^not ok [0-9]+ .* impl survives'
else
	skip "a crashing library fails whatever --rules selects" "$IMPL is not built (a static build)"
fi

# Before the CRNG is ready a blocking getrandom waits (the kernel's rule,
# met in a guest at boot: armhf-vexpress-a9 under load), so the rules
# that call it as it is SKIP saying so, as its family does, and none
# reads the wait as a hang. The LD_PRELOAD library makes the syscall
# behave so; the old code failed signal-call as hung.
so=$IMPL/preload-crng-not-ready.so
desc="verify: before the CRNG is ready, getrandom's every rule SKIPs (exit 4)"
why=$(preload_why "$so")
if [ -n "$why" ]; then
	skip "$desc" "$why"
else
	expect_status 4 "$desc" env LD_PRELOAD="$so" timeout 120 "$VK" verify --paths vdso,libc --format ktap getrandom
	for rule in stack signal-call signal-unwind mlockall; do
		contains "and $rule says why" "$TMP/out" \
			"^ok [0-9]+ getrandom libc $rule # SKIP the CRNG is not ready yet: getrandom would block\$"
	done
fi

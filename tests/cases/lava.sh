# contrib/lava: the test definition parses with the metadata LAVA's
# validator requires, and its script turns KTAP into result lines
#   NAME pass|fail|skip|unknown [MEASUREMENT UNITS]
# that send-to-lava.sh and lava-test-case take.
. "$TOP/tests/lib.sh"

L="$TOP/contrib/lava"
S="$L/vdsokit.sh"
impl="$O/tests/impl"

if need python3 && python3 -c 'import yaml' 2>/dev/null; then
	check "vdsokit.yaml has the metadata and steps test-definitions' validate.py requires" python3 -c '
import os, sys, yaml
y = yaml.safe_load(open(sys.argv[1]))
m = y["metadata"]
for k in ("name", "format", "description", "maintainer", "os", "devices"):
    assert m.get(k), "metadata." + k + " missing or empty"
assert " " not in m["name"], "name has whitespace"
assert m["format"] == "Lava-Test Test Definition 1.0", m["format"]
steps = y["run"]["steps"]
assert steps[0].strip().rstrip("/").endswith("contrib/lava"), steps[0]
script = steps[1].split()[0]
assert os.access(os.path.join(os.path.dirname(sys.argv[1]), script), os.X_OK), script
assert "${VDSOKIT}" in steps[1] and "VDSOKIT" in y["params"], "the binary is a parameter"
' "$L/vdsokit.yaml"
else
	skip "vdsokit.yaml has the metadata and steps test-definitions' validate.py requires" \
		"python3 with yaml (Debian's python3-yaml) is not installed"
fi
if need shellcheck; then
	check "the script passes shellcheck, as validate.py runs it" shellcheck "$S"
else
	skip "the script passes shellcheck, as validate.py runs it" "shellcheck is not installed"
fi

# grammar FILE: every line "name pass|fail|skip|unknown [measurement units]",
# names LAVA-safe and unique.
grammar() {
	[ -s "$1" ] &&
	! grep -vqE '^[A-Za-z0-9_.-]+ (pass|fail|skip|unknown)( [0-9]+(\.[0-9]+)? [A-Za-z/]+)?$' "$1" &&
	[ -z "$(cut -d' ' -f1 "$1" | sort | uniq -d)" ]
}
# results KTAP-FILE: the script's result.txt for it.
results() {
	rm -rf "$TMP/lava"
	"$S" -o "$TMP/lava" -k "$1" >/dev/null && cp "$TMP/lava/result.txt" "$TMP/res"
}
# top KTAP-FILE: its top-level results, which the script must all keep.
top() { grep -cE '^(not )?ok [0-9]+' "$1"; }

"$VK" verify --format ktap -d 0.05 clock-gettime-monotonic gettimeofday getcpu >"$TMP/verify.ktap"
check "verify's KTAP becomes result lines" results "$TMP/verify.ktap"
check "in the grammar" grammar "$TMP/res"
check "one per KTAP result" test "$(wc -l <"$TMP/res")" = "$(top "$TMP/verify.ktap")"
contains "named by the description" "$TMP/res" '^clock-gettime-monotonic-vdso-ordered pass$'
contains "a SKIP directive is a skip" "$TMP/res" '^getcpu-libc-node skip$'

"$VK" bench --format ktap -d 0.02 clock-gettime-monotonic getcpu >"$TMP/bench.ktap"
check "bench's KTAP becomes result lines" results "$TMP/bench.ktap"
check "in the grammar" grammar "$TMP/res"
check "every figure a measurement in ns" \
	test "$(grep -cE ' pass [0-9.]+ ns$' "$TMP/res")" = "$(grep -c '^# median' "$TMP/bench.ktap")"
contains "named API-path" "$TMP/res" '^clock-gettime-monotonic-vdso pass [0-9.]+ ns$'

"$VK" abi --format ktap getcpu >"$TMP/abi.ktap"
check "abi's KTAP becomes result lines" results "$TMP/abi.ktap"
check "in the grammar, one per result" \
	test "$(grammar "$TMP/res" && wc -l <"$TMP/res")" = "$(top "$TMP/abi.ktap")"

# Distinct descriptions get distinct names by construction, not a _dupN
# that depends on which came first: a sign is spelled out.
"$VK" abi --format ktap getrandom >"$TMP/abi.ktap"
check "getrandom's abi KTAP becomes result lines" results "$TMP/abi.ktap"
check "in the grammar, one per result, none a _dupN" \
	test "$(grammar "$TMP/res" && grep -vc _dup "$TMP/res")" = "$(top "$TMP/abi.ktap")"
contains "state_len:size+1 is size-plus-1" "$TMP/res" '^getrandom-vdso-state_len-size-plus-1 pass$'
contains "state_len:size-1 is size-1" "$TMP/res" '^getrandom-vdso-state_len-size-1 pass$'
printf 'KTAP version 1\n1..3\nok 1 a+1\nok 2 a-1\nnot ok 3 a <= b%%\n' >"$TMP/signs.ktap"
check "signs become words" results "$TMP/signs.ktap"
check "each its own name" \
	test "$(cat "$TMP/res")" = "$(printf 'a-plus-1 pass\na-1 pass\na-lt-eq-b-pct fail')"

# KTAP v1 nesting, as 'vdsokit all --format ktap' and kselftest print it.
cat >"$TMP/nested.ktap" <<'EOF'
KTAP version 1
1..3
  KTAP version 1
  1..3
  # a diagnostic: ok 9 not a result
  ok 1 clock-gettime-monotonic vdso ordered
  not ok 2 clock-getres-id:17 vdso errno
  # clock 17: vdso returned 0 (success), the syscall -22
  ok 3 getcpu libc node # SKIP sched_getcpu() gives no node
ok 1 verify
    KTAP version 1
    1..1
    ok 1 time vdso
    # median 1.3 ns/call, min 1.2, 95% CI 1.2-1.4, CV 0.8%, 10 samples
  KTAP version 1
  1..2
  ok 1 inner
  ok 2 inner
not ok 2 bench
ok 3 timens # SKIP no time namespaces here
EOF
cat >"$TMP/nested.want" <<'EOF'
verify.clock-gettime-monotonic-vdso-ordered pass
verify.clock-getres-id-17-vdso-errno fail
verify.getcpu-libc-node skip
verify pass
bench.inner.time-vdso pass 1.3 ns
bench.inner pass
bench.inner_dup2 pass
bench fail
timens skip
EOF
check "a nested KTAP sample becomes result lines" results "$TMP/nested.ktap"
check "subtests named PARENT.CHILD, SKIP a skip, not ok a fail, a repeat _dup2" \
	cmp "$TMP/res" "$TMP/nested.want"

# The job: 'vdsokit all --format ktap', its status a result of its own.
# A stand-in binary, as all's KTAP comes with the report issue.
cat >"$TMP/fake-vdsokit" <<EOF
#!/bin/sh
echo "\$*" >"$TMP/fake-args"
cat "$TMP/nested.ktap"
echo "vdsokit: a warning on stderr" >&2
exit 1
EOF
chmod +x "$TMP/fake-vdsokit"
mkdir -p "$TMP/path"
cat >"$TMP/path/lava-test-case" <<EOF
#!/bin/sh
echo "\$*" >>"$TMP/lava-calls"
EOF
chmod +x "$TMP/path/lava-test-case"
rm -rf "$TMP/lava"
env PATH="$TMP/path:$PATH" "$S" -b "$TMP/fake-vdsokit" -o "$TMP/lava" >"$TMP/job.out" 2>&1
check "the script runs the job" test $? = 0
# The log keeps what lava-test-case cannot: each reason, and the totals.
check "vdsokit's KTAP goes to the job's log first, whole" \
	test "$(head -n "$(wc -l <"$TMP/nested.ktap")" "$TMP/job.out")" = "$(cat "$TMP/nested.ktap")"
contains "then its stderr, as # lines" "$TMP/job.out" '^# vdsokit: a warning on stderr$'
check "as 'vdsokit all --format ktap'" test "$(cat "$TMP/fake-args")" = "all --format ktap"
check "its exit status 1 is the result vdsokit-all fail" test "$(tail -n 1 "$TMP/lava/result.txt")" = "vdsokit-all fail"
check "in the grammar" grammar "$TMP/lava/result.txt"
check "each line goes to lava-test-case" test "$(wc -l <"$TMP/lava-calls")" = 10
contains "a figure with --measurement and --units" "$TMP/lava-calls" \
	'^bench\.inner\.time-vdso --result pass --measurement 1\.3 --units ns$'
# vdsokit's own error (KTAP's ERROR directive, exit 3) is LAVA's
# unknown: it says nothing of the kernel, so it is never a kernel fail.
cat >"$TMP/error.ktap" <<'EOF'
KTAP version 1
1..2
  KTAP version 1
  1..2
  not ok 1 getcpu vdso cpu # ERROR not tested: vdsokit's sched_setaffinity() to CPU 0 failed: Operation not permitted
  ok 2 getcpu vdso node
  # Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:1
not ok 1 verify # ERROR not tested: vdsokit's own error
ok 2 timens # SKIP no time namespaces here
# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:1 error:1
EOF
cat >"$TMP/error.want" <<'EOF'
verify.getcpu-vdso-cpu unknown
verify.getcpu-vdso-node pass
verify unknown
timens skip
EOF
check "an ERROR directive becomes unknown, not fail" results "$TMP/error.ktap"
check "at each depth" cmp "$TMP/res" "$TMP/error.want"
sed -e "s|nested.ktap|error.ktap|; s|^exit 1$|exit 3|" "$TMP/fake-vdsokit" >"$TMP/fake-error"
chmod +x "$TMP/fake-error"
rm -rf "$TMP/lava"
"$S" -b "$TMP/fake-error" -o "$TMP/lava" >/dev/null 2>&1
check "exit status 3 (vdsokit's own error) is the result vdsokit-all unknown" \
	test "$(tail -n 1 "$TMP/lava/result.txt")" = "vdsokit-all unknown"
check "in the grammar" grammar "$TMP/lava/result.txt"
expect_status 2 "the script refuses an unknown option" "$S" -x
expect_status 2 "and an argument" "$S" extra

# A planted bug reaches LAVA as a fail.
if [ -f "$impl/bug-mono-stepback.so" ]; then
	"$VK" verify --format ktap -d 0.2 -I "$impl/bug-mono-stepback.so" clock-gettime-monotonic >"$TMP/bug.ktap"
	check "a planted bug's KTAP becomes result lines" results "$TMP/bug.ktap"
	contains "the clock stepping back is a fail" "$TMP/res" '^clock-gettime-monotonic-impl-monotonic fail$'
	check "and only on the buggy path" test "$(grep ' fail$' "$TMP/res" | grep -cv -- '-impl-')" = 0
else
	skip "a planted bug reaches LAVA as a fail" "no --impl libraries in this build"
fi

# --format openmetrics (info, fallback, bench, all, verify), read by a strict
# parser of the OpenMetrics text exposition: metric and label names by
# their grammar, label values with only \\, \" and \n escaped, one # TYPE
# per family before its samples, a family's samples together, no series
# twice, a number for every value, and # EOF last. The parser is proved
# on planted errors first: each must be caught.
. "$TOP/tests/lib.sh"

D=$TMP/openmetrics
mkdir -p "$D"

# parse FILE: exits 0 when FILE is strict OpenMetrics text, else says why.
parse() {
	python3 - "$1" <<'EOF'
import re, sys
NAME = r'[a-zA-Z_:][a-zA-Z0-9_:]*'
LABEL = r'[a-zA-Z_][a-zA-Z0-9_]*'
VALUE = r'"(?:[^"\\\n]|\\[\\"n])*"'
SAMPLE = re.compile(r'(%s)(?:\{(%s=%s(?:,%s=%s)*)\})? (\S+)$' % (NAME, LABEL, VALUE, LABEL, VALUE))
PAIR = re.compile(r'(%s)=(%s)' % (LABEL, VALUE))
def fail(n, why):
    sys.exit("line %d: %s" % (n, why))
text = open(sys.argv[1]).read()
if not text.endswith("\n"):
    fail(0, "no newline at the end")
lines = text.split("\n")[:-1]
if not lines or lines[-1] != "# EOF":
    fail(len(lines), "the last line is not # EOF")
typed, helped, done, series = {}, set(), set(), set()
current = None
for n, line in enumerate(lines[:-1], 1):
    m = re.match(r'# (HELP|TYPE) (%s) (.*)$' % NAME, line)
    if m:
        kind, name, rest = m.groups()
        if name in done or name == current:
            fail(n, "%s of %s after its samples" % (kind, name))
        if kind == "TYPE":
            if name in typed:
                fail(n, "a second TYPE for " + name)
            if rest not in ("gauge", "counter", "info", "stateset", "unknown"):
                fail(n, "type " + rest)
            typed[name] = rest
        else:
            if name in helped:
                fail(n, "a second HELP for " + name)
            helped.add(name)
        continue
    if line.startswith("#"):
        fail(n, "a comment that is neither HELP, TYPE nor the last line's EOF: " + line)
    m = SAMPLE.match(line)
    if not m:
        fail(n, "not a sample: " + line)
    name, labels, value = m.group(1), m.group(2) or "", m.group(3)
    if name not in typed:
        fail(n, "a sample of %s before its TYPE" % name)
    if name != current:
        if current:
            done.add(current)
        if name in done:
            fail(n, "the samples of %s are not together" % name)
        current = name
    pairs = PAIR.findall(labels)
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        fail(n, "a label twice: " + line)
    key = (name, tuple(sorted(pairs)))
    if key in series:
        fail(n, "a series twice: " + line)
    series.add(key)
    try:
        float(value)
    except ValueError:
        fail(n, "not a number: " + value)
EOF
}

# accepted DESC FILE: the parser takes FILE.
accepted() {
	local why
	if why=$(parse "$2" 2>&1); then ok "$1"; else not_ok "$1" "$why" "$(head -c 600 "$2")"; fi
}

# The parser, on all's gauges of fixed steps (tests/unit/report_all.c,
# whose API names need every escape), and on planted errors.
"$O/tests/report_all" openmetrics >"$D/all.om"
accepted "all's openmetrics of fixed steps parses" "$D/all.om"
contains "a label value has each escape" "$D/all.om" '^vdsokit_api_userspace\{api="odd\\\\\\"name\\"\\n",path="impl"\} 0$'
plant() {
	local desc=$1
	shift
	sed -E "$@" "$D/all.om" >"$D/planted.om"
	if parse "$D/planted.om" >/dev/null 2>&1; then
		not_ok "the parser catches $desc" "planted with sed $*, and it parsed"
	else
		ok "the parser catches $desc"
	fi
}
plant "an unescaped quote in a label value" 's/odd\\\\\\"name/odd\\\\"name/'
plant "a raw newline in a label value" 's/\\n",path="impl"/\n",path="impl"/'
plant "a series twice" '/^vdsokit_findings /p'
plant "a metric name that is no name" 's/^vdsokit_findings /vdsokit-findings /'
plant "a label name that is no name" 's/\{finding=/{1finding=/'
plant "a TYPE after the family's samples" '/^vdsokit_findings /a # TYPE vdsokit_findings gauge'
plant "a sample before its TYPE" '1i vdsokit_early 1'
plant "a family's samples apart" '$i vdsokit_checks{command="late",result="pass"} 1'
plant "no # EOF at the end" '/^# EOF$/d'
plant "a line after # EOF" '$a vdsokit_findings 2'
plant "a value that is no number" 's/^(vdsokit_findings) 1$/\1 one/'

# The commands: info on a fixed image, fallback on a planted library
# (TAI by the syscall, a coarse clock in userspace), bench briefly.
"$VK" info --image "$TOP/tests/golden/inputs/linux-6.18-x86_64.so" --format openmetrics >"$D/info.om"
accepted "info --format openmetrics parses" "$D/info.om"
contains "info: a gauge per exported function" "$D/info.om" '^vdsokit_function_exported\{function="clock_gettime"\} 1$'
if [ -e "$O/tests/impl/fb-tai-syscall.so" ]; then
	"$VK" fallback --impl "$O/tests/impl/fb-tai-syscall.so" --paths impl --format openmetrics \
		clock-gettime-tai clock-gettime-monotonic-coarse >"$D/fallback.om"
	accepted "fallback --format openmetrics parses" "$D/fallback.om"
	contains "fallback: a syscall is 0" "$D/fallback.om" '^vdsokit_api_userspace\{api="clock-gettime-tai",path="impl"\} 0$'
	contains "fallback: userspace is 1" "$D/fallback.om" '^vdsokit_api_userspace\{api="clock-gettime-monotonic-coarse",path="impl"\} 1$'
else
	skip "fallback --format openmetrics" "no planted libraries in a static build"
fi
"$VK" bench -d 0.005 -P 2 -n 2 --paths vdso,syscall --format openmetrics time >"$D/bench.om"
accepted "bench --format openmetrics parses" "$D/bench.om"
contains "bench: a median per API and path" "$D/bench.om" '^vdsokit_bench_median_seconds\{api="time",path="syscall"\} [0-9.e+-]+$'
# verify takes openmetrics as every command whose document the format
# prints does (its checks by result), with no list of its own to forget it.
"$VK" verify -d 0.05 --paths syscall --format openmetrics time >"$D/verify.om"
accepted "verify --format openmetrics parses" "$D/verify.om"
contains "verify: its checks by result" "$D/verify.om" '^vdsokit_checks\{command="verify",result="pass"\} [1-9][0-9]*$'
expect_status 2 "list-apis takes no openmetrics" "$VK" list-apis --format openmetrics
contains "the refusal names the formats list-apis takes" "$TMP/err" "unknown format 'openmetrics' \(text or json\)"

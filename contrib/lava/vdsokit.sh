#!/bin/sh
# vdsokit's LAVA test: runs the main job as KTAP (vdsokit all --format
# ktap), turns each KTAP result into a line of output/result.txt,
#   NAME pass|fail|skip|unknown [MEASUREMENT UNITS]
# and reports each line through lava-test-case when LAVA provides it.
# vdsokit's KTAP, then its stderr as "# " lines, go to stdout first: the
# job's log keeps each result's reason (lava-test-case has no field for
# one) and vdsokit's own totals, against which the record can be checked.
# A subtest is named PARENT.CHILD; a bench result's "# median N ns/call"
# line becomes its measurement, N ns; "vdsokit-all" is the job's status.
# vdsokit's own error (KTAP's ERROR directive, exit status 3: no fork, no
# memory, a syscall it needs refused) says nothing of the kernel: it is
# LAVA's "unknown", never a kernel "fail".
#
# Usage: vdsokit.sh [-b VDSOKIT] [-o OUTPUT-DIR] [-k KTAP-FILE]
#   -k parses KTAP-FILE instead of running vdsokit.
# Exit status: 0 once the results are written (they say what failed),
# 2 on a usage error or when the output cannot be written.
set -u

VDSOKIT=vdsokit
OUTPUT="$(pwd)/output"
KTAP=""

usage() {
	echo "Usage: $0 [-b VDSOKIT] [-o OUTPUT-DIR] [-k KTAP-FILE]" >&2
	exit 2
}

while getopts "b:o:k:h" opt; do
	case "$opt" in
	b) VDSOKIT="$OPTARG" ;;
	o) OUTPUT="$OPTARG" ;;
	k) KTAP="$OPTARG" ;;
	*) usage ;;
	esac
done
[ "$OPTIND" -gt $# ] || usage
mkdir -p "$OUTPUT" || exit 2
RESULT_FILE="$OUTPUT/result.txt"

# KTAP v1 on stdin to result lines: "ok|not ok N DESCRIPTION [# DIRECTIVE]",
# a SKIP directive a skip, an ERROR directive unknown; a subtest is a KTAP block indented by two
# spaces more than its parent's result line, which follows it. Names keep
# only [A-Za-z0-9_.-]: a run of spaces and punctuation becomes "-", and a
# sign that tells two descriptions apart becomes its word ("size+1" is
# size-plus-1, "size-1" size-1), so that distinct descriptions get
# distinct names whatever their order; only a description repeated under
# the same parent gets _dupN, as the kselftest parser's do.
ktap_results() {
	awk '
	function clean(s) {
		gsub(/\+/, " plus ", s)
		gsub(/</, " lt ", s)
		gsub(/>/, " gt ", s)
		gsub(/=/, " eq ", s)
		gsub(/%/, " pct ", s)
		gsub(/\*/, " star ", s)
		gsub(/&/, " and ", s)
		gsub(/\|/, " or ", s)
		gsub(/!/, " not ", s)
		gsub(/~/, " tilde ", s)
		gsub(/[^A-Za-z0-9_.-]+/, "-", s)
		gsub(/^-+|-+$/, "", s)
		return s
	}
	function add(d, s) {
		if (d == 0)
			out[++nout] = s
		else
			kid[d, ++nkid[d]] = s
	}
	function measure(d, value) {
		if (d == 0 && nout)
			out[nout] = out[nout] " " value " ns"
		else if (d > 0 && nkid[d])
			kid[d, nkid[d]] = kid[d, nkid[d]] " " value " ns"
	}
	{
		sub(/\r$/, "")
		match($0, /^ */)
		d = int(RLENGTH / 2)
		body = substr($0, RLENGTH + 1)
	}
	body ~ /^(not )?ok [0-9]+/ {
		result = body ~ /^not / ? "fail" : "pass"
		sub(/^(not )?ok [0-9]+ */, "", body)
		desc = body
		directive = ""
		if ((i = index(body, "#")) > 0) {
			desc = substr(body, 1, i - 1)
			directive = substr(body, i + 1)
		}
		if (toupper(directive) ~ /^ *SKIP/)
			result = "skip"
		else if (toupper(directive) ~ /^ *ERROR/)
			result = "unknown"
		name = clean(desc)
		if (name == "")
			name = "test" (++unnamed)
		for (k = 1; k <= nkid[d + 1]; k++)
			add(d, name "." kid[d + 1, k])
		nkid[d + 1] = 0
		add(d, name " " result)
		next
	}
	body ~ /^# median [0-9.]+ ns\/call/ {
		split(body, f, " ")
		measure(d, f[3])
	}
	END {
		# Subtests whose parent never reported keep their own names.
		for (k = 1; k <= nkid[1]; k++)
			out[++nout] = kid[1, k]
		for (i = 1; i <= nout; i++) {
			split(out[i], f, " ")
			if (seen[f[1]]++)
				sub(/^[^ ]+/, f[1] "_dup" seen[f[1]], out[i])
			print out[i]
		}
	}'
}

if [ -n "$KTAP" ]; then
	ktap_results <"$KTAP" >"$RESULT_FILE" || exit 2
else
	"$VDSOKIT" all --format ktap >"$OUTPUT/vdsokit.ktap" 2>"$OUTPUT/vdsokit.stderr"
	status=$?
	cat "$OUTPUT/vdsokit.ktap"
	sed 's/^/# /' "$OUTPUT/vdsokit.stderr"
	ktap_results <"$OUTPUT/vdsokit.ktap" >"$RESULT_FILE" || exit 2
	case "$status" in
	0) echo "vdsokit-all pass" ;;
	3) echo "vdsokit-all unknown" ;;
	4) echo "vdsokit-all skip" ;;
	*) echo "vdsokit-all fail" ;;
	esac >>"$RESULT_FILE" || exit 2
fi

if command -v lava-test-case >/dev/null 2>&1; then
	while read -r name result measurement units; do
		if [ -n "$measurement" ]; then
			lava-test-case "$name" --result "$result" --measurement "$measurement" \
				--units "$units"
		else
			lava-test-case "$name" --result "$result"
		fi
	done <"$RESULT_FILE"
else
	cat "$RESULT_FILE"
fi
exit 0

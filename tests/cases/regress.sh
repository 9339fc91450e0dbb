# Inputs the fuzzer once found to hang or crash the reader: each must now
# be read, or refused, within seconds (tests/fuzz/regress/).
. "$TOP/tests/lib.sh"

for f in "$TOP"/tests/fuzz/regress/*; do
	name=$(basename "$f")
	timeout 10 "$VK" info --image "$f" >/dev/null 2>"$TMP/err"
	status=$?
	if [ $status -eq 0 ] || [ $status -eq 2 ]; then
		ok "$name is read or refused (exit $status)"
	else
		not_ok "$name is read or refused" "exit $status (124: hung; >128: a signal)" "$(head -c 200 "$TMP/err")"
	fi
done

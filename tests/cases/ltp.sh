# contrib/ltp: the runtest file reads as LTP's runners read one (kirk
# splits a line at white space: the name, the command, its arguments;
# ltp-pan, up to LTP 20260130, skipped a line that starts with a space),
# and each of its lines, run as kirk runs it (from $LTPROOT/testcases/bin,
# with that on PATH), exits with the LTP status of vdsokit's own: 0 TPASS,
# 1 TFAIL, 32 TCONF for a SKIP, 2 TBROK for anything else, prints none of
# the T-words that kirk would count instead of the status, and pauses
# after its last line, before exiting (kirk loses what a test wrote just
# before it exited). No LTP here (Debian has no package of it): the
# mapping is also checked on planted outcomes.
. "$TOP/tests/lib.sh"

L=$TOP/contrib/ltp
RT=$L/vdsokit
if need shellcheck; then
	check "contrib/ltp/vdsokit_ltp.sh passes shellcheck" shellcheck "$L/vdsokit_ltp.sh"
fi

# The runtest file: NAME COMMAND [ARG...] per line, # comments.
grep -vE '^(#|$)' "$RT" >"$TMP/lines"
check "no test line starts with white space (LTP 20260130's ltp-pan would skip it)" \
	sh -c "! grep -qE '^[[:space:]]' '$TMP/lines'"
check "every name is a plain word" sh -c "! cut -d' ' -f1 '$TMP/lines' | grep -qvE '^[A-Za-z0-9_-]+\$'"
dups=$(cut -d' ' -f1 "$TMP/lines" | sort | uniq -d)
check "no name is repeated" test -z "$dups"
if grep -q "[\"'|;<>\$\\&]" "$TMP/lines"; then
	not_ok "no command needs a shell (kirk splits it at white space)" "$(grep "[\"'|;<>\$\\&]" "$TMP/lines")"
else
	ok "no command needs a shell (kirk splits it at white space)"
fi
for t in info verify abi fallback timens bench; do
	contains "the runtest file runs $t" "$TMP/lines" "^vdsokit_$t vdsokit_ltp\\.sh $t( |\$)"
done

# ltp_status VDSOKIT-STATUS: the LTP status the wrapper must give.
ltp_status() {
	case $1 in
	0 | 1) echo "$1" ;;
	4) echo 32 ;;
	*) echo 2 ;;
	esac
}

# run_line DIR LINE [PATHDIR]: LINE's command as kirk runs it, from DIR
# (testcases/bin) with DIR on PATH (after PATHDIR, the stand-ins' own, if
# given); output in $TMP/ltp.out, status in $status.
run_line() {
	local cmd
	cmd=${2#* }
	# shellcheck disable=SC2086 # kirk splits the command at white space.
	(cd "$1" && PATH="${3:+$3:}$1:$PATH" $cmd) >"$TMP/ltp.out" 2>&1
	status=$?
}

# mapped NAME: the status is the LTP one of the vdsokit status the last
# line names, and no line carries a T-word kirk would count.
mapped() {
	local vk want
	vk=$(tail -n 1 "$TMP/ltp.out" | sed -n 's/^vdsokit [^ ]*: exit status \([0-9]*\)$/\1/p')
	want=$(ltp_status "${vk:-none}")
	if [ -n "$vk" ] && [ "$status" = "$want" ]; then
		ok "$1 exits $status for vdsokit's $vk"
	else
		not_ok "$1 exits $status for vdsokit's ${vk:-unnamed status}" "want $want" "$(tail -n 3 "$TMP/ltp.out")"
	fi
	if grep -qE 'T(PASS|FAIL|BROK|WARN|SKIP)|^Summary:' "$TMP/ltp.out"; then
		not_ok "$1 prints no T-result kirk would count" "$(grep -E 'T(PASS|FAIL|BROK|WARN|SKIP)|^Summary:' "$TMP/ltp.out" | head -n 2)"
	else
		ok "$1 prints no T-result kirk would count"
	fi
}

# A farm's install: the static vdsokit and the wrapper in testcases/bin.
bin=$TMP/ltp/testcases/bin
mkdir -p "$bin"
if ! variant "$(static_dir)" STATIC=1; then
	not_ok "the static build for LTP" "$(tail -n 3 "$TMP/variant-$(static_dir | tr / -).log")"
	exit 0
fi
cp "$O/$(static_dir)/vdsokit" "$L/vdsokit_ltp.sh" "$bin/"
start=$SECONDS
while read -r line; do
	name=${line%% *}
	run_line "$bin" "$line"
	mapped "$name"
	[ "$status" != 2 ] || not_ok "$name is not broken (TBROK)" "$(head -n 3 "$TMP/ltp.out")"
done <"$TMP/lines"
echo "# the runtest file's $(wc -l <"$TMP/lines") lines took $((SECONDS - start)) s"

# Planted outcomes: a stand-in vdsokit that exits as told, or dies by a
# signal, and none at all (the wrapper falls back to PATH's: none there).
# A stand-in sleep notes how many lines the output had when the wrapper
# paused: all of them, or kirk could still lose the end.
fake=$TMP/ltp/fake
mkdir -p "$fake" "$TMP/ltp/path"
cp "$L/vdsokit_ltp.sh" "$fake/"
# Stand-ins, whose $1 is their own, not this script's.
# shellcheck disable=SC2016
printf '#!/bin/sh\n[ "$1" = signal ] && kill -TERM $$\nexit "$1"\n' >"$fake/vdsokit"
# shellcheck disable=SC2016
printf '#!/bin/sh\necho "$1 $(%s -l <"%s")" >"%s"\n' "$(command -v wc)" "$TMP/ltp.out" "$TMP/paused" \
	>"$TMP/ltp/path/sleep"
chmod +x "$fake/vdsokit" "$TMP/ltp/path/sleep"
ln -s "$(command -v dirname)" "$TMP/ltp/path/"
# paused NAME: the wrapper paused after its last line, not before.
paused() {
	local want
	want="1 $(wc -l <"$TMP/ltp.out")"
	if [ "$(cat "$TMP/paused" 2>/dev/null)" = "$want" ]; then
		ok "$1: the wrapper pauses after its last line"
	else
		not_ok "$1: the wrapper pauses after its last line" "paused at: $(cat "$TMP/paused" 2>&1)" "want: $want"
	fi
	rm -f "$TMP/paused"
}
for plant in 0 1 4 2 3 signal; do
	run_line "$fake" "planted_$plant vdsokit_ltp.sh $plant" "$TMP/ltp/path"
	mapped "a vdsokit that ends with $plant"
	paused "a vdsokit that ends with $plant"
done
rm "$fake/vdsokit"
(cd "$fake" && PATH=$TMP/ltp/path ./vdsokit_ltp.sh info) >"$TMP/ltp.out" 2>&1
status=$?
mapped "no vdsokit at all"
paused "no vdsokit at all"

# Real outcomes, planted in the vDSO through a dynamic vdsokit.
impl=$O/tests/impl
if [ -x "$O/vdsokit" ] && [ -f "$impl/bug-invalid-success.so" ]; then
	cp "$O/vdsokit" "$fake/vdsokit"
	run_line "$fake" "x vdsokit_ltp.sh verify --impl $impl/bug-invalid-success.so --paths impl clock_gettime"
	check "a planted divergence is TFAIL (1)" test "$status" = 1
	run_line "$fake" "x vdsokit_ltp.sh fallback --impl $impl/none.so --paths impl"
	check "nothing to run is TCONF (32)" test "$status" = 32
else
	skip "a planted divergence is TFAIL (1)" "no dynamic build with tests/impl in $O"
fi

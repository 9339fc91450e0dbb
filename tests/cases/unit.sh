# The unit programs (tests/unit/*.c, built by make check-build): each is
# a TAP-style test of its own, run here once, in turn; make unit runs
# this case alone. A program that crashes, or fails without saying
# which check, fails here too, and a failure names the program to
# rerun by itself.
. "$TOP/tests/lib.sh"

# Run by their own cases: the ones that read that case's inputs (images'
# manifest, malformed's seeds, report_all's format, syscall_numbers' ABI
# table), and those of timens.sh and vsyscall.sh.
elsewhere=" images malformed report_all syscall_numbers timens_rules sysinfo_timens vsyscall_path "

for src in "$TOP"/tests/unit/*.c; do
	name=$(basename "$src" .c)
	case $elsewhere in *" $name "*) continue ;; esac
	bin=$O/tests/$name
	echo "# $name"
	if [ ! -x "$bin" ]; then
		not_ok "$name is built" "no $bin: make check-build"
		continue
	fi
	"$bin" >"$TMP/$name.out" 2>&1
	status=$?
	cat "$TMP/$name.out"
	if [ $status -ne 0 ] && ! grep -q '^not ok' "$TMP/$name.out"; then
		not_ok "$name exits 0" "exit $status, and no check said why"
	fi
	[ $status -eq 0 ] || echo "# rerun: $bin"
done

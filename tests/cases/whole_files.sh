# Files written whole: --output DIR (all, bench, compare) and dump FILE
# write beside the final names and rename into place once every file is
# complete. A full disk (a file size limit, and a full tmpfs where this
# user may mount one) or a signal leaves the previous files as they were,
# no temporary behind, and an error that names the file and the reason.
. "$TOP/tests/lib.sh"

mkdir -p "$TMP/whole" && cd "$TMP/whole" || exit 1
# Two bench files as compare.sh writes them, the second 10% slower.
sed -n '/^bench() {/,/^# row API VERDICT/p' "$TOP/tests/cases/compare.sh" | sed '/^mkdir/,$d' >bench.sh
. ./bench.sh
bench old.json 1
bench slower.json 1.10

REPORTS="report.txt report.json report.ktap report.html"

# old DIR: a previous run's report, each file "old".
old() {
	mkdir -p "$1"
	for f in $REPORTS; do echo old >"$1/$f"; done
}

# kept DESC DIR: every report file is still "old", and no temporary is left.
kept() {
	local f bad=
	for f in $REPORTS; do
		[ "$(cat "$1/$f" 2>&1)" = old ] || bad="$bad $f"
	done
	if [ -z "$bad" ]; then ok "$2: the previous report is intact"; else
		not_ok "$2: the previous report is intact" "replaced or damaged:$bad"; fi
	check "$2: no temporary is left behind" test -z "$(ls -A "$1" | grep -v '^report\.')"
}

# A directory in the way of one file of the set: each in turn, the last
# too, which rename() alone refuses after the others were replaced
# (issue 47, part 6). Nothing is replaced, and the file is named.
for way in $REPORTS; do
	old dir
	rm "dir/$way" && mkdir "dir/$way"
	expect_status 2 "compare --output with a directory as $way exits 2" \
		"$VK" compare --output dir old.json slower.json
	contains "$way: named, none replaced" "$TMP/err" \
		"^vdsokit compare: cannot write dir/${way//./\\.}: Is a directory; none of its set was replaced\$"
	bad=
	for f in $REPORTS; do
		[ "$f" = "$way" ] || [ "$(cat "dir/$f")" = old ] || bad="$bad $f"
	done
	check "$way in the way: the others are intact${bad:+ (not:$bad)}" test -z "$bad"
	check "$way in the way: no temporary is left behind" test -z "$(ls -A dir | grep -v '^report\.')"
	rm -rf dir
done

# all's reports and its reproducers are one set: a directory in the way
# of a reproducer's report left report.* replaced by a run that said
# none was (issue 47, part 6). all needs a finding of this kernel's to
# write a reproducer at all; with none, there is no set of two kinds.
"$VK" all -d 0.01 --output all >/dev/null 2>&1
t=$(cd all/repro 2>/dev/null && ls -- *.txt 2>/dev/null | head -n 1)
if [ -z "$t" ]; then
	skip "all --output: a reproducer in the way leaves the reports intact" \
		"all found nothing in this kernel's vDSO to write a reproducer of"
else
	old all
	rm "all/repro/$t" && mkdir "all/repro/$t"
	expect_status 2 "all --output with a directory as repro/$t exits 2" \
		"$VK" all -d 0.01 --output all
	contains "repro/$t: named, none replaced" "$TMP/err" \
		"^vdsokit all: cannot write all/repro/${t//./\\.}: Is a directory; none of its set was replaced\$"
	bad=
	for f in $REPORTS; do
		[ "$(cat "all/$f")" = old ] || bad="$bad $f"
	done
	check "a reproducer in the way: the reports are intact${bad:+ (not:$bad)}" test -z "$bad"
	check "a reproducer in the way: no temporary is left behind" \
		test -z "$(ls -A all all/repro | grep '\.part$')"
fi

# limited BLOCKS CMD...: CMD with files limited to BLOCKS KiB, its writes
# beyond them failing with EFBIG (SIGXFSZ ignored), as on a full disk.
limited() {
	(trap '' XFSZ; ulimit -f "$1"; shift; exec "$@")
}

# A limit that report.txt, written first, fits and report.json, written
# next, does not: a set renamed file by file would replace report.txt.
"$VK" compare --output co old.json slower.json >/dev/null 2>&1
kib=$(( ($(stat -c %s co/report.txt) + 1023) / 1024 ))
check "compare --output's report.json is past the ${kib} KiB report.txt fits" \
	test "$(stat -c %s co/report.json)" -gt $((kib * 1024))
old co
expect_status 2 "compare --output on a full disk exits 2" limited "$kib" "$VK" compare --output co old.json slower.json
contains "the failed file and the reason are named" "$TMP/err" "^vdsokit compare: cannot write co/report\.json: File too large; none of its set was replaced$"
kept co "compare --output on a full disk"
expect_status 1 "compare --output with room writes its report and exits as compare does" "$VK" compare --output co old.json slower.json
check "the new report.html replaced the old" grep -q '<html' co/report.html
check "no temporary is left after a whole write" test -z "$(ls -A co | grep -v '^report\.')"

# A real full disk: a tmpfs of 7 pages holds the 4 old files and 3 new
# ones. The mount is the namespace's own: what it held is copied out.
cat >full.sh <<'EOF'
mount -t tmpfs -o size=28k vk mnt || exit 99
for f in $REPORTS; do echo old >mnt/$f; done
"$VK" compare --output mnt old.json slower.json >/dev/null 2>err
echo $? >status
cp mnt/report.* tmpfs/
ls -A mnt >left
EOF
mkdir -p mnt tmpfs
if unshare -m true 2>/dev/null; then
	REPORTS=$REPORTS VK=$VK unshare -m sh full.sh
	check "compare --output on a full tmpfs exits 2" test "$(cat status)" = 2
	contains "the full tmpfs's file and reason are named" err "^vdsokit compare: cannot write mnt/report\.[a-z]+: No space left on device; none of its set was replaced$"
	kept tmpfs "compare --output on a full tmpfs"
	check "no temporary is left on the full tmpfs" test -z "$(grep -v '^report\.' left)"
else
	skip "compare --output on a full tmpfs" "this user cannot make a mount namespace"
fi

# dump FILE: the image is written whole or not at all.
echo old >image
expect_status 2 "dump on a full disk exits 2" limited 1 "$VK" dump image
contains "dump names the file and the reason" "$TMP/err" "^vdsokit dump: cannot write image: File too large; it was not replaced$"
check "dump on a full disk keeps the previous file" grep -qx old image
check "dump leaves no temporary" test -z "$(ls -A | grep '\.part$')"

# A signal while all's report.json is being written (all the run long):
# the run ends by it, the previous report intact, the temporary removed.
for sig in TERM HUP; do
	old all-$sig
	# As a user's shell would start it: a signal this suite inherited
	# ignored (as under nohup) would be kept ignored, as vdsokit must.
	env --default-signal=$sig "$VK" all --output all-$sig >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 300); do
		ls -A all-$sig | grep -q '\.part$' && break
		sleep 0.1
	done
	check "all --output has report.json's temporary while it runs ($sig)" sh -c "ls -A all-$sig | grep -q '^\.report\.json\..*\.part$'"
	kill -$sig $pid
	{ wait $pid; } 2>/dev/null
	check "SIG$sig ends all --output with its status" test $? = $((128 + $(kill -l $sig)))
	kept all-$sig "all --output ended by SIG$sig"
done

# An --output directory in which no file can be made (/proc, even for
# root, whom no mode stops) is refused before the run, not after it:
# exit 2, naming it, no report printed, and for vm no qemu started (its
# dry run prints the command line, vm's run output). The qemu is a
# script, the kernel a header, and the guest's vdsokit a static one
# where built: one that refused nothing would go as far as its dry run.
static=$O/static/vdsokit
[ -x "$static" ] || static=$VK
mkdir -p noqemu
printf '#!/bin/sh\nexit 1\n' >noqemu/qemu-system-x86_64
chmod +x noqemu/qemu-system-x86_64
head -c 2048 /dev/zero >bz
printf 'HdrS' | dd of=bz bs=1 seek=514 conv=notrunc status=none
printf '\001' | dd of=bz bs=1 seek=566 conv=notrunc status=none
for run in "bench -d 0.05 clock-gettime-monotonic" "compare old.json slower.json" "all --format json" \
	"vm --kernel bz --binary $static --accel tcg --dry-run"; do
	# shellcheck disable=SC2086 # one word per argument
	PATH=$PWD/noqemu:$PATH XDG_CACHE_HOME=$TMP/cache "$VK" ${run%% *} --output /proc ${run#* } >out 2>err
	st=$?
	if [ $st = 2 ] && grep -q "^vdsokit ${run%% *}: --output: cannot write in '/proc'" err && [ ! -s out ]; then
		ok "${run%% *} --output /proc is refused before the run"
	else
		not_ok "${run%% *} --output /proc is refused before the run" "command: $VK ${run%% *} --output /proc ${run#* }" \
			"exit $st, expected 2, with 'cannot write in '/proc'' and no output" \
			"stderr: $(head -c 300 err)" "stdout: $(head -c 160 out)"
	fi
done

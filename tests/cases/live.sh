# The reader on this machine's own vDSO, through the library and the CLI.
. "$TOP/tests/lib.sh"

expect_status 0 "info exits 0 on the live vDSO" "$VK" info
contains "info names the soname" "$TMP/out" '^  soname: +linux-(vdso|gate)\.so\.1$'
contains "info gives the kernel's version note" "$TMP/out" '^  Linux note: +[0-9]+\.[0-9]+\.[0-9]+$'
contains "info names the clocksource" "$TMP/out" '^clocksource: '
expect_status 0 "info --format json exits 0" "$VK" info --format json
if need python3; then
	check "info's JSON parses" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["vdso"]["present"]' "$TMP/out"
else
	skip "info's JSON parses" "python3 is not installed"
fi
expect_status 0 "list-apis exits 0" "$VK" list-apis
contains "list-apis shows clock-gettime-monotonic exported" "$TMP/out" '^clock-gettime-monotonic .* exported$'

# dump writes the mapped image: readelf reads it, info finds the same
# symbols in it, and it fits inside the [vdso] mapping.
expect_status 0 "dump writes the image" "$VK" dump "$TMP/vdso.so"
if need readelf; then
	check "readelf reads the dump" readelf -W --dyn-syms "$TMP/vdso.so"
else
	skip "readelf reads the dump" "readelf is not installed"
fi
# The live image's functions also say where they run; the file's cannot.
for src in live file; do
	img=; [ $src = file ] && img="--image $TMP/vdso.so"
	# shellcheck disable=SC2086 # $img is an option and its value
	"$VK" info $img | sed -n '/^functions:/,$p' | awk '/^  [a-z_0-9]+ +__/ { print $1, $2; next } { print }' >"$TMP/$src.txt"
done
check "the dump has the same functions and symbols as the live image" cmp "$TMP/live.txt" "$TMP/file.txt"
range=$(grep -F '[vdso]' /proc/self/maps | cut -d' ' -f1)
[ -n "$range" ] && map=$((0x${range#*-} - 0x${range%-*}))
size=$(stat -c %s "$TMP/vdso.so")
if [ -n "$map" ] && [ "$size" -gt 0 ] && [ "$size" -le "$map" ]; then
	ok "the dump ($size bytes) fits in the [vdso] mapping ($map bytes)"
else
	not_ok "the dump ($size bytes) fits in the [vdso] mapping (${map:-none})"
fi
"$VK" dump - >"$TMP/stdout.so"
check "dump - writes the same bytes to stdout" cmp "$TMP/vdso.so" "$TMP/stdout.so"
# all (the main job) is tests/cases/all.sh.

# A 32-bit vDSO's time32 entries overflow in 2038; info says which.
"$VK" info >"$TMP/info.txt"
if grep -q '^  ELF: *ELF32' "$TMP/info.txt"; then
	contains "info names the time32 entries that overflow in 2038" "$TMP/info.txt" '^  clock_gettime +32-bit time: overflows in 2038$'
	contains "info names the y2038-safe time64 entries" "$TMP/info.txt" '^  clock_gettime64 +y2038-safe$'
else
	check "a 64-bit vDSO's info needs no y2038 section" sh -c "! grep -q '^y2038:' '$TMP/info.txt'"
fi

# A kernel without CONFIG_COMPAT_32BIT_TIME answers the time32 syscalls
# with ENOSYS (here seccomp does, with i386's number, 38). On a 32-bit
# time ABI verify then SKIPs what needs them, naming the option, and
# never aborts; a 64-bit ABI has no time32 syscalls.
refuse=$O/tests/tools/refuse
if ! "$VK" list-apis | grep -q '^clock-gettime64-monotonic '; then
	skip "verify without the time32 syscalls SKIPs naming CONFIG_COMPAT_32BIT_TIME" "this ABI has no time32 syscalls"
elif ! "$refuse" -e 38 clock_gettime -- "$VK" --version >/dev/null 2>"$TMP/refuse.err"; then
	skip "verify without the time32 syscalls SKIPs naming CONFIG_COMPAT_32BIT_TIME" \
		"no seccomp launcher here: $(head -n 1 "$TMP/refuse.err")"
else
	"$refuse" -e 38 clock_gettime clock_getres time -- "$VK" verify -d 0.05 --format ktap \
		clock-gettime-monotonic time >"$TMP/time32" 2>"$TMP/time32.err"
	status=$?
	check "verify without the time32 syscalls ends with a status of its own, no abort ($status)" \
		test "$status" -le 4
	contains "verify without the time32 syscalls SKIPs naming CONFIG_COMPAT_32BIT_TIME" "$TMP/time32" \
		'^ok [0-9]+ (clock-gettime-monotonic|time) .*# SKIP .*CONFIG_COMPAT_32BIT_TIME is off'
fi

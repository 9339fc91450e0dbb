# The ELF reader against vDSO-like images of every ABI whose compiler is
# installed (tests/images/build.sh): the unit test tests/unit/images.c on
# their manifest, here and on big-endian hosts under qemu-user; readelf's
# view of the same images; vdsokit info and list-apis on a few of them;
# and wrong manifests that the unit test must reject, which proves that
# it can fail.
. "$TOP/tests/lib.sh"

# Its own images: the other cases' ($O/images, seed_images) are read
# while this one runs.
IMG=$TMP/images
MANIFEST=$IMG/manifest.txt
UNIT=$O/tests/images

if ELFPATCH=$O/tests/tools/elfpatch bash "$TOP/tests/images/build.sh" "$IMG" >"$TMP/build.out" 2>"$TMP/build.err"; then
	ok "tests/images/build.sh builds the images"
else
	not_ok "tests/images/build.sh builds the images" "$(tail -n 5 "$TMP/build.err")"
fi
grep '^# ' "$TMP/build.out"
while read -r word abi reason; do
	[ "$word" = SKIP ] && skip "${abi%:} images" "$reason"
done <"$TMP/build.out"
if ! grep -q '^[^#]' "$MANIFEST" 2>/dev/null; then
	not_ok "the manifest lists images" "no image lines in $MANIFEST"
	exit 0
fi

# The unit test's own lines count; its exit status must agree with them.
"$UNIT" "$MANIFEST"
st=$?
if [ $st -eq 0 ]; then ok "tests/images passes on $MANIFEST"; else not_ok "tests/images passes on $MANIFEST" "exit $st"; fi

# The reader must not depend on the host's byte order either: the same
# test, cross-built, on big-endian hosts under qemu-user.
for name in s390x powerpc; do
	cross=${arch_cross[$name]} qemu=${arch_qemu_user[$name]}
	desc="tests/images passes on a big-endian $name host ($qemu)"
	if ! need "${cross}gcc" "$qemu"; then
		skip "$desc" "${cross}gcc or $qemu is not installed"
		continue
	fi
	bin=$O/v-images/$name/tests/images
	if ! (unset MAKEFLAGS MFLAGS MAKELEVEL SANITIZE
	      make_locked -C "$TOP" O="$O/v-images/$name" CROSS_COMPILE="$cross" STATIC=1 "$bin") >"$TMP/cross.log" 2>&1; then
		not_ok "$desc" "the cross build failed: $(tail -n 3 "$TMP/cross.log")"
	elif "$qemu" "$bin" "$MANIFEST" >"$TMP/cross.out" 2>&1; then
		ok "$desc ($(grep -c '^ok' "$TMP/cross.out") checks)"
	else
		not_ok "$desc" "$(grep -m 3 -A 1 '^not ok' "$TMP/cross.out" | sed 's/^not ok/failed/')"
	fi
done

# field N LINE: the Nth field of a manifest line.
field() { echo "$2" | awk -v n="$1" '{ print $n }'; }
# syms LINE: its symbol@version words, one a line.
syms() { echo "$1" | awk '{ for (i = 7; i <= NF; i++) print $i }'; }

# readelf, not our reader, confirms the tables each manifest line claims.
readelf_tables() {
	local img=$1 t=
	readelf -d "$img" >"$TMP/re.d" 2>/dev/null
	grep -q '(GNU_HASH)' "$TMP/re.d" && t+=,DT_GNU_HASH
	grep -q '(HASH)' "$TMP/re.d" && t+=,DT_HASH
	readelf -S "$img" 2>/dev/null | grep -q '\.dynsym' && t+=,shdrs
	echo "${t#,}"
}

if need readelf; then
	for abi in $(awk '!/^#/ { print $2 }' "$MANIFEST" | uniq); do
		bad=
		while read -r line; do
			img=$(field 1 "$line") got=$(readelf_tables "$IMG/$(field 1 "$line")")
			[ "$got" = "$(field 6 "$line")" ] || bad+=" $img has $got, not $(field 6 "$line");"
		done < <(awk -v a="$abi" '!/^#/ && $2 == a' "$MANIFEST")
		if [ -z "$bad" ]; then ok "readelf agrees with the manifest on the $abi images' tables"; else not_ok "readelf agrees with the manifest on the $abi images' tables" "$bad"; fi
	done
	# s390x's DT_HASH has 8-byte entries: prove that the linker made them.
	for img in s390x-sysv.so s390x-both.so; do
		if [ ! -e "$IMG/$img" ]; then
			skip "$img has an 8-byte-entry .hash" "no s390x images"
		elif readelf -SW "$IMG/$img" | grep -Eq '\.hash +HASH +[0-9a-f]+ [0-9a-f]+ [0-9a-f]+ 08 '; then
			ok "$img has an 8-byte-entry .hash"
		else
			not_ok "$img has an 8-byte-entry .hash" "$(readelf -SW "$IMG/$img" | grep '\.hash')"
		fi
	done
else
	skip "readelf confirms the manifest" "readelf is not installed"
fi

# has_all DESC FILE LINE: every symbol of the manifest line is the last word
# of a line of FILE, which is how info prints name@@version.
has_all() {
	local missing=
	awk '{ print $NF }' "$2" >"$TMP/words"
	for s in $(syms "$3"); do
		grep -Fxq -- "$s" "$TMP/words" || missing+=" $s"
	done
	if [ -z "$missing" ]; then ok "$1"; else not_ok "$1" "missing:$missing"; fi
}

# The JSON report matches the manifest line: ABI, class, byte order,
# symbol source and every symbol with its version and hidden flag.
json_matches() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
v = json.load(open(sys.argv[1]))["vdso"]
f = sys.argv[2].split()
src = {"sections": "section headers"}.get(f[4], f[4])
got = {(s["name"] + ("@" if s["hidden"] else "@@") + s["version"]) for s in v["symbols"] if s["version"]}
bad = [k for k, w in (("abi", f[1]), ("class", int(f[2])), ("byte_order", f[3]), ("symbols_from", src)) if v[k] != w]
bad += [s for s in f[6:] if s not in got]
if bad:
	sys.exit("wrong or missing: " + " ".join(map(str, bad)))
EOF
}

tool_images=$(awk '!/^#/ && $1 ~ /-both\.so$/ { print $1 }' "$MANIFEST")
for img in s390x-sysv.so ppc-gnu-noshdrs.so i386-both-nohash.so arm-both-nognu.so; do
	grep -q "^$img " "$MANIFEST" && tool_images+=" $img"
done
for img in $tool_images; do
	line=$(grep "^$img " "$MANIFEST") abi=$(field 2 "$line")
	expect_status 0 "info --image $img exits 0" "$VK" info --image "$IMG/$img"
	contains "info names the $abi ABI of $img" "$TMP/out" "^  ABI: +$abi: "
	has_all "info lists every symbol of $img at its version" "$TMP/out" "$line"
	expect_status 0 "info --image $img --format json exits 0" "$VK" info --image "$IMG/$img" --format json
	contains "the JSON names the $abi ABI of $img" "$TMP/out" "\"abi\": \"$abi\""
	if need python3; then
		cp "$TMP/out" "$TMP/json"
		check "the JSON of $img agrees with the manifest" json_matches "$TMP/json" "$line"
	else
		skip "the JSON of $img agrees with the manifest" "python3 is not installed"
	fi
	expect_status 0 "list-apis --image $img exits 0" "$VK" list-apis --image "$IMG/$img"
	if grep -Eq ' (absent|wrong version)$' "$TMP/out"; then
		not_ok "list-apis finds every API of $img exported" "$(grep -E ' (absent|wrong version)$' "$TMP/out" | head -n 3)"
	else
		ok "list-apis finds every API of $img exported"
	fi
	want=$(syms "$line" | grep -E '^__(vdso|kernel)_clock_gettime@@' | sed 's/@@.*//')
	contains "list-apis names $want for $img" "$TMP/out" " $want +clock_gettime "
done

# Wrong manifests must fail the unit test: a line (with an absolute path)
# claiming a symbol, a version, a default version or a table that is not.
first=$(awk '!/^#/ { print; exit }' "$MANIFEST")
first="$IMG/$first"
def=$(syms "$first" | grep -m1 '@@') hid=$(syms "$first" | grep -v '@@' | tail -n 1)
# swap LINE OLD NEW: the line with the word OLD replaced by NEW.
swap() { echo "$1" | awk -v o="$2" -v n="$3" '{ for (i = 1; i <= NF; i++) if ($i == o) $i = n; print }'; }
wrong() {
	echo "$2" >"$TMP/wrong.txt"
	expect_status 1 "tests/images fails on a manifest $1" "$UNIT" "$TMP/wrong.txt"
	contains "and says which check failed ($1)" "$TMP/out" "^not ok - .*$3"
}
wrong "expecting a symbol that is not there" "$first ${def%%@@*}_nope@@${def#*@@}" "default-version symbols found"
wrong "expecting a version a symbol does not have" "$(swap "$first" "$def" "${def%%@@*}@@LINUX_9.9")" "default-version symbols found"
wrong "expecting a hidden symbol as a default one" "$(swap "$first" "$hid" "${hid%%@*}@@${hid#*@}")" "without a version find"
wrong "expecting another symbol source" "$(echo "$first" | awk '{ $5 = ($5 == "DT_HASH" ? "DT_GNU_HASH" : "DT_HASH"); print }')" "symbols come from"
wrong "expecting another ABI" "$(echo "$first" | awk '{ $2 = "mips"; print }')" "ABI is mips"
wrong "naming a missing image" "$IMG/no-such.so x86_64 64 little DT_HASH DT_HASH x@@X" "no-such.so: opens"
wrong "with a malformed line" "$IMG/x.so x86_64 64 middle DT_HASH DT_HASH x@@X" "manifest line 1 is well formed"
wrong "with no images" "# nothing" "the manifest lists 0 images"

# An entry nulled out in place, as arm's kernel does without an
# architected timer: the symbol stays with no name. info tells it apart
# from one never exported, and says what follows.
if [ -f "$IMG/arm-gnu.so" ]; then
	cp "$IMG/arm-gnu.so" "$TMP/nulled.so"
	check "elfpatch nulls out arm's three clock entries" "$O/tests/tools/elfpatch" "$TMP/nulled.so" \
		null-name=__vdso_clock_gettime null-name=__vdso_gettimeofday null-name=__vdso_clock_gettime64
	expect_status 0 "info on the nulled image exits 0" "$VK" info --image "$TMP/nulled.so"
	contains "clock_gettime is nulled out in place" "$TMP/out" '^  clock_gettime +absent: nulled out in place \(__vdso_clock_gettime@LINUX_2\.6\)$'
	contains "the nameless symbols are counted" "$TMP/out" '^  \(3 nameless function symbols: entries nulled out in place'
	contains "what follows for the clocks" "$TMP/out" "^  so: every clock_gettime is a syscall, the coarse clocks' too$"
	contains "clock_getres is still there" "$TMP/out" '^  clock_getres +__vdso_clock_getres@@LINUX_2\.6'
	check "no hash problem is made of a nameless symbol" sh -c "! grep -q 'hash problem' '$TMP/out'"
	expect_status 0 "info --format json on it" "$VK" info --image "$TMP/nulled.so" --format json
	contains "the JSON counts them" "$TMP/out" '"nulled_symbols": 3'
	contains "the JSON says so of clock_gettime" "$TMP/out" '"absent": "nulled out in place"'
	# Such a vDSO reads no clocksource: "no", and why (tests/unit/clocksource_absent.c).
	"$O/tests/clocksource_absent" "$TMP/nulled.so"
	expect_status 0 "info on the image as built" "$VK" info --image "$IMG/arm-gnu.so"
	check "nothing is nulled there" sh -c "! grep -q 'nulled' '$TMP/out'"
else
	skip "an entry nulled out in place" "no arm image (${arch_cross[armhf]}gcc is not installed)"
fi

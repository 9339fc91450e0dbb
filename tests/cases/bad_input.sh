# Bad input through the command line: info and list-apis --image on files
# that are not vDSO images, on the dumped vDSO truncated and with one field
# spoiled, and on a file too large. Each must exit 2 (not die from a
# signal), name the file and the problem on stderr, and print no report.
. "$TOP/tests/lib.sh"

# run.sh runs cases from $TMP: a relative O (make's O=build/san) or VK
# names a path under the source tree.
case $O in /*) ;; *) O=$TOP/$O ;; esac
case $VK in /*) ;; */*) VK=$TOP/$VK ;; esac

# refuses DESC FILE PATTERN: both commands refuse FILE as described above,
# with a message matching PATTERN (ERE).
refuses() {
	local desc=$1 file=$2 pat=$3 cmd st why
	for cmd in info list-apis; do
		timeout 60 "$VK" $cmd --image "$file" >"$TMP/out" 2>"$TMP/err"
		st=$?
		why=()
		if [ $st -ne 2 ]; then
			why+=("exit $st, expected 2$([ $st -gt 128 ] && echo " (killed by signal $((st - 128)))")$([ $st = 124 ] && echo ' (hung)')")
		fi
		grep -qF -- "$file" "$TMP/err" || why+=("stderr does not name $file")
		grep -Eq -- "$pat" "$TMP/err" || why+=("stderr does not match /$pat/")
		[ -s "$TMP/out" ] && why+=("stdout is not empty: $(head -c 160 "$TMP/out" | tr '\n' ' ')")
		if [ ${#why[@]} -eq 0 ]; then
			ok "$cmd refuses $desc: $(head -n 1 "$TMP/err")"
		else
			not_ok "$cmd refuses $desc" "${why[@]}" "stderr: $(head -c 300 "$TMP/err")"
		fi
	done
}

# accepts DESC FILE PATTERN: info reads FILE (exit 0) and prints a line
# matching PATTERN; for defects the reader works around, with a warning.
accepts() {
	timeout 60 "$VK" info --image "$2" >"$TMP/out" 2>"$TMP/err"
	local st=$?
	if [ $st -eq 0 ] && grep -Eq -- "$3" "$TMP/out"; then
		ok "info reads $1: $(grep -Em1 -- "$3" "$TMP/out" | sed 's/^ *//')"
	else
		not_ok "info reads $1" "exit $st, expected 0; or no line matches /$3/" \
			"stderr: $(head -c 300 "$TMP/err")"
	fi
}

refuses "a missing file" "$TMP/no-such-file.so" 'No such file or directory'
: >"$TMP/empty.so"
refuses "an empty file" "$TMP/empty.so" 'shorter than an ELF identification'
mkdir -p "$TMP/a-directory"
refuses "a directory" "$TMP/a-directory" 'a directory, not a regular file'
refuses "/dev/null" /dev/null 'a character device, not a regular file'
{ printf '\0'; head -c 4095 /dev/urandom; } >"$TMP/random.bin"
refuses "4 KiB of random bytes" "$TMP/random.bin" 'not an ELF image'
for i in $(seq 200); do echo "line $i: this is text, not a vDSO image"; done >"$TMP/text.txt"
refuses "a text file" "$TMP/text.txt" 'not an ELF image'
printf '\177ELF' >"$TMP/magic-only.so"
refuses "the ELF magic alone" "$TMP/magic-only.so" 'shorter than an ELF identification'

# Every argument that names a file to read refuses one that is not a
# regular file, at once: a FIFO's open would wait for a writer forever,
# a device's reads never end. The vm rows need a qemu on PATH, which a
# script that never boots stands in for, and a kernel: a header will do;
# the initramfs vm makes for --dtb's row goes to a cache under $TMP.
mkfifo "$TMP/a-fifo"
mkdir -p "$TMP/noqemu"
printf '#!/bin/sh\nexit 1\n' >"$TMP/noqemu/qemu-system-x86_64"
chmod +x "$TMP/noqemu/qemu-system-x86_64"
head -c 2048 /dev/zero >"$TMP/bz"
printf 'HdrS' | dd of="$TMP/bz" bs=1 seek=514 conv=notrunc status=none
printf '\001' | dd of="$TMP/bz" bs=1 seek=566 conv=notrunc status=none
bench=$TOP/tests/golden/inputs/bench/old1.json
static=$O/cross/x86_64/vdsokit
[ -x "$static" ] || static=$O/static/vdsokit
uses=("info --image @F@" "list-apis --image @F@" "compare @F@ $bench" "compare $bench @F@"
	"vm --kernel @F@" "vm --arch x86_64 --kernel @F@" "vm --kernel $TMP/bz --binary @F@")
if LC_ALL=C readelf -lW "$VK" 2>/dev/null | grep -q ' INTERP '; then
	uses+=("verify --impl @F@" "bench --impl @F@" "abi --impl @F@" "fallback --impl @F@"
		"timens --impl @F@" "compare --impl @F@" "vm --kernel $TMP/bz --dry-run -- verify --impl @F@")
else
	skip "--impl refuses what is not a regular file" "no readelf, or a static vdsokit: no --impl"
fi
# The same for --dtb, given a static vdsokit for the guest: built here
# (as vm.sh does) when no earlier case has, as on a fresh clone.
if [ "$(uname -m)" != x86_64 ]; then
	skip "vm --dtb refuses what is not a regular file" "this host is not x86_64: no guest vdsokit to give vm"
elif [ ! -x "$static" ] && ! need make; then
	skip "vm --dtb refuses what is not a regular file" "make is not installed: no static vdsokit for the guest"
elif [ ! -x "$static" ] && ! make_cross x86_64 >"$TMP/cross.log" 2>&1; then
	not_ok "make cross ARCH=x86_64, for vm --dtb" "$(tail -n 5 "$TMP/cross.log")"
else
	[ -x "$static" ] || static=$O/cross/x86_64/vdsokit
	uses+=("vm --kernel $TMP/bz --binary $static --dtb @F@")
fi
for file in "$TMP/a-fifo" /dev/zero; do
	kind=$([ -p "$file" ] && echo "a FIFO" || echo "a character device")
	for use in "${uses[@]}"; do
		# shellcheck disable=SC2086 # one word per argument
		PATH=$TMP/noqemu:$PATH XDG_CACHE_HOME=$TMP/cache timeout 20 "$VK" ${use//@F@/$file} </dev/null >"$TMP/out" 2>"$TMP/err"
		st=$?
		desc=${use//@F@/$kind} desc=${desc//"$TMP/"/} desc=${desc//"$bench"/old1.json} desc=${desc//"$static"/STATIC}
		if [ $st = 2 ] && grep -qF -- "$file: $kind, not a regular file" "$TMP/err" && [ ! -s "$TMP/out" ]; then
			ok "$desc: refused at once"
		else
			not_ok "$desc: refused at once" "exit $st, expected 2$([ $st = 124 ] && echo ' (hung)'), with '$file: $kind, not a regular file' and no output" \
				"stderr: $(head -c 300 "$TMP/err")" "stdout: $(head -c 160 "$TMP/out")"
		fi
	done
done

vdso=$TMP/vdso.so
if ! "$VK" dump "$vdso" 2>"$TMP/err"; then
	skip "the dumped vDSO, truncated and spoiled" "no vDSO to dump: $(head -n 1 "$TMP/err")"
	exit 0
fi
size=$(stat -c %s "$vdso")

# The dump's own layout, read in its byte order (the host's, being live).
be=$([ "$(od -An -tu1 -j5 -N1 "$vdso" | tr -d ' ')" = 2 ] && echo 1 || echo 0)
is64=$([ "$(od -An -tu1 -j4 -N1 "$vdso" | tr -d ' ')" = 2 ] && echo 1 || echo 0)
peek() { od -An -tu"$3" -j"$2" -N"$3" "$1" | tr -d ' '; }
# poke FILE OFFSET WIDTH VALUE: write a field in the image's byte order.
poke() {
	local i s='' b
	for ((i = 0; i < $3; i++)); do
		b=$(($4 >> (8 * (be ? $3 - 1 - i : i)) & 255))
		s+=$(printf '\\%03o' $b)
	done
	printf '%b' "$s" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
if [ "$is64" = 1 ]; then
	w=8 ehsize=64 phoff=$(peek "$vdso" 32 8) phent=54 phnum_at=56 shoff_at=40
	p_off=8 p_vaddr=16 p_filesz=32
else
	w=4 ehsize=52 phoff=$(peek "$vdso" 28 4) phent=42 phnum_at=44 shoff_at=32
	p_off=4 p_vaddr=8 p_filesz=16
fi
phentsize=$(peek "$vdso" $phent 2)
phnum=$(peek "$vdso" $phnum_at 2)
shoff=$(peek "$vdso" $shoff_at $w)
ph_end=$((phoff + phnum * phentsize))
load_end=0 dyn_ph='' load_ph=''
for ((i = 0; i < phnum; i++)); do
	o=$((phoff + i * phentsize))
	type=$(peek "$vdso" $o 4)
	off=$(peek "$vdso" $((o + p_off)) $w)
	filesz=$(peek "$vdso" $((o + p_filesz)) $w)
	if [ "$type" = 1 ]; then
		[ -n "$load_ph" ] || load_ph=$o load_vaddr=$(peek "$vdso" $((o + p_vaddr)) $w) load_off=$off
		[ $((off + filesz)) -gt $load_end ] && load_end=$((off + filesz))
	fi
	[ "$type" = 2 ] && [ -z "$dyn_ph" ] && dyn_ph=$o dyn_off=$off dyn_size=$filesz
done
if [ -z "$dyn_ph" ] || [ -z "$load_ph" ]; then
	not_ok "the dumped vDSO has PT_LOAD and PT_DYNAMIC" "phoff $phoff, phnum $phnum"
	exit 0
fi
# The dynamic entry of a tag: dyn TAG sets at (its offset) and val.
dyn() {
	local k o t
	at='' val=''
	for ((k = 0; k < dyn_size / (2 * w); k++)); do
		o=$((dyn_off + k * 2 * w))
		t=$(peek "$vdso" $o $w)
		[ "$t" = 0 ] && return 1
		if [ "$t" = "$1" ]; then at=$o val=$(peek "$vdso" $((o + w)) $w); return 0; fi
	done
	return 1
}
echo "# dump: $size bytes, ELF$((32 + 32 * is64)), program headers $phoff..$ph_end," \
	"PT_DYNAMIC $dyn_off+$dyn_size, PT_LOAD file end $load_end, section headers at $shoff"

# Truncated anywhere up to the end of the last segment, the image lacks a
# header, a table or code that its program headers promise: refused.
n=0
for len in 1 4 8 15 16 17 24 40 $((ehsize - 1)) $ehsize $((phoff + 1)) $((ph_end - 1)) \
	$dyn_off $((dyn_off + dyn_size / 2)) $((dyn_off + dyn_size - 1)) \
	$(((dyn_off + dyn_size + load_end) / 2)) $((load_end - 64)) $((load_end - 1)); do
	if [ "$len" -le 0 ] || [ "$len" -ge "$load_end" ]; then continue; fi
	head -c "$len" "$vdso" >"$TMP/trunc-$len.so"
	refuses "the vDSO truncated to $len of $size bytes" "$TMP/trunc-$len.so" \
		'shorter than|runs? past the end|outside|truncated'
	n=$((n + 1))
done
echo "# $n truncated lengths tried"
# Past the segments only section headers are lost, which a vDSO does not
# need: read, with a warning.
if [ "$shoff" -ge "$load_end" ] && [ "$shoff" -lt "$size" ]; then
	head -c $((shoff + 1)) "$vdso" >"$TMP/trunc-sh.so"
	accepts "the vDSO without its last section headers" "$TMP/trunc-sh.so" \
		'warning: .*section header'
fi

# spoil DESC PATTERN OFFSET WIDTH VALUE: a copy with one field changed must
# be refused with a message matching PATTERN.
spoil() {
	local f
	f=$TMP/spoiled-$(echo "$1" | tr -c 'a-zA-Z0-9_\n' '-').so
	cp "$vdso" "$f"
	poke "$f" "$3" "$4" "$5"
	refuses "the vDSO with $1" "$f" "$2"
}
spoil "a bad magic number" 'not an ELF image' 1 1 0x65
spoil "EI_CLASS 0 (ELFCLASSNONE)" 'EI_CLASS' 4 1 0
spoil "EI_CLASS 3" 'EI_CLASS' 4 1 3
spoil "EI_DATA 0 (ELFDATANONE)" 'EI_DATA' 5 1 0
spoil "EI_DATA 3" 'EI_DATA' 5 1 3
spoil "EI_VERSION 0" 'EI_VERSION' 6 1 0
spoil "e_type ET_EXEC" 'e_type is 2' 16 2 2
spoil "e_type ET_REL" 'e_type is 1' 16 2 1
spoil "e_version 0" 'e_version' 20 4 0
spoil "e_phoff huge" 'program header table' $((24 + w)) $w -256
spoil "e_phoff 8 bytes before the end" 'program header table' $((24 + w)) $w $((size - 8))
spoil "e_phentsize 0" 'program header entry size is 0' $phent 2 0
spoil "e_phentsize one too large" 'program header entry size' $phent 2 $((phentsize + 1))
spoil "e_phnum 65535" 'program header table' $phnum_at 2 65535
spoil "PT_DYNAMIC's p_offset huge" 'PT_DYNAMIC' $((dyn_ph + p_off)) $w -4096
spoil "PT_DYNAMIC's p_filesz huge" 'PT_DYNAMIC' $((dyn_ph + p_filesz)) $w -1
spoil "PT_LOAD's p_filesz 0" 'outside the loaded image|DT_' $((load_ph + p_filesz)) $w 0
dyn 10 && spoil "DT_STRSZ huge" 'DT_STRTAB/DT_STRSZ' $((at + w)) $w -16
dyn 10 && spoil "DT_STRSZ one past the image" 'DT_STRTAB/DT_STRSZ' $((at + w)) $w $((size + 1))
dyn 5 && spoil "DT_STRTAB unmapped" 'DT_STRTAB' $((at + w)) $w -4096
dyn 11 && spoil "DT_SYMENT 1" 'DT_SYMENT is 1' $((at + w)) $w 1
dyn 6 && spoil "DT_SYMTAB unmapped" 'DT_SYMTAB' $((at + w)) $w -4096
dyn $((0x6ffffff0)) && spoil "DT_VERSYM unmapped" 'DT_VERSYM' $((at + w)) $w -4096
dyn $((0x6ffffffc)) && spoil "DT_VERDEF unmapped" 'DT_VERDEF' $((at + w)) $w -4096
if dyn $((0x6ffffffc)); then
	vd=$((val - load_vaddr + load_off))
	spoil "vd_version 2" 'vd_version 2' $vd 2 2
	spoil "vd_aux huge" 'version definition 0 has a bad name' $((vd + 12)) 4 -1
fi
# A broken section header table is worked around: a vDSO needs none.
cp "$vdso" "$TMP/shoff.so"
poke "$TMP/shoff.so" $shoff_at $w -64
accepts "the vDSO with e_shoff huge" "$TMP/shoff.so" 'warning: .*section header'

# Size: 16 MiB is the most taken; one byte more is refused as too large.
cp "$vdso" "$TMP/16m.so" && truncate -s 16M "$TMP/16m.so"
accepts "the vDSO padded to 16 MiB" "$TMP/16m.so" '16777216 bytes'
cp "$vdso" "$TMP/16m1.so" && truncate -s $((16 * 1024 * 1024 + 1)) "$TMP/16m1.so"
refuses "a file of 16 MiB + 1 byte" "$TMP/16m1.so" 'too large'
truncate -s 40M "$TMP/40m.so"
refuses "a file of 40 MiB" "$TMP/40m.so" 'too large'

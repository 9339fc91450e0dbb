# The ELF reader on hostile images (tests/unit/malformed.c): the dumped
# live vDSO gets every input of every family, each image in $O/images
# (seed_images) a sample. Inputs that crash are saved in $O/malformed and replay
# with: $O/tests/malformed -r FILE
. "$TOP/tests/lib.sh"

# run.sh runs cases from $TMP: a relative O (make's O=build/san) or VK
# names a path under the source tree.
case $O in /*) ;; *) O=$TOP/$O ;; esac
case $VK in /*) ;; */*) VK=$TOP/$VK ;; esac

seeds=()
seed_images
if "$VK" dump "$TMP/live-vdso.so" 2>"$TMP/err"; then
	seeds+=("$TMP/live-vdso.so")
else
	echo "# no live vDSO to dump: $(head -n 1 "$TMP/err")"
fi
for img in "$O"/images/*.so; do
	[ -f "$img" ] && seeds+=("$img")
done
[ ${#seeds[@]} -gt 0 ] || echo "# no seed images: only the fixed expectations run"

rm -rf "$O/malformed"
timeout 300 "$O/tests/malformed" -o "$O/malformed" "${seeds[@]}"
st=$?
# Status 1 means failed checks, which it printed itself.
case $st in
0 | 1) ;;
124) not_ok "malformed finishes within 300 s" "timed out: a family hung past its own alarm" ;;
*) not_ok "malformed exits 0 or 1" "exit $st$([ $st -gt 128 ] && echo " (killed by signal $((st - 128)))")" ;;
esac

# The user's documentation stays short: the README a guide of at most 350
# lines of at most 400 characters, whose links lead somewhere and reach
# every doc/*.md;
# each doc/*.md says in its opening whom it is for; each command's --help
# says how to use it in at most 40 lines. The detail lives in doc/ and the
# man page.
. "$TOP/tests/lib.sh"

readme=$TOP/README.md
lines=$(wc -l <"$readme")
check "the README has at most 350 lines (it has $lines)" test "$lines" -le 350
long=$(awk 'length > 400 { printf "line %d: %d characters\n", NR, length }' "$readme")
if [ -z "$long" ]; then
	ok "no line of the README is over 400 characters"
else
	not_ok "no line of the README is over 400 characters" "$long"
fi

# Links to files of the tree, (doc/x.md) or (doc/x.md#anchor): each exists.
missing=
for l in $(grep -oE '\]\((doc|tests|contrib)/[^)#]*' "$readme" | sed 's/^](//' | sort -u); do
	[ -e "$TOP/$l" ] || missing="$missing $l"
done
check "every file the README links to exists${missing:+ (missing:$missing)}" test -z "$missing"
unlinked=
for f in "$TOP"/doc/*.md; do
	grep -qF "](doc/$(basename "$f"))" "$readme" || unlinked="$unlinked $(basename "$f")"
done
check "the README links to every doc/*.md${unlinked:+ (not:$unlinked)}" test -z "$unlinked"

unsaid=
for f in "$TOP"/doc/*.md; do
	sed -n '2,4p' "$f" | grep -q '^For ' || unsaid="$unsaid $(basename "$f")"
done
check "each doc/*.md opens with whom it is for${unsaid:+ (not:$unsaid)}" test -z "$unsaid"

# Every command that 'vdsokit --help' lists.
"$VK" --help >"$TMP/top" 2>&1
cmds=$(sed -n '/^Commands:/,/^$/s/^  \([a-z-]*\) .*/\1/p' "$TMP/top")
check "vdsokit --help lists the commands" test -n "$cmds"
for c in $cmds; do
	"$VK" "$c" --help >"$TMP/help" 2>&1
	n=$(wc -l <"$TMP/help")
	check "vdsokit $c --help has at most 40 lines (it has $n)" test "$n" -le 40 -a "$n" -gt 2
done
n=$("$VK" --help | wc -l)
check "vdsokit --help has at most 40 lines (it has $n)" test "$n" -le 40

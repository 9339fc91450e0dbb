# Each command's options, as its --help lists them from its option table,
# against doc/vdsokit.1: same letters, long names and value names, none
# missing or extra on either side; and one meaning per letter across the
# commands. MAN= checks another man page (to show that the check fails).
. "$TOP/tests/lib.sh"

man=${MAN:-$TOP/doc/vdsokit.1}
cmds=$("$VK" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z-]*\) .*/\1/p')
check "vdsokit --help lists the commands" test -n "$cmds"
for c in $cmds; do
	"$VK" "$c" --help >"$TMP/help.$c" || not_ok "$c --help exits 0"
done

# "C -x --name ARG" per option, from --help's option lines.
from_help() {
	for c in $cmds; do
		sed -nE 's/^  (-(.), |    )--([a-z0-9-]+)( ([^ ]+))?(  .*|$)/\2 --\3 \5/p' "$TMP/help.$c" |
			while read -r a b d; do
				case $a in --*) printf '%s - %s %s\n' "$c" "$a" "$b" ;;
				*) printf '%s -%s %s %s\n' "$c" "$a" "$b" "$d" ;; esac
			done
	done | sed 's/ *$//' | sort
}

# The same from the man page: the .TP entries of an option (\-x or \-\-name)
# in a command's .RS block under COMMANDS, and the OPTIONS section's, each
# for the commands its "For ...:" line names ("For every command": all).
from_man() {
	CMDS="$cmds" python3 - "$man" <<'EOF'
import os, re, sys
cmds = os.environ["CMDS"].split()
def plain(s):
    s = re.sub(r'^\.[A-Z]+\s*', '', s).replace('\\-', '-')
    s = re.sub(r'\\f[BIRP]', '', s).replace('"', '')
    return re.sub(r'\s*,\s*', ', ', re.sub(r'\s+', ' ', s)).strip()
def option(tag):
    m = re.match(r'^(?:-(\w), )?--([a-z0-9-]+)(?: (\S+))?$', plain(tag))
    if not m:
        sys.exit("doc/vdsokit.1: an option entry that is no option: " + tag)
    return ('-' + m.group(1) if m.group(1) else '-', '--' + m.group(2), m.group(3) or '')
lines = open(sys.argv[1]).read().splitlines()
section, cmd, depth, out = None, None, 0, set()
for i, l in enumerate(lines):
    nxt = lines[i + 1] if i + 1 < len(lines) else ''
    if l.startswith('.SH') or l.startswith('.SS'):
        section, cmd = l.split(None, 1)[1], None
    elif l == '.RS':
        depth += 1
    elif l == '.RE':
        depth -= 1
    elif l != '.TP':
        continue
    elif section == 'COMMANDS' and depth == 0:
        word = plain(nxt).split(' ')[0] if nxt.startswith('.B ') else None
        cmd = word if word in cmds else None
    elif section == 'COMMANDS' and cmd and re.match(r'^\.BR? \\-', nxt):
        out.add((cmd,) + option(nxt))
    elif section == 'OPTIONS' and depth == 0:
        body = plain(lines[i + 2]) if i + 2 < len(lines) else ''
        m = re.match(r'^For (.*?):', body)
        if not m:
            continue	# vdsokit's own, as --version
        names = cmds if m.group(1) == 'every command' else re.findall(r'[a-z-]+', m.group(1))
        for c in names:
            if c not in cmds and c != 'and':
                sys.exit("doc/vdsokit.1: OPTIONS names no command '%s'" % c)
            if c in cmds:
                out.add((c,) + option(nxt))
for o in sorted(out):
    print(' '.join(o).rstrip())
EOF
}

from_help >"$TMP/help.opts"
if ! from_man | sort >"$TMP/man.opts"; then
	not_ok "doc/vdsokit.1's option entries can be read"
elif [ "$(grep -c . "$TMP/help.opts")" -lt 40 ]; then
	not_ok "--help lists the options" "only $(grep -c . "$TMP/help.opts") found"
else
	check "every command's --help lists options" test "$(cut -d' ' -f1 "$TMP/help.opts" | sort -u | wc -l)" = "$(echo $cmds | wc -w)"
	missing=$(comm -23 "$TMP/help.opts" "$TMP/man.opts" | tr '\n' ';')
	extra=$(comm -13 "$TMP/help.opts" "$TMP/man.opts" | tr '\n' ';')
	check "doc/vdsokit.1 has every option --help lists${missing:+ (missing: $missing)}" test -z "$missing"
	check "doc/vdsokit.1 has no option --help lacks${extra:+ (extra: $extra)}" test -z "$extra"
fi

# One meaning per letter: a letter stands for one long name in every
# command, and a long name has one letter (or none) everywhere.
twice=$(awk '$2 != "-" { print $2, $3 }' "$TMP/help.opts" | sort -u | cut -d' ' -f1 | uniq -d | tr '\n' ' ')
check "no letter means two things across commands${twice:+ ($twice)}" test -z "$twice"
twice=$(awk '{ print $3, $2 }' "$TMP/help.opts" | sort -u | cut -d' ' -f1 | uniq -d | tr '\n' ' ')
check "no long name has two letters across commands${twice:+ ($twice)}" test -z "$twice"

# The values, parsed and bounded from the rows, with the strict parsers'
# messages; -f is the format wherever a command has one.
refused() {
	expect_status 2 "$1 is refused" "${@:3}"
	contains "$1: $2" "$TMP/err" "$2"
}
refused "verify -f nope" "unknown format 'nope' \(text, ktap, json, vdsotest or openmetrics\)" "$VK" verify -f nope time
refused "abi -F nope (-F: the old spelling)" "unknown format 'nope'" "$VK" abi -F nope time
refused "verify --max-fails x" "--max-fails: 'x' is not a whole number" "$VK" verify --max-fails x time
refused "verify --threads 65" "--threads takes 1 to 64" "$VK" verify --threads 65 time
refused "bench -n 1" "--samples takes 2 to 512" "$VK" bench -n 1 time
refused "bench -d 0" "--duration: '0' is not a positive number of seconds" "$VK" bench -d 0 time
refused "stress --pause 61" "--pause: 1 to 60 seconds" "$VK" stress --pause 61
refused "timens --monotonic 1x" "--monotonic: '1x' is not seconds" "$VK" timens --monotonic 1x
refused "vm --smp 0" "--smp takes 1 to 64" "$VK" vm --smp 0 --kernel /dev/null
refused "compare --threshold -1" "--threshold takes 0 to 1000" "$VK" compare --threshold -1 a b
refused "compare --threshold 1001" "--threshold takes 0 to 1000" "$VK" compare --threshold 1001 a b
refused "bench --cpu 100000" "--cpu takes 0 to 1023" "$VK" bench --cpu 100000
refused "abi --paths syscall" "abi compares vdso, libc or impl with the syscall" "$VK" abi --paths syscall
refused "a letter that is no option" "invalid option -- 'x'" "$VK" verify -x
refused "a value missing" "requires an argument" "$VK" bench --cpu

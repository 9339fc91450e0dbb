# The architecture, as the #include lines state it: core/'s folders in
# layers (each uses only what its README.md's "May use:" line names, and
# no two use each other), no circle between files, core/ below report/
# and commands/, report/ below commands/, and a core/ that never prints;
# above core/, each folder uses what its README.md's "May use:" line
# names, each folder below commands/ is a command's, and every .c file
# opens with a comment that says what it is for.
. "$TOP/tests/lib.sh"
cd "$TOP" || exit 1

# includes FILE...: each FILE with the quoted includes it has, as "FILE HEADER".
includes() { grep -Ho '^#include "[^"]*"' "$@" | sed 's/:#include "\(.*\)"$/ \1/'; }

# file_graph INCLUDES: "FROM TO" for each include of another file, a file
# being its .c and its .h together: a.c including b.h while b.c includes
# a.h is a circle, though no header includes itself.
file_graph() { sed 's/\.[ch] / /; s/\.[ch]$//' "$1" | awk '$1 != $2' | sort -u; }

# folder_graph INCLUDES: "FROM TO" for each include of another core folder.
folder_graph() {
	awk '$1 ~ /^core\/[^/]+\// && $2 ~ /^core\/[^/]+\// {
		split($1, a, "/"); split($2, b, "/")
		if (a[2] != b[2]) print a[2], b[2]
	}' "$1" | sort -u
}

# circle GRAPH: the members of each circle tsort finds in GRAPH's
# "FROM TO" lines, a line each; fails when there is none.
circle() {
	tsort "$1" >/dev/null 2>"$TMP/loop" && return 1
	awk '/input contains a loop/ { if (n++) print ""; next }
		{ sub(/^tsort: /, ""); printf "%s ", $0 } END { print "" }' "$TMP/loop"
}

# The checks first catch circles planted where none can hide them: a.c
# and b.c include each other's header, in one folder and across two.
mkdir -p "$TMP/plant/report" "$TMP/plant/core/x" "$TMP/plant/core/y"
echo '#include "report/b.h"' >"$TMP/plant/report/a.c"
echo '#include "report/a.h"' >"$TMP/plant/report/b.c"
echo '#include "core/y/b.h"' >"$TMP/plant/core/x/a.c"
echo '#include "core/x/a.h"' >"$TMP/plant/core/y/b.c"
touch "$TMP/plant/report/a.h" "$TMP/plant/report/b.h" "$TMP/plant/core/x/a.h" "$TMP/plant/core/y/b.h"
(cd "$TMP/plant" && includes report/*.[ch]) >"$TMP/plant.includes"
file_graph "$TMP/plant.includes" >"$TMP/plant.files"
(cd "$TMP/plant" && includes core/*/*.[ch]) >"$TMP/plant.includes"
folder_graph "$TMP/plant.includes" >"$TMP/plant.folders"
found=$(circle "$TMP/plant.files")
case "$found" in
*"report/a report/b "* | *"report/b report/a "*) ok "a planted circle between two files is caught" ;;
*) not_ok "a planted circle between two files is caught" "found: ${found:-none}" ;;
esac
found=$(circle "$TMP/plant.folders")
case "$found" in
*"x y "* | *"y x "*) ok "a planted circle between two folders is caught" ;;
*) not_ok "a planted circle between two folders is caught" "found: ${found:-none}" ;;
esac

# Every source file with the quoted includes it has, as "FILE HEADER".
srcs=$(find cli core commands report tests/unit tests/bench tests/fuzz -name '*.[ch]' | sort; echo main.c)
# shellcheck disable=SC2086 # one word per file
includes $srcs >"$TMP/includes"

# names FILE: FILE's lines, or "none".
names() { if [ -s "$1" ]; then cat "$1"; else echo none; fi; }
# empty DESC FILE [SHOW]: passes when FILE is empty; else fails with what
# it holds, through SHOW (cat by default).
empty() {
	if [ -s "$2" ]; then
		not_ok "$1" "$("${3:-cat}" "$2")"
	else
		ok "$1"
	fi
}

while read -r f h; do [ -f "$h" ] || echo "$f: \"$h\""; done <"$TMP/includes" >"$TMP/lost"
empty "every quoted #include names its file from the top of the tree" "$TMP/lost"

find core -maxdepth 1 -name '*.[ch]' >"$TMP/loose"
empty "every core file is in a subsystem folder" "$TMP/loose"

folder_graph "$TMP/includes" >"$TMP/folders"
: >"$TMP/unstated"
for d in core/*/; do
	d=${d%/} name=$(basename "$d")
	may=$(sed -n 's/^May use: //p' "$d/README.md" 2>/dev/null | tr -c 'a-z_\n' ' ')
	if [ -z "$may" ]; then
		echo "$d: no README.md with a 'May use:' line" >>"$TMP/unstated"
		continue
	fi
	awk -v f="$name" '$1 == f { print $2 }' "$TMP/folders" | while read -r to; do
		case " $may " in *" $to "*) ;; *) echo "core/$name uses core/$to" >>"$TMP/unstated" ;; esac
	done
done
empty "each core folder uses only what its README.md says it may use" "$TMP/unstated"

# acyclic DESC GRAPH: passes when GRAPH has no circle; a failure names
# the members of the first.
acyclic() {
	if found=$(circle "$2"); then
		not_ok "$1" "circles through: $found"
	else
		ok "$1"
	fi
}
acyclic "no circle between core's folders" "$TMP/folders"
file_graph "$TMP/includes" >"$TMP/files"
acyclic "no circle between files (a file's .c and .h as one)" "$TMP/files"

# Layers above core/: commands/ uses report/, report/ renders, core/ does the work.
grep -E '^core/.* (commands|report)/' "$TMP/includes" >"$TMP/up"
empty "core/ includes nothing from commands/ or report/" "$TMP/up" names
grep -E '^report/.* commands/' "$TMP/includes" >"$TMP/up"
empty "report/ includes nothing from commands/" "$TMP/up" names

# The folders of the tree, core/ to commands/: each uses only the others
# its README.md's "May use:" line names.
: >"$TMP/unstated"
for d in $(awk '$1 ~ /\// { sub(/\/.*/, "", $1); print $1 }' "$TMP/includes" | sort -u); do
	[ "$d" = tests ] && continue
	may=$(sed -n 's/^May use: //p' "$d/README.md" 2>/dev/null | tr -c 'a-z_\n' ' ')
	if [ -z "$may" ]; then
		echo "$d: no README.md with a 'May use:' line" >>"$TMP/unstated"
		continue
	fi
	awk -v d="$d" 'index($1, d "/") == 1 { sub(/\/.*/, "", $2); if ($2 != d) print $2 }' \
		"$TMP/includes" | sort -u | while read -r to; do
		case " $may " in *" $to "*) ;; *) echo "$d/ uses $to/" >>"$TMP/unstated" ;; esac
	done
done
empty "each folder uses only what its README.md says it may use" "$TMP/unstated"

# commands/ holds one command per file: each names a row of main.c's
# command table, a command's or a program's (vdsotest, run by argv[0]).
for f in commands/*.c; do
	name=$(basename "$f" .c)
	grep -Eq "\{ \"$(echo "$name" | tr _ -)\", cmd_$name,|\{ \"$name\", vk_$name," main.c ||
		echo "$f"
done >"$TMP/strays"
empty "each file of commands/ is one command of main.c" "$TMP/strays"

# A folder below commands/ holds the parts of the command it is named after.
for d in commands/*/; do
	name=$(basename "$d")
	grep -q "{ \"$(echo "$name" | tr _ -)\", cmd_$name," main.c || echo "$d"
done >"$TMP/strays"
empty "each folder below commands/ is named after a command of main.c" "$TMP/strays"

# The fuzz targets link core alone: what they fuzz (the ELF and bench-file readers) is core's.
grep -E '^tests/fuzz/.* (commands|report)/' "$TMP/includes" >"$TMP/up"
empty "tests/fuzz/ includes nothing from commands/ or report/" "$TMP/up" names

# core/ never prints: stdout is the report's, which commands/ writes. Its
# code without comments, as "FILE:LINE:CODE".
awk 'FNR == 1 { inc = 0 }
{
	line = $0; code = ""
	while (line != "") {
		if (inc) {
			i = index(line, "*/"); if (!i) break
			line = substr(line, i + 2); inc = 0
		} else {
			i = index(line, "/*"); if (!i) { code = code line; break }
			code = code substr(line, 1, i - 1); line = substr(line, i + 2); inc = 1
		}
	}
	print FILENAME ":" FNR ":" code
}' core/*/*.[ch] >"$TMP/code"
grep -E ':.*((^|[^a-z_])(printf|vprintf|puts|putchar)[[:space:]]*\(|(^|[^a-z_])stdout([^a-z_]|$))' \
	"$TMP/code" >"$TMP/prints"
empty "core/ never prints" "$TMP/prints"

# KTAP's lines come from its writer alone (report/ktap.c), as the
# kernel's tests' come from kselftest.h: no other file spells a plan, a
# result line, a directive, a subtest's header or the totals.
grep -En '"(not )?ok %|"1\.\.|KTAP version|# (Totals|Subtest|SKIP|ERROR)' report/*.c commands/*.c |
	grep -v '^report/ktap\.c:' >"$TMP/ktap"
empty "only report/ktap.c writes KTAP's syntax" "$TMP/ktap"

# Every .c file opens with a comment that says what it is for: its first
# line after the SPDX line (blank lines aside) begins one. uncommented
# FILE...: the files that do not.
uncommented() {
	awk 'FNR == 1 { seen = 0 }
		seen { next }
		FNR == 1 && /SPDX-License-Identifier/ { next }
		/^[[:space:]]*$/ { next }
		{ seen = 1; if ($0 !~ /^(\/\*|\/\/)/) print FILENAME }' "$@"
}
mkdir -p "$TMP/plant/c"
printf '// SPDX-License-Identifier: MIT\n#include <stdio.h>\n/* a comment, too late */\n' \
	>"$TMP/plant/c/bare.c"
printf '// SPDX-License-Identifier: MIT\n/* What it is for. */\n#include <stdio.h>\n' \
	>"$TMP/plant/c/said.c"
if [ "$(uncommented "$TMP/plant/c/bare.c" "$TMP/plant/c/said.c")" = "$TMP/plant/c/bare.c" ]; then
	ok "a planted .c file without an opening comment is caught, one with it is not"
else
	not_ok "a planted .c file without an opening comment is caught, one with it is not" \
		"found: $(uncommented "$TMP/plant/c/bare.c" "$TMP/plant/c/said.c")"
fi
# shellcheck disable=SC2046 # one word per file
uncommented $(find cli core commands report tests/unit tests/impl tests/tools tests/bench \
	tests/fuzz -name '*.c' | sort) main.c >"$TMP/uncommented"
empty "every .c file opens with a comment that says what it is for" "$TMP/uncommented"

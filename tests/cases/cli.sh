# The command line: help, version, usage errors and their exit statuses.
. "$TOP/tests/lib.sh"

expect_status 0 "--help exits 0" "$VK" --help
contains "--help lists the info command" "$TMP/out" '^  info '
expect_status 0 "--version exits 0" "$VK" --version
contains "--version prints the version" "$TMP/out" '^vdsokit [0-9]+\.[0-9]+\.[0-9]+$'
expect_status 2 "no command is a usage error" "$VK"
expect_status 2 "an unknown command is a usage error" "$VK" frobnicate
contains "an unknown command is named" "$TMP/err" "'frobnicate' is not a command"
for cmd in info dump list-apis all; do
	expect_status 0 "$cmd --help exits 0" "$VK" $cmd --help
	contains "$cmd --help shows its usage" "$TMP/out" "^Usage: vdsokit $cmd"
	expect_status 0 "help $cmd is $cmd --help" "$VK" help $cmd
	expect_status 2 "$cmd rejects an unknown option" "$VK" $cmd --no-such-option
	contains "$cmd points to --help on a usage error" "$TMP/err" "Try 'vdsokit $cmd --help'"
done
expect_status 2 "info rejects an unknown format" "$VK" info --format yaml
contains "the bad format is named" "$TMP/err" "unknown format 'yaml'"
expect_status 2 "info rejects a stray argument" "$VK" info extra
expect_status 2 "dump needs a FILE" "$VK" dump
expect_status 2 "dump takes one FILE" "$VK" dump a b
expect_status 2 "dump to an unwritable path fails" "$VK" dump /nonexistent/dir/vdso.so
expect_status 2 "all refuses --image" "$VK" all --image /dev/null

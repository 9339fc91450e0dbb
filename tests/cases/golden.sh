# Golden outputs (tests/golden/run.sh): every command's outputs on fixed
# inputs, volatile fields masked, against tests/golden/expected; one
# line per golden file, with the unified diff where it differs. After a
# change of output that is meant, 'make golden-update' rewrites them.
. "$TOP/tests/lib.sh"

# They are the default build's: a static one cannot load --impl, and a
# sanitized one may not have built the libraries.
if LC_ALL=C readelf -lW "$VK" 2>/dev/null | grep -q ' INTERP ' && [ -d "$O/tests/impl" ]; then
	start=$SECONDS
	bash "$TOP/tests/golden/run.sh"
	status=$?
	echo "# golden: $((SECONDS - start)) s"
	exit $status
fi
skip "golden outputs" "$VK is static or $O/tests/impl is not built: the golden files are the default build's"

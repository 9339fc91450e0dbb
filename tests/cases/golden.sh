# Golden outputs (tests/golden/run.sh): every command's outputs on fixed
# inputs, volatile fields masked, against tests/golden/expected; one
# line per golden file, with the unified diff where it differs. After a
# change of output that is meant, 'make golden-update' rewrites them.
. "$TOP/tests/lib.sh"

start=$SECONDS
bash "$TOP/tests/golden/run.sh"
status=$?
echo "# golden: $((SECONDS - start)) s"
exit $status

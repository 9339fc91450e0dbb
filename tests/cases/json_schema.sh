# Every command's JSON against doc/json-schema (draft 2020-12), by
# tests/tools/json_schema.py: the envelope and each command's content.
# stress's and all's documents are checked where they are made
# (stress.sh inside vm, all.sh), and vm's A/B bench files in vm.sh. The checker itself is shown to catch a
# wrong type, a missing key and a key no schema names.
. "$TOP/tests/lib.sh"
D=$TMP/json_schema
mkdir -p "$D" && cd "$D" || exit 1
SCHEMAS=$TOP/doc/json-schema
IMPL=$O/tests/impl
IN=$TOP/tests/golden/inputs

py=$(schema_python)
if [ -z "$py" ]; then
	skip "every command's JSON follows doc/json-schema" "no python3 has the jsonschema module"
	exit 0
fi

# json NAME COMMAND ARGS...: vdsokit ARGS into NAME.json (any status but
# usage's), then schema_valid.
json() {
	local name=$1 cmd=$2 status
	shift 2
	"$VK" "$@" >"$name.json" 2>"$name.err"
	status=$?
	if [ $status = 2 ] || [ ! -s "$name.json" ]; then
		not_ok "$name: vdsokit $* wrote JSON" "exit $status: $(tail -n 3 "$name.err")"
		return
	fi
	schema_valid "$name: its JSON follows $cmd.json" "$cmd" "$name.json"
}

json info info info --format json
json info-image info info --image "$IN/s390x-both.so" --format json
json list-apis list-apis list-apis --format json
if "$VK" inspect --help >/dev/null 2>&1 && ! "$VK" inspect --image "$IN/aarch64-gnu.so" 2>&1 | grep -q 'built without inspect'; then
	json inspect inspect inspect --format json
	json inspect-ab inspect inspect --image "$IN/aarch64-gnu.so" --image "$IN/linux-6.12-loongarch64.so" --format json
else
	skip "inspect: its JSON follows inspect.json" "this vdsokit was built without inspect"
fi
json list-apis-image list-apis list-apis --image "$IN/i386-both.so" --format json
json verify verify verify --impl "$IMPL/bug-res-off-by-one.so" --paths impl -d 0.05 --format json \
	clock-getres-monotonic gettimeofday
json verify-vdso verify verify -d 0.02 --format json clock-gettime-monotonic time
json abi abi abi --impl "$IMPL/abi-write-past.so" --paths impl --format json clock-gettime-tai
json fallback fallback fallback --impl "$IMPL/fb-tai-syscall.so" --paths impl --format json \
	clock-gettime-tai clock-gettime-monotonic-coarse
"$VK" timens --format json >timens.json 2>timens.err
case $? in
0|1) schema_valid "timens: its JSON follows timens.json" timens timens.json ;;
4) skip "timens: its JSON follows timens.json" "timens cannot run here: $(head -n 1 timens.err)" ;;
*) not_ok "timens: vdsokit timens --format json wrote JSON" "$(tail -n 3 timens.err)" ;;
esac
json bench bench bench -d 0.005 -P 2 -n 2 --paths vdso,syscall --format json time getcpu
json bench-cold bench bench -d 0.005 -P 2 -n 2 --cold --format json clock-gettime-monotonic
json bench-threads bench bench -d 0.005 -P 2 -n 2 --threads 2 --paths vdso --format json time
json compare compare compare --format json "$IN/bench/old1.json" "$IN/bench/new1.json"
json compare-cold compare compare --format json "$IN/bench/cold-old.json" "$IN/bench/cold-new.json"
json compare-bench compare compare --format json bench.json bench.json
json compare-impl compare compare --impl "$IMPL/passthrough.so" --copies 2 -d 0.02 --format json time

# The checker catches what a writer could get wrong: planted into
# verify's document, each must fail with the place named.
plant() {
	"$py" -c '
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[2])
json.dump(d, open(sys.argv[3], "w"))
' verify.json "$2" "$1.json"
	if "$py" "$TOP/tests/tools/json_schema.py" "$SCHEMAS" verify "$1.json" >"$1.out" 2>&1; then
		not_ok "the checker catches $1" "it passed: $2"
	else
		contains "the checker catches $1" "$1.out" "$3"
	fi
}
plant wrong-type 'd["totals"]["pass"] = "1"' "\['totals'\]\['pass'\]: '1' is not of type 'integer'"
plant missing-key 'del d["environment"]["kernel"]' "\['environment'\]: 'kernel' is a required property"
plant stray-key 'd["CPU model"] = "x"' "Unevaluated properties are not allowed \('CPU model'"
plant other-schema 'd["schema"] = "vdsokit-verify/2"' "\['schema'\]: 'vdsokit-verify/1' was expected"

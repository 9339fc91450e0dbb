# The golden runs, sourced by tests/golden/run.sh: "golden NAME" starts
# expected/NAME.txt, each "run ARGS" (vdsokit ARGS) or "as PROG ARGS"
# (vdsokit installed as PROG) appends one run to it. Only runs whose
# outputs, once masked, are the same on every x86_64 machine belong here:
# fixed inputs, the planted libraries on the impl path alone, and no API
# whose checks depend on the CPUs (getcpu, cross-CPU threads) or on the
# clocksource (a fine clock through the kernel's vDSO). Nor verify's
# second-edge, a SKIP where the machine is too loaded to hold its readers
# in time: it is left out (tests/cases/verify_impl.sh tests it).
export VDSOKIT_NO_SECOND_EDGE=1

# The longest first (121 cases, each in a child), so that the processes
# that share the files out end together.
golden abi-wrong-errno
run abi --impl impl/abi-wrong-errno.so --paths impl gettimeofday

# The top level and every command's --help.
golden top
run
run --help
run --version
run -h
run --bogus
run bogus-command
for c in abi all bench compare dump fallback info inspect list-apis stress timens verify vm; do
	golden "help-$c"
	run "$c" --help
done

# Usage errors: the message and the status of each.
golden usage-info
run info --bogus
run info --format xml
run info -f csv
run info --image
run info --image in/missing.so
run info --image in/bench/old1.json
run info --image in/linux-6.18-x86_64.so extra
golden usage-list-apis
run list-apis --bogus
run list-apis --format ktap
run list-apis --image in/missing.so
run list-apis --image in/bench/truncated.json
run list-apis extra
golden usage-verify
run verify --bogus
run verify -d abc
run verify -d -1
run verify -f csv
run verify --max-fails -3
run verify --paths bogus
run verify --threads 0
run verify --format csv
run verify no-such-api
run verify clock-gettime-id:abc
run verify clock-getres-id:INT_MAX1
run verify --impl impl/missing.so
run verify --impl in/bench/old1.json
run verify --impl impl/hostile-ctor-exit0.so
run verify --paths impl clock-gettime-monotonic
golden usage-bench
run bench --bogus
run bench -n 1
run bench -n 513
run bench -P 0
run bench -P 65
run bench -n 100 -P 10
run bench --duration 0
run bench --format markdown
run bench --cpu 100000
run bench no-such-api
run bench --paths vdso,bogus
run bench --impl impl/missing.so
golden usage-compare
run compare
run compare in/bench/old1.json
run compare in/bench/old1.json in/bench/new1.json in/bench/new2.json
run compare in/bench/old1.json in/missing.json
run compare in/bench/old1.json in/bench/truncated.json
run compare in/bench/old1.json in/bench/cut.json
run compare in/bench/old1.json in/bench/badsample.json
run compare in/bench/old1.json in/bench/noref.json
run compare in/bench/old1.json in/linux-6.18-x86_64.so
run compare --threshold abc in/bench/old1.json in/bench/new1.json
run compare --threshold -5 in/bench/old1.json in/bench/new1.json
run compare --format csv in/bench/old1.json in/bench/new1.json
run compare --vs in/bench/new1.json
run compare in/bench/old1.json --vs
run compare --bogus
run compare --impl impl/missing.so
run compare --copies 0 --impl impl/passthrough.so
golden usage-abi
run abi --bogus
run abi --timeout 0
run abi --timeout abc
run abi --format csv
run abi no-such-api
run abi --paths impl
run abi --paths syscall
golden usage-fallback
run fallback --bogus
run fallback --format csv
run fallback --require no-such-api
run fallback no-such-api
golden usage-timens
run timens --bogus
run timens --monotonic abc
run timens --boottime 1x
run timens --format csv
run timens -d -1
golden usage-stress
run stress --bogus
run stress -d abc
run stress --faults bogus
run stress
golden usage-dump
run dump
run dump a b
run dump --bogus
run dump /nonexistent/dir/vdso.so
golden usage-vm
run vm
run vm --bogus
run vm --kernel in/missing
run vm --kernel in/bench/old1.json
run vm --kernel in/linux-6.18-x86_64.so --accel bogus
run vm --kernel in/linux-6.18-x86_64.so --rounds 0
golden usage-all
run all --bogus
run all --format csv
run all extra

# vdsotest's command line and names.
golden vdsotest
run list-test-types
as vdsotest list-test-types
as vdsotest --help
as vdsotest-all --help
as vdsotest-bench --help
run no-such-api verify
run clock-gettime-monotonic bogus-type
run -d abc clock-gettime-monotonic verify
run -f abc clock-gettime-monotonic verify
as vdsotest
as vdsotest no-such-api verify
as vdsotest-all --bogus
as vdsotest-bench --bogus

# The ELF reader on fixed images: real kernels' vDSOs (Linux 6.18's
# x86_64, dumped; 7.2's i386, which exports clock_getres_time64; 6.12's
# loongarch64, as built, which list-apis must find at LINUX_5.10) and
# tests/images/build.sh's of other ABIs, byte orders
# and hash tables (arm without section headers, x32 without hash tags);
# an i386 vDSO as Linux 7.3 builds it without CONFIG_COMPAT_32BIT_TIME,
# whose absent time32 entries are the option's, not a loss.
for img in linux-6.18-x86_64 linux-7.2-i386 linux-6.12-loongarch64 s390x-both i386-both arm-sysv-noshdrs aarch64-gnu x32-both-nohash i386-notime32; do
	golden "image-$img"
	run info --image "in/$img.so"
	run info --image "in/$img.so" --format json
	run info --image "in/$img.so" --format ktap
	run list-apis --image "in/$img.so"
	run list-apis --image "in/$img.so" --format json
done

# dump: what it writes depends on this kernel, not whether it writes.
golden dump
run dump vdso.so

# compare of fixed bench files, in every format it has.
golden compare-two
run compare in/bench/old1.json in/bench/new1.json
run compare --format json in/bench/old1.json in/bench/new1.json
run compare --format markdown in/bench/old1.json in/bench/new1.json
run compare --format ktap in/bench/old1.json in/bench/new1.json
run compare --format html in/bench/old1.json in/bench/new1.json
golden compare-output
run compare --output out in/bench/old1.json in/bench/new1.json
golden compare-merged
run compare in/bench/old1.json in/bench/old2.json in/bench/old3.json --vs in/bench/new1.json in/bench/new2.json in/bench/new3.json
run compare --format json in/bench/old1.json in/bench/old2.json in/bench/old3.json --vs in/bench/new1.json in/bench/new2.json in/bench/new3.json
run compare --format markdown in/bench/old1.json in/bench/old2.json in/bench/old3.json --vs in/bench/new1.json in/bench/new2.json in/bench/new3.json
golden compare-merged-output
run compare --threshold 10 --output out in/bench/old1.json in/bench/old2.json --vs in/bench/new1.json in/bench/new2.json
golden compare-same
run compare in/bench/old1.json in/bench/old1.json
run compare --format markdown in/bench/old2.json in/bench/old3.json
golden compare-threshold
run compare --threshold 40 in/bench/old1.json in/bench/new1.json
run compare --threshold 0 --format json in/bench/old1.json in/bench/new1.json
golden compare-few
run compare in/bench/old1.json in/bench/few.json
run compare --format json in/bench/few.json in/bench/old1.json
golden compare-moved
run compare in/bench/old1.json in/bench/moved.json
run compare --format json in/bench/old1.json in/bench/moved.json
golden compare-cold
run compare in/bench/cold-old.json in/bench/cold-new.json
run compare --format json in/bench/cold-old.json in/bench/cold-new.json
run compare --format markdown in/bench/cold-old.json in/bench/cold-new.json
golden compare-cold-output
run compare --output out in/bench/cold-old.json in/bench/cold-new.json

# verify on planted libraries, impl path only: which checks pass and fail.
golden verify-res-off-by-one
for f in text ktap json vdsotest; do
	run verify --impl impl/bug-res-off-by-one.so --paths impl -d 0.05 --format "$f" clock-getres-monotonic clock-getres-boottime
done
# A negative tv_nsec is shown as its fields, never as a time.
golden verify-nsec-negative
run verify --impl impl/bug-nsec-negative.so --paths impl -d 0.05 clock-getres-monotonic
golden verify-invalid-success
for f in text ktap json vdsotest; do
	run verify --impl impl/bug-invalid-success.so --paths impl -d 0.05 --format "$f" clock-getres-id:12 clock-getres-id:2147483647 clock-getres-tai
done
golden verify-tz-ignored
for f in text ktap json vdsotest; do
	run verify --impl impl/bug-tz-ignored.so --paths impl -d 0.05 --format "$f" gettimeofday
done
# A long budget, which --max-fails 1 ends at the first round: the limit is
# looked at only while the budget lasts.
golden verify-time-pointer
for f in text ktap json vdsotest; do
	run verify --impl impl/bug-time-pointer.so --paths impl -d 10 --max-fails 1 --format "$f" time
done
# --output's reproducers of planted findings: the C files are the same
# on every machine; the reports' kernel line is masked.
golden verify-repro
run verify --impl impl/bug-wrong-errno.so --paths impl -d 0.05 --output out clock-getres-id:12
run verify --impl impl/bug-getrandom-nonblock.so --paths impl -d 0.05 --output out getrandom
run verify --impl impl/bug-res-off-by-one.so --paths impl -d 0.05 --output out clock-getres-monotonic

golden verify-getrandom-short
for f in text ktap json vdsotest; do
	run verify --impl impl/bug-getrandom-short.so --paths impl -d 0.05 --format "$f" getrandom
done
golden verify-passthrough
for f in text ktap json vdsotest; do
	run verify --impl impl/passthrough.so --paths impl -d 0.05 --format "$f" clock-getres-realtime clock-getres-boottime
done
golden verify-no-vdso
run verify --impl impl/none.so --paths impl -d 0.05 clock-getres-realtime
run verify --impl impl/none.so --paths impl -d 0.05 --format json clock-getres-realtime

# abi on planted libraries: each case's class (abi-write-past's one case
# in every format).
golden abi-write-past
for f in text ktap json vdsotest; do
	run abi --impl impl/abi-write-past.so --paths impl --format "$f" clock-gettime-tai
done

# fallback on a planted library: TAI by the syscall, a coarse clock not.
golden fallback-tai-syscall
for f in text ktap json; do
	run fallback --impl impl/fb-tai-syscall.so --paths impl --format "$f" clock-gettime-tai clock-gettime-monotonic-coarse
done
run fallback --impl impl/fb-tai-syscall.so --paths impl --require clock-gettime-tai clock-gettime-tai

# all runs every command live: its report is proved on fixed steps,
# printed by tests/unit/report_all.c through the same reporters.
golden all-report
for f in text ktap html; do
	PATH="$O/tests:$PATH" as report_all "$f"
done

# --format openmetrics: info on a fixed image, fallback on a planted
# library, all of fixed steps (API names that need every escape).
golden openmetrics
run info --image in/linux-6.18-x86_64.so --format openmetrics
run fallback --impl impl/fb-tai-syscall.so --paths impl --format openmetrics clock-gettime-tai clock-gettime-monotonic-coarse
PATH="$O/tests:$PATH" as report_all openmetrics

# bench measures this machine, so it is the one command run live: two
# processes of two samples, in each format, every figure masked.
for f in text json csv ktap vdsotest openmetrics; do
	golden "bench-$f"
	run bench -d 0.005 -P 2 -n 2 --paths vdso,syscall --format "$f" time clock-getres-monotonic
done

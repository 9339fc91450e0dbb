# make check-lava (included by the Makefile): contrib/lava's test
# definition under a real LAVA dispatcher (lava-run) on a qemu job, its
# record checked against vdsokit's own KTAP; see tests/lava/run.sh.
# About 4 to 5 minutes under TCG: not part of make check, which runs
# compare.py on recorded output instead (tests/cases/lava_record.sh).

.PHONY: check-lava
check-lava:
	MAKE='$(MAKE)' O='$(abspath $(O))' tests/lava/run.sh

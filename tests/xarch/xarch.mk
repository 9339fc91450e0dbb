# make check-xarch (included by the Makefile): boot Debian's kernels of
# other architectures with `vdsokit vm` and run vdsokit on each; see
# tests/xarch/run.sh. run.sh calls this Makefile again per architecture
# (CROSS_COMPILE=..., STATIC=1, O=build/xarch/ARCH) for the static binaries.

.PHONY: check-xarch
check-xarch: $(BIN)
	MAKE='$(MAKE)' VK='$(abspath $(BIN))' tests/xarch/run.sh

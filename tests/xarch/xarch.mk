# make check-xarch (included by the Makefile): boot Debian's kernels of
# other architectures with `vdsokit vm` and run vdsokit on each; see
# tests/xarch/run.sh. run.sh calls this Makefile again per architecture
# (CROSS_COMPILE=..., STATIC=1, O=build/xarch/ARCH) for the static binaries,
# each arch's facts from $(O)/arches.sh (core/base/arches.def).
# make check-xarch-all runs the opt-in targets too (x32, mips64el-n32;
# powerpc, powerpc-notime32, ppc64, sparc64 and loongarch64 on kernels
# tests/kbuild/build.sh builds; x86_64-sid, mipsel-34kf), each one's time
# in its notes.

.PHONY: check-xarch check-xarch-all
check-xarch: $(BIN) $(O)/arches.sh
	MAKE='$(MAKE)' VK='$(abspath $(BIN))' VDSOKIT_ARCHES='$(abspath $(O)/arches.sh)' tests/xarch/run.sh

check-xarch-all: $(BIN) $(O)/arches.sh
	MAKE='$(MAKE)' VK='$(abspath $(BIN))' VDSOKIT_ARCHES='$(abspath $(O)/arches.sh)' \
		VDSOKIT_XARCH_ALL=1 tests/xarch/run.sh

# make check-kbuild (included by the Makefile): build small x86_64 kernels
# from Debian's linux-source with contrib/vm.config and test them with
# `vdsokit vm`; see tests/kbuild/run.sh. Not part of `make check`: the
# first build takes about 35 minutes on two cores (cached after it).

.PHONY: check-kbuild
check-kbuild: $(BIN)
	MAKE='$(MAKE)' VK='$(abspath $(BIN))' tests/kbuild/run.sh

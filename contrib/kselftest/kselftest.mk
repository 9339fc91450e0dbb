# make kselftest-install KSFT_INSTALL_PATH=DIR (included by the Makefile):
# vdsokit as a kselftest collection, laid out as the kernel's
# `make -C tools/testing/selftests install` lays out each of its own:
# DIR/vdsokit/ holds a static vdsokit, one executable per test and a
# settings file, and DIR/kselftest-list.txt lists each test as
# vdsokit:TEST (its earlier vdsokit lines replaced, never repeated), so
# that the kernel's DIR/run_kselftest.sh -c vdsokit runs them. See
# doc/farms.md.

KSFT_TESTS := info verify abi fallback timens bench
# Static: a farm's root filesystem need not have this build's libc.
KSFT_O := $(if $(filter 1,$(STATIC)),$(O),$(O)/static)
KSFT_DIR = $(KSFT_INSTALL_PATH)/vdsokit
KSFT_LIST = $(KSFT_INSTALL_PATH)/kselftest-list.txt

.PHONY: kselftest-install
kselftest-install:
	@[ -n '$(KSFT_INSTALL_PATH)' ] || { echo 'make kselftest-install: give KSFT_INSTALL_PATH=DIR' >&2; exit 2; }
	+$(MAKE) O=$(KSFT_O) STATIC=1 $(KSFT_O)/vdsokit
	install -d '$(KSFT_DIR)'
	install -m 755 $(KSFT_O)/vdsokit contrib/kselftest/vdsokit_ksft.sh \
		$(KSFT_TESTS:%=contrib/kselftest/%) '$(KSFT_DIR)'
	install -m 644 contrib/kselftest/settings '$(KSFT_DIR)'
	{ [ ! -e '$(KSFT_LIST)' ] || grep -v '^vdsokit:' '$(KSFT_LIST)'; \
	  printf 'vdsokit:%s\n' $(KSFT_TESTS); } >'$(KSFT_LIST).tmp' && \
		mv '$(KSFT_LIST).tmp' '$(KSFT_LIST)'

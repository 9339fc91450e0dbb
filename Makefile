# vdsokit: test and benchmark the Linux vDSO. 'make help' lists the targets.

# The version's one place is debian/changelog's first line.
VERSION := $(shell awk -F'[()]' 'NR == 1 { print $$2 }' debian/changelog)

# Build knobs: O=DIR, CROSS_COMPILE=prefix-, STATIC=1, SANITIZE=1, V=1.
# A sanitized build gets its own directory, so the two never mix objects.
ifeq ($(SANITIZE),1)
O ?= build/san
else
O ?= build
endif
# CC defaults to $(CROSS_COMPILE)gcc unless it was set on the command line
# or in the environment; a plain ?= would not work, as make presets CC=cc.
ifeq ($(origin CC),default)
CC := $(CROSS_COMPILE)gcc
endif
ifeq ($(origin AR),default)
AR := $(CROSS_COMPILE)ar
endif

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man

WARNINGS := -Wall -Wextra -Werror -Wshadow -Wmissing-prototypes \
	-Wstrict-prototypes -Wpointer-arith -Wundef
CFLAGS ?= -O2 -g
override CFLAGS += -std=gnu11 -pthread $(WARNINGS) -D_GNU_SOURCE -DVK_VERSION='"$(VERSION)"'
# Unwind tables precise at every instruction, which verify's signal rules
# unwind from: riscv's and mips's gcc make none by default.
override CFLAGS += -fasynchronous-unwind-tables
# Every #include "..." names its file from the top: "core/call/call.h".
override CFLAGS += -iquote .
# A static binary has no dlopen(), so --impl is compiled out of it.
ifeq ($(STATIC),1)
override LDFLAGS += -static
override CFLAGS += -DVK_STATIC
else
LDLIBS := -ldl
endif
# 64-bit atomics (the threads check) need libatomic on some 32-bit
# targets, ppc among them; link it wherever the compiler has it.
ifneq ($(shell $(CC) -print-file-name=libatomic.a),libatomic.a)
LDLIBS += -latomic
endif
# verify's signal rules unwind with libgcc's _Unwind_Backtrace, and
# signal-unwind looks FDEs up with its _Unwind_Find_FDE (libgcc_s, or
# libgcc_eh when static), where they link: not with musl-gcc, whose
# libgcc_eh is glibc's (the rules are a SKIP that says so), nor, for
# the lookup, with arm's EHABI unwinder.
comma := ,
unwind_probe = $(shell printf '\043include <unwind.h>\nextern const void *_Unwind_Find_FDE(void *, void *);\nint main(void) { return $(1); }\n' | \
	$(CC) -x c - $(LDFLAGS) -o /dev/null 2>/dev/null && echo y)
ifeq ($(call unwind_probe,_Unwind_Backtrace(0$(comma) 0)),y)
override CFLAGS += -DVK_HAVE_UNWIND
endif
ifeq ($(call unwind_probe,!_Unwind_Find_FDE(0$(comma) 0)),y)
override CFLAGS += -DVK_HAVE_FIND_FDE
endif
# inspect reads code with LLVM's C disassembler (doc/inspect.md), the one
# library beyond libc, which it dlopen()s when it runs (so no other
# command loads it): built where llvm-config-19's headers are and CC builds
# for its arch; a static, musl or cross build (a Debian cross build's CC
# too) leaves it out, as does INSPECT=0, and `vdsokit inspect` says so.
LLVM_CONFIG ?= llvm-config-19
arch_of = $(firstword $(subst -, ,$(1)))
ifeq ($(origin INSPECT),undefined)
INSPECT := $(if $(filter 1,$(STATIC))$(CROSS_COMPILE)$(findstring musl,$(CC)),0,$(if $(shell command -v $(LLVM_CONFIG)),$(if $(filter $(call arch_of,$(shell $(CC) -dumpmachine)),$(call arch_of,$(shell $(LLVM_CONFIG) --host-target))),1,0),0))
endif
ifeq ($(INSPECT),1)
LLVM_INC := $(shell $(LLVM_CONFIG) --includedir)
override CFLAGS += -DVK_HAVE_LLVM
$(O)/core/inspect/%.o: override CFLAGS += -isystem $(LLVM_INC)
endif
ifeq ($(SANITIZE),1)
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
override CFLAGS += $(SAN_FLAGS)
override LDFLAGS += $(SAN_FLAGS)
endif

ifneq ($(V),1)
Q := @
QUIET_CC = @echo '  CC      $@';
QUIET_AR = @echo '  AR      $@';
QUIET_LINK = @echo '  LINK    $@';
endif

CORE_SRCS := $(filter-out $(if $(filter 1,$(INSPECT)),,core/inspect/%),$(wildcard core/*/*.c))
TOOL_SRCS := main.c $(wildcard commands/*.c commands/*/*.c cli/*.c report/*.c)
CORE_OBJS := $(CORE_SRCS:%.c=$(O)/%.o)
TOOL_OBJS := $(TOOL_SRCS:%.c=$(O)/%.o)
LIB := $(O)/libvdsokit.a
BIN := $(O)/vdsokit

.PHONY: all run check install uninstall clean help
all: $(BIN)

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

# --version is debian/changelog's.
$(O)/main.o: debian/changelog

$(LIB): $(CORE_OBJS)
	$(QUIET_AR)rm -f $@ && $(AR) rcs $@ $^

$(BIN): $(TOOL_OBJS) $(LIB)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) $(TOOL_OBJS) $(LIB) $(LDLIBS) -lm -o $@

# Status 1 is a finding about this machine's vDSO and 4 a machine without
# one: the job ran, and its report says what it found.
run: $(BIN)
	@$(BIN) all; s=$$?; [ $$s -eq 0 ] || [ $$s -eq 1 ] || [ $$s -eq 4 ]

# The architectures' table (core/base/arches.def), as make reads it:
# ARCHES, CROSS_ARCHES (make cross's), PREFIX_name (each one's cross
# prefix) and CROSS_name (the one to use here). scripts/arches.c, built
# for this machine whatever CROSS_COMPILE says, writes it and
# $(O)/arches.sh, the same for the test scripts, together.
HOSTCC ?= cc
$(O)/arches/arches: scripts/arches.c core/base/arches.def core/base/elf_ids.h
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(HOSTCC) -std=gnu11 $(WARNINGS) -iquote . $< -o $@
$(O)/arches.mk: $(O)/arches/arches
	$(Q)$< sh >$(O)/arches.sh.tmp && mv $(O)/arches.sh.tmp $(O)/arches.sh
	$(Q)$< make >$@.tmp && mv $@.tmp $@
$(O)/arches.sh: $(O)/arches.mk
ifneq ($(MAKECMDGOALS),clean)
include $(O)/arches.mk
endif

include tests/tests.mk
include tests/xarch/xarch.mk
include tests/kbuild/kbuild.mk
include tests/lava/lava.mk
include contrib/kselftest/kselftest.mk

# make cross ARCH=arm64: a static vdsokit for ARCH in $(O)/cross/ARCH, where
# 'vdsokit vm' looks for it; without ARCH, every one of them.
ARCH ?= $(CROSS_ARCHES)

.PHONY: cross
cross:
	@for a in $(ARCH); do \
		case " $(CROSS_ARCHES) " in *" $$a "*) ;; \
		*) echo "make cross: unknown ARCH '$$a' (one of: $(CROSS_ARCHES))" >&2; exit 2 ;; esac; \
	done
	+$(foreach a,$(filter $(CROSS_ARCHES),$(ARCH)),$(MAKE) O=$(O)/cross/$(a) \
		CROSS_COMPILE=$(CROSS_$(a)) STATIC=1 $(O)/cross/$(a)/vdsokit &&) true

# A release: a static vdsokit per architecture (musl's for x86_64 where
# it is smaller), the vdsotest links, the man page and SHA256SUMS.
.PHONY: dist
dist: cross
	+$(if $(shell command -v musl-gcc),$(MAKE) O=$(O)/musl CC=musl-gcc STATIC=1 $(O)/musl/vdsokit)
	scripts/dist.sh $(VERSION) $(O) $(filter $(CROSS_ARCHES),$(ARCH))

# vdsotest's programs are links to vdsokit, which is them by argv[0]: test
# farms look for $(PREFIX)/bin/vdsotest and vdsotest-all.
VDSOTEST_LINKS := vdsotest vdsotest-all vdsotest-bench

# The man page says which version it describes.
$(O)/vdsokit.1: doc/vdsokit.1 debian/changelog
	@mkdir -p $(dir $@)
	sed '1s/"vdsokit [^"]*"/"vdsokit $(VERSION)"/' $< >$@

install: $(BIN) $(O)/vdsokit.1
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/vdsokit
	install -m 644 $(O)/vdsokit.1 $(DESTDIR)$(MANDIR)/man1/vdsokit.1
	for l in $(VDSOTEST_LINKS); do \
		ln -sf vdsokit $(DESTDIR)$(BINDIR)/$$l && \
		ln -sf vdsokit.1 $(DESTDIR)$(MANDIR)/man1/$$l.1 || exit 1; \
	done

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/vdsokit $(VDSOTEST_LINKS:%=$(DESTDIR)$(BINDIR)/%) \
		$(DESTDIR)$(MANDIR)/man1/vdsokit.1 $(VDSOTEST_LINKS:%=$(DESTDIR)$(MANDIR)/man1/%.1)

clean:
	rm -rf $(O)

help:
	@echo 'Targets:'
	@echo '  all (default)  build $(BIN)'
	@echo '  run            build, then run the main job: vdsokit all'
	@echo '  check          build every variant and run the whole test suite (J=N cases at once)'
	@echo '  check-quick    the quick tier: unit programs, form and docs cases, the short command cases'
	@echo '  unit           the unit programs (tests/cases/unit.sh)'
	@echo '  check-xarch    boot Debian kernels of seven architectures under qemu, run vdsokit on each'
	@echo '  check-xarch-all  check-xarch with its opt-in targets (x32, mips64el-n32, ...), each one timed'
	@echo '  check-kbuild   build x86_64 kernels from linux-source with contrib/vm.config, vm them (A/B too)'
	@echo '  check-lava     contrib/lava under a real LAVA dispatcher (lava-run) on a qemu job, its record = vdsokit'"'"'s'
	@echo '  soak           abi, verify and verify --impl passthrough 20 times here, check-xarch 5 times:'
	@echo '                 results that depend on chance'
	@echo '                 (VDSOKIT_SOAK_LOAD=1: under CPU hogs and a starved vm relay, plus 20 relay boots)'
	@echo '  cross          static vdsokit per arch for vdsokit vm (ARCH=arm64; default all)'
	@echo '  dist           a release tarball: a static vdsokit per arch, man page, SHA256SUMS'
	@echo '  install        install the binary, its vdsotest links and man page (PREFIX, DESTDIR)'
	@echo '  kselftest-install   the kselftest collection DIR/vdsokit, for KSFT_INSTALL_PATH=DIR (doc/farms.md)'
	@echo '  uninstall, clean'
	@echo 'Knobs:'
	@echo '  O=DIR                build directory (default: build)'
	@echo '  CC=..., CROSS_COMPILE=$(PREFIX_arm64)   compiler or cross prefix'
	@echo '  STATIC=1             link statically'
	@echo '  SANITIZE=1           build with ASan and UBSan (check runs under them)'
	@echo '  V=1                  show the full commands'

-include $(CORE_OBJS:.o=.d) $(TOOL_OBJS:.o=.d)

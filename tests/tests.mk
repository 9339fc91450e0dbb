# The test suite (included by the Makefile). Every tests/unit/NAME.c is a
# TAP-style test program linked with the core library, every
# tests/tools/NAME.c a helper the cases use; tests/run.sh runs the cases
# in tests/cases/ and prints the "N passed, N failed, N skipped" line.

UNIT_BINS := $(patsubst tests/unit/%.c,$(O)/tests/%,$(wildcard tests/unit/*.c))
TOOL_BINS := $(patsubst tests/tools/%.c,$(O)/tests/tools/%,$(wildcard tests/tools/*.c))
# Implementations for --impl: shared objects, so none in a static build.
ifneq ($(STATIC),1)
IMPL_LIBS := $(patsubst tests/impl/%.c,$(O)/tests/impl/%.so,$(wildcard tests/impl/*.c))
# And one for another machine, which --impl must name as such: arm64's,
# where its compiler is installed (tests/cases/hostile_impl.sh skips otherwise).
FOREIGN_CC := $(PREFIX_arm64)gcc
ifneq ($(shell command -v $(FOREIGN_CC) 2>/dev/null),)
IMPL_LIBS += $(O)/tests/impl/foreign/passthrough-aarch64.so
endif
endif

.PHONY: check-build
check-build: $(BIN) $(UNIT_BINS) $(TOOL_BINS) $(IMPL_LIBS) $(O)/arches.sh

$(O)/tests/%: tests/unit/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(CFLAGS) -MMD -MP $(LDFLAGS) $< $(LIB) $(LDLIBS) -lm -o $@

# The report layer's (tests/unit/report_*.c) link its objects too.
REPORT_OBJS := $(patsubst %.c,$(O)/%.o,$(wildcard report/*.c))
$(O)/tests/report_%: tests/unit/report_%.c $(REPORT_OBJS) $(LIB)
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(CFLAGS) -MMD -MP $(LDFLAGS) $< $(REPORT_OBJS) $(LIB) $(LDLIBS) -lm -o $@

$(O)/tests/tools/%: tests/tools/%.c
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(CFLAGS) -MMD -MP $(LDFLAGS) $< -o $@

$(O)/tests/impl/%.so: tests/impl/%.c $(wildcard tests/impl/*.h)
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(CFLAGS) -fPIC -shared $< -o $@

$(O)/tests/impl/foreign/%-aarch64.so: tests/impl/%.c tests/impl/impl.h
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(FOREIGN_CC) -O2 -fPIC -shared $< -o $@

# The benchmark's own quality, measured (not a test: figures for a note).
BENCH_BINS := $(patsubst tests/bench/%.c,$(O)/tests/bench/%,$(wildcard tests/bench/*.c))

$(O)/tests/bench/%: tests/bench/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(CFLAGS) -MMD -MP $(LDFLAGS) $< $(LIB) $(LDLIBS) -lm -o $@

.PHONY: bench-quality
bench-quality: $(BIN) $(BENCH_BINS) $(IMPL_LIBS)
	O=$(abspath $(O)) tests/bench/quality.sh

# J=N: cases at once (default: the CPU count); a case marked '# serial'
# runs alone all the same.
RUN_CASES = O=$(abspath $(O)) SANITIZE=$(SANITIZE) tests/run.sh $(if $(J),-j$(J))

check: check-build
	$(RUN_CASES)

# The quick tier, for every commit: the unit programs, the cases of the
# command line's form and the docs, and the command cases that are short
# (info's, fallback's, timens's and all's), under QUICK=1, which each
# case may read to run shorter or repeat less (tests/lib.sh); doc/ci.md
# has its time.
QUICK_CASES := unit golden cli options layers docs live fallback timens all
.PHONY: check-quick
check-quick: check-build
	QUICK=1 $(RUN_CASES) $(QUICK_CASES:%=tests/cases/%.sh)

# The unit programs alone (tests/cases/unit.sh, which check runs too).
.PHONY: unit
unit: check-build
	$(RUN_CASES) tests/cases/unit.sh

# Golden outputs (tests/golden/run.sh): check them, or rewrite them after
# a change of output that is meant (review the diff before committing it).
.PHONY: golden golden-update
golden: check-build
	O=$(abspath $(O)) tests/golden/run.sh
golden-update: check-build
	O=$(abspath $(O)) tests/golden/run.sh --update

-include $(UNIT_BINS:=.d) $(TOOL_BINS:=.d) $(BENCH_BINS:=.d)

# Results that depend on chance, found by repetition (not part of check).
.PHONY: soak
soak: $(BIN)
	MAKE='$(MAKE)' tests/soak/run.sh

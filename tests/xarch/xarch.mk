# make check-xarch (included by the Makefile): boot Debian's kernels of
# other architectures under qemu-system and run vdsokit on each; see
# tests/xarch/run.sh. run.sh calls this Makefile again per architecture
# (CROSS_COMPILE=..., STATIC=1, O=build/xarch/ARCH) for xarch-initramfs.

XARCH_INIT := $(O)/tests/xarch/init
XARCH_INITRAMFS := $(O)/initramfs.cpio

$(XARCH_INIT): tests/xarch/init.c
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(CFLAGS) -static $< -o $@

$(XARCH_INITRAMFS): $(BIN) $(XARCH_INIT) tests/xarch/mkinitramfs.sh
	tests/xarch/mkinitramfs.sh $@ $(XARCH_INIT) $(BIN)

.PHONY: xarch-initramfs check-xarch
xarch-initramfs: $(XARCH_INITRAMFS)

check-xarch:
	MAKE='$(MAKE)' tests/xarch/run.sh

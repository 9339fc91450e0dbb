# Each ABI's syscall numbers (list-apis --image of a foreign vDSO prints
# them) against its own <asm/unistd.h>, preprocessed by each installed
# cross compiler: nothing is linked or run. An ABI with no compiler here
# is only checked to have numbers, and its compiler is named.
. "$TOP/tests/lib.sh"

# NAME MACHINE IS64 EFLAGS PACKAGE COMPILER [FLAGS]: the ABI's row (EM_*,
# ELF class and e_flags, EF_MIPS_ABI2 on n32) and the compiler whose
# headers are that ABI's (x32's are x86_64's under __ILP32__, as -mx32
# defines, whose multiarch headers Debian installs apart).
abis="x86_64 62 1 0 gcc-x86-64-linux-gnu x86_64-linux-gnu-gcc
x32 62 0 0 gcc-x86-64-linux-gnu x86_64-linux-gnu-gcc -D__ILP32__
i386 3 0 0 gcc-i686-linux-gnu i686-linux-gnu-gcc
aarch64 183 1 0 gcc-aarch64-linux-gnu aarch64-linux-gnu-gcc
arm 40 0 0 gcc-arm-linux-gnueabihf arm-linux-gnueabihf-gcc
ppc64 21 1 0 gcc-powerpc64le-linux-gnu powerpc64le-linux-gnu-gcc
ppc 20 0 0 gcc-powerpc-linux-gnu powerpc-linux-gnu-gcc
s390x 22 1 0 gcc-s390x-linux-gnu s390x-linux-gnu-gcc
riscv64 243 1 0 gcc-riscv64-linux-gnu riscv64-linux-gnu-gcc
riscv32 243 0 0 gcc-riscv64-linux-gnu riscv64-linux-gnu-gcc -march=rv32gc -mabi=ilp32
mips64 8 1 0 gcc-mips64el-linux-gnuabi64 mips64el-linux-gnuabi64-gcc
mipsn32 8 0 32 gcc-mips64el-linux-gnuabi64 mips64el-linux-gnuabi64-gcc -mabi=n32
mips 8 0 0 gcc-mipsel-linux-gnu mipsel-linux-gnu-gcc
loongarch64 258 1 0 gcc-loongarch64-linux-gnu loongarch64-linux-gnu-gcc
sparc64 43 1 0 gcc-sparc64-linux-gnu sparc64-linux-gnu-gcc
sparc 18 0 0 gcc-sparc64-linux-gnu sparc64-linux-gnu-gcc -m32"

# In enum vk_func's order.
names="clock_gettime clock_getres gettimeofday time getcpu getrandom clock_gettime64 clock_getres_time64"

# numbers COMPILER...: each name's __NR_ value, -1 where it has none. The
# values may be expressions ((4000 + 263) on mips, x32's bit): the shell
# evaluates them.
numbers() {
	local n v out=
	for n in $names; do
		printf '#ifdef __NR_%s\nvk_nr __NR_%s\n#else\nvk_nr -1\n#endif\n' "$n" "$n"
	done >"$TMP/nr.c"
	sed -i '1i #include <asm/unistd.h>' "$TMP/nr.c"
	"$@" -E -P "$TMP/nr.c" 2>"$TMP/nr.err" >"$TMP/nr.i" || return 1
	while read -r v; do
		out="$out $((v))"
	done < <(sed -n 's/^vk_nr //p' "$TMP/nr.i")
	echo "$out"
}

: >"$TMP/abis"
while read -r name machine is64 eflags pkg cc; do
	# shellcheck disable=SC2086 # the compiler and its flags
	if ! need ${cc%% *}; then
		skip "$name's numbers against its <asm/unistd.h>" "no ${cc%% *} (Debian: $pkg)"
		echo "$name $machine $is64 $eflags" >>"$TMP/abis"
	elif nr=$(numbers $cc); then
		echo "$name $machine $is64 $eflags$nr" >>"$TMP/abis"
	else
		skip "$name's numbers against its <asm/unistd.h>" "$cc has no <asm/unistd.h>: $(head -n 1 "$TMP/nr.err")"
		echo "$name $machine $is64 $eflags" >>"$TMP/abis"
	fi
done <<<"$abis"
"$O/tests/syscall_numbers" <"$TMP/abis"

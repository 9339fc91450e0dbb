# The fields of the golden outputs that depend on the machine, the
# kernel, the time or chance (sed -E, applied to every golden file by
# tests/golden/run.sh). Each rule masks one field's value and keeps its
# key, its place and the line around it; anything not named here must be
# the same on every x86_64 machine, as the inputs are fixed. compare's
# figures stay: its bootstrap has a fixed seed.

# info: the running kernel, vdsokit's own build (its libc's version), the
# clocksource, this process's time namespace and vsyscall page.
s/^(kernel: +).*/\1KERNEL/
s/^(build: +).*/\1BUILD/
s/^(clocksource: +).*/\1CLOCKSOURCE/
s/^(  vDSO-capable: ).*/\1CAPABLE/
s/^(time namespace: ).*/\1TIMENS/
s/^(vsyscall: +).*/\1VSYSCALL/
s/^(  "kernel_version": ).*[^,](,?)$/\1"KERNEL"\2/
/^  "clocksource": \{/,/^  \}/s/^(    "[a-z_]+": ).*[^,](,?)$/\1"CLOCKSOURCE"\2/
/^  "time_namespace": \{/,/^  \}/s/^(    "[a-z_]+": ).*[^,](,?)$/\1"TIMENS"\2/
/^  "vsyscall": \{/,/^  \}/s/^(    "[a-z_]+": ).*[^,](,?)$/\1"VSYSCALL"\2/

# A reproducer's report (DIR/repro/NAME.txt): the running kernel.
s/^(Kernel: Linux ).*/\1KERNEL/

# Every JSON document's envelope: vdsokit's build, the running kernel
# and its clocksource.
s/^(    "build": ).*[^,](,?)$/\1"BUILD"\2/
/^  "environment": \{/,/^  \}/{
	s/^(      "release": ).*[^,](,?)$/\1"KERNEL"\2/
	s/^(    "clocksource": )("[^"]*"|null)(,?)$/\1"CLOCKSOURCE"\3/
}

# How many calls a check made in its time budget, and how many of them
# broke the rule: both follow the machine's speed.
s/^(      "calls": )[0-9]+/\1N/
s/^(      "fails": )[0-9]+/\1N/
s/\(broken [0-9]+ times in [0-9]+ calls/(broken N times in N calls/
s/^([a-z][-a-z0-9:_]* +(vdso|libc|syscall|impl) +[0-9]+) +[0-9]+(  [A-Za-z])/\1 N\3/

# The stack a call used: the compiler's and libc's.
s/^(Stack: )[0-9]+(-[0-9]+)? bytes/\1N bytes/
s/^# [0-9]+ bytes$/# N bytes/
s/^(      "detail": ")[0-9]+ bytes"/\1N bytes"/

# time()'s value: the clock's.
s/returned [0-9]+ but stored [0-9]+/returned TIME but stored TIME/

# A live bench (the only command here measured on this machine, the only
# bench run with -d, and alone in its golden file, which the range ends):
# every figure, the machine's description and the warnings about the
# machine go; the warning that its rows had too few processes, the keys,
# rows, columns, exit status and line order stay.
/^\$ vdsokit bench -d /,${
	/^(\$ |\[exit |KTAP version )/b
	s/^( *"(time|run_id|cpu_model|clocksource|governor|disturbed|multimodal|name)": ).*[^,](,?)$/\1X\3/
	/^    "warnings": \[$/,/^    \],?$/{
		/^    "warnings"/b
		/^    \]/b
		d
	}
	/^warning: /{
		/too few processes/!d
	}
	s/^timer [a-z_]+ /timer T /
	s/  multimodal$//
	s/(^|[^A-Za-z0-9_.])[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/\1N/g
	s/ +N/ N/g
}

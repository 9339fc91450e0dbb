# signals: a command stopped by SIGINT, SIGTERM or SIGHUP at a random
# moment, or by timeout(1), leaves no process running 2 s later, guests
# included, and exits 128 + the signal (or its own documented status, if
# it ended first). Each command runs in a session of its own, so that
# whatever it started can be found whatever process group it is in.
# VDSOKIT_SIGNAL_TRIES: tries per command (make soak runs 20).
. "$TOP/tests/lib.sh"

tries=${VDSOKIT_SIGNAL_TRIES:-2}
hang=$O/tests/impl/hostile-hang.so
sigs=(INT TERM HUP)
nums=(2 15 1)
sent=0

# A background job of a script starts with SIGINT ignored; env gives the
# command the default actions back, as a terminal's would have.
if ! env --default-signal=INT true 2>/dev/null; then
	skip "commands end their processes on a signal" "env has no --default-signal (coreutils 8.31)"
	exit 0
fi

# session SID: the pids of session SID still running. A zombie is not,
# nor is a process already in exit (PF_EXITING, 0x4 in its flags): it
# was killed, and on a loaded machine the kernel may take seconds to
# tear a guest's memory down.
session() {
	local stat line f
	for stat in /proc/[0-9]*/stat; do
		read -r line 2>/dev/null <"$stat" || continue
		f=(${line##*) })	# state, ppid, pgrp, session, tty, tpgid, flags, ...
		[ "${f[3]}" = "$1" ] && [ "${f[0]}" != Z ] && ((!(f[6] & 4))) && echo "${stat//[^0-9]/}"
	done
}

# gone SID: true when session SID is empty within 2 s. Else $left says
# what survived, which is then killed, not to spin on after the test.
gone() {
	local end=$(($(date +%s%N) + 2000000000)) pids p
	left=
	while :; do
		pids=$(session "$1")
		[ -z "$pids" ] && return 0
		[ "$(date +%s%N)" -lt "$end" ] || break
		sleep 0.1
	done
	for p in $pids; do
		left="$left [$p: $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)]"
	done
	kill -KILL $pids 2>/dev/null
	return 1
}

# start CMD...: CMD in a session of its own, its pid (the session's id)
# in $pid, once env and setsid have exec'd it: a signal before that
# would find SIGINT ignored, or tell nothing about CMD.
start() {
	local comm
	env --default-signal=INT,TERM,HUP setsid "$@" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	while comm=$(cat "/proc/$pid/comm" 2>/dev/null) && [ "$comm" = env -o "$comm" = setsid ]; do
		sleep 0.01
	done
}

# interrupt NAME STATUSES CMD...: TRIES times, CMD is sent the next of
# SIGINT, SIGTERM and SIGHUP at a random 0.2-2 s; passes when no process
# of its session survives 2 s and it exited 128 + the signal or with one
# of STATUSES (the ones it may end with on its own before the signal).
interrupt() {
	local name=$1 statuses=$2 i k ms status n failed=0 bad=()
	shift 2
	# stderr: bash's "Hangup" for each job SIGHUP ended, not the test's.
	for ((i = 1; i <= tries; i++)); do
		k=$((sent++ % 3)) ms=$((200 + RANDOM % 1801)) n=${#bad[@]}
		start "$@"
		sleep "$((ms / 1000)).$(printf %03d $((ms % 1000)))"
		kill -"${sigs[k]}" "$pid" 2>/dev/null
		gone "$pid" || bad+=("SIG${sigs[k]} at $ms ms: still running 2 s later:$left")
		wait "$pid"
		status=$?
		case " $((128 + nums[k])) $statuses " in
		*" $status "*) ;;
		*) bad+=("SIG${sigs[k]} at $ms ms: exit $status: $(tail -n 2 "$TMP/err")") ;;
		esac
		failed=$((failed + (${#bad[@]} > n)))
	done 2>/dev/null
	if [ "$failed" -eq 0 ]; then
		ok "$name: nothing survives a signal ($tries tries)"
	else
		not_ok "$name: nothing survives a signal ($failed of $tries tries failed)" "${bad[@]}"
	fi
}

# after_timeout NAME CMD...: timeout 3 CMD, which CMD outlasts, exits 124
# and leaves nothing of its session running 2 s after.
after_timeout() {
	local name=$1 status
	shift
	start timeout 3 "$@"
	wait "$pid"
	status=$?
	if ! gone "$pid"; then
		not_ok "timeout 3 $name: nothing survives" "still running 2 s later:$left"
	elif [ "$status" != 124 ]; then
		not_ok "timeout 3 $name: nothing survives" "exit $status, expected 124"
	else
		ok "timeout 3 $name: nothing survives"
	fi
}

# after_kill NAME CMD...: CMD SIGKILLed once it has started a child
# leaves nothing running 2 s later: its children die with it.
after_kill() {
	local name=$1 i
	shift
	start "$@"
	for ((i = 0; i < 100 && $(session "$pid" | wc -l) < 2; i++)); do
		sleep 0.1
	done
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	if gone "$pid"; then
		ok "SIGKILL to $name: nothing survives"
	else
		not_ok "SIGKILL to $name: nothing survives" "still running 2 s later:$left"
	fi
}

verify=(verify -d 20 clock-gettime-monotonic)
interrupt "${verify[*]}" "" "$VK" "${verify[@]}"
after_timeout "${verify[*]}" "$VK" "${verify[@]}"
interrupt bench "0 1" "$VK" bench
interrupt abi "0 1 4" "$VK" abi
interrupt fallback "0 1 4" "$VK" fallback
interrupt timens "0 1 4" "$VK" timens
interrupt all "0 1 4" "$VK" all
if [ -f "$hang" ]; then
	interrupt "verify --impl hostile-hang" "" "$VK" "${verify[@]}" --impl "$hang"
	after_timeout "verify --impl hostile-hang" "$VK" "${verify[@]}" --impl "$hang"
	after_kill "verify --impl hostile-hang" "$VK" "${verify[@]}" --impl "$hang"
	interrupt "abi --impl hostile-hang" "" "$VK" abi --paths impl --impl "$hang"
	interrupt "timens --impl hostile-hang" "" "$VK" timens --impl "$hang"
	interrupt "compare --impl hostile-hang --impl passthrough" "" \
		"$VK" compare --impl "$hang" --impl "$O/tests/impl/passthrough.so"
else
	skip "--impl hostile-hang: nothing survives a signal" "no $hang (a static build has no --impl)"
fi

# unnamed_logs DIR: the console logs of vm in DIR that its stderr
# ($TMP/err) does not name as kept; none, and true, when each is.
unnamed_logs() {
	local f bad=
	for f in "$1"/vdsokit-vm-*.log; do
		[ -e "$f" ] || continue
		grep -qxF "vdsokit vm: interrupted; the console log is kept in $f" "$TMP/err" || bad="$bad $f"
	done
	[ -z "$bad" ] || { echo "$bad"; return 1; }
}

# A stopped vm removes qemu's QMP socket, and keeps its console log,
# named. A qemu that makes the socket's file and never boots stands in;
# a header is kernel enough for it.
if [ "$(uname -m)" = x86_64 ] &&
	make_cross x86_64 >"$TMP/cross.log" 2>&1; then
	mkdir -p "$TMP/qmpq" "$TMP/qmp"
	cat >"$TMP/qmpq/qemu-system-x86_64" <<'EOF'
#!/bin/sh
while [ $# -gt 0 ]; do
	[ "$1" = -qmp ] && { p=${2#unix:}; : >"${p%%,*}"; }
	shift
done
exec sleep 1000
EOF
	chmod +x "$TMP/qmpq/qemu-system-x86_64"
	head -c 2048 /dev/zero >"$TMP/qmp-bz"
	printf 'HdrS' | dd of="$TMP/qmp-bz" bs=1 seek=514 conv=notrunc status=none
	printf '\001' | dd of="$TMP/qmp-bz" bs=1 seek=566 conv=notrunc status=none
	for k in 0 1 2; do
		rm -f "$TMP/qmp/"*
		TMPDIR=$TMP/qmp PATH=$TMP/qmpq:$PATH start "$VK" vm --kernel "$TMP/qmp-bz" --accel tcg \
			--binary "$O/cross/x86_64/vdsokit" -- info
		for _ in $(seq 300); do
			ls "$TMP/qmp" | grep -q '^vdsokit-qmp-' && break
			sleep 0.1
		done
		check "vm's qemu made its QMP socket (SIG${sigs[k]})" sh -c "ls '$TMP/qmp' | grep -q '^vdsokit-qmp-'"
		kill -"${sigs[k]}" "$pid"
		wait "$pid" 2>/dev/null
		check "SIG${sigs[k]} ends vm with its status" test $? = $((128 + nums[k]))
		check "SIG${sigs[k]} to vm leaves no QMP socket" sh -c "! ls '$TMP/qmp' | grep '^vdsokit-qmp-'"
		log=$(sed -n 's/^vdsokit vm: interrupted; the console log is kept in //p' "$TMP/err")
		check "SIG${sigs[k]} to vm names the console log it keeps" test -f "$log"
		check "SIG${sigs[k]} to vm leaves no console log unnamed" unnamed_logs "$TMP/qmp"
		gone "$pid" || not_ok "SIG${sigs[k]} to vm: nothing survives" "$left"
	done
	# At a random moment, from before the log is made to the boot.
	for ((i = 1; i <= tries; i++)); do
		k=$((sent++ % 3)) ms=$((RANDOM % 1500))
		rm -f "$TMP/qmp/"*
		TMPDIR=$TMP/qmp PATH=$TMP/qmpq:$PATH start "$VK" vm --kernel "$TMP/qmp-bz" --accel tcg \
			--binary "$O/cross/x86_64/vdsokit" -- info
		sleep "$((ms / 1000)).$(printf %03d $((ms % 1000)))"
		kill -"${sigs[k]}" "$pid"
		wait "$pid" 2>/dev/null
		check "SIG${sigs[k]} to vm at $ms ms leaves no console log unnamed" unnamed_logs "$TMP/qmp"
		gone "$pid" || not_ok "SIG${sigs[k]} to vm at $ms ms: nothing survives" "$left"
	done
else
	skip "a stopped vm removes its QMP socket" "no x86_64 host, or no static x86_64 vdsokit: $(tail -n 1 "$TMP/cross.log")"
fi

guest_kernel "vm: nothing survives a signal, qemu included" || exit 0
# The QMP sockets of killed runs, left behind, in the scratch directory.
export TMPDIR=$TMP
vm=(vm --kernel "$kernel" --binary "$O/cross/x86_64/vdsokit" --accel tcg --timeout 120)
interrupt "vm --accel tcg" "" "$VK" "${vm[@]}" -- "${verify[@]}"
after_kill "vm --accel tcg" "$VK" "${vm[@]}" -- "${verify[@]}"

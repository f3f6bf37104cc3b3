#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/guest-run on bad input and on guests that misbehave: each case
# must end with its documented exit status and a clear one-line error.
# Usage: guest-run-faults.sh [VARIANT]   (default: baseline)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
run=$top/scripts/guest-run
kernel=$top/build/kernel/${1:-baseline}/bzImage
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# expect NAME STATUS PATTERN -- COMMAND...: COMMAND exits STATUS and its
# stderr matches PATTERN (an empty PATTERN matches anything).
expect() {
	local name=$1 want=$2 pattern=$3 got=0
	shift 4
	"$@" >"$tmp/out" 2>"$tmp/err" || got=$?
	if [[ $got == "$want" ]] && { [[ -z $pattern ]] || grep -Eq -- "$pattern" "$tmp/err"; }; then
		echo "ok: $name (exit $got)"
	else
		echo "FAIL: $name: exit $got (want $want), stderr:" >&2
		sed 's/^/  /' "$tmp/err" >&2
		failures=$((failures + 1))
	fi
}

expect "no command" 2 'no command given' -- "$run" --kernel "$kernel"
expect "missing kernel" 125 'kernel /nonexistent/bzImage not found' -- \
	"$run" --kernel /nonexistent/bzImage -- true
expect "missing disk" 125 'workload disk /nonexistent.img not found' -- \
	"$run" --kernel "$kernel" --disk /nonexistent.img -- true
mkdir "$tmp/bin"
for c in dirname basename mktemp date mkdir cat rm sed grep; do
	ln -s "$(command -v "$c")" "$tmp/bin/$c"
done
expect "no qemu" 125 'qemu-system-x86_64 not found' -- env PATH="$tmp/bin" /bin/bash "$run" --kernel "$kernel" -- true

[[ -f $kernel ]] || { echo "FAIL: $kernel missing: run scripts/kernel-build" >&2; exit 1; }
expect "exit status comes back" 7 '' -- "$run" --kernel "$kernel" -- sh -c 'exit 7'
expect "stdout and results share under /tmp" 0 '' -- "$run" --kernel "$kernel" --results "$tmp/res" -- \
	sh -c "echo hello-from-guest; echo data >$tmp/res/file"
if ! grep -qx hello-from-guest "$tmp/out" || [[ $(cat "$tmp/res/file" 2>/dev/null) != data ]]; then
	echo "FAIL: guest stdout or results share lost" >&2
	failures=$((failures + 1))
fi
expect "hung guest" 124 'timed out after 20s' -- "$run" --kernel "$kernel" --timeout 20 \
	--log "$tmp/hung.log" -- sleep 1000
# Before it was killed, its CPUs were dumped: 3 samples of both, each a
# System.map symbol (an idle guest: both halted in the idle loop).
dumped=$(grep -Ec '^  CPU#[01] [A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+ CPL=0 irqs=(on|off) halted=[01]$' \
	"$tmp/hung.log.cpus" 2>/dev/null || true)
if [[ $dumped != 6 ]]; then
	echo "FAIL: hung guest: want 6 CPU lines with symbols in hung.log.cpus, got ${dumped:-none}:" >&2
	sed 's/^/  /' "$tmp/hung.log.cpus" >&2 2>/dev/null || true
	failures=$((failures + 1))
fi
# A boot that never starts the command (here init is sleep) is retried once,
# then reported; both hung consoles are kept.
expect "boot hang" 124 'hung while booting, 2 times' -- "$run" --kernel "$kernel" \
	--boot-timeout 10 --log "$tmp/boot.log" --append "init=/usr/bin/sleep -- 1000" -- true
if ! grep -q 'booting again' "$tmp/err" || [[ ! -s $tmp/boot.log.hung-1 || ! -s $tmp/boot.log.hung-2 ]]; then
	echo "FAIL: boot hang: no retry warning or hung logs not kept" >&2
	failures=$((failures + 1))
fi
expect "kernel warning" 123 'WARNING: CPU: .* lkdtm' -- "$run" --kernel "$kernel" -- \
	sh -c 'echo WARNING >/sys/kernel/debug/provoke-crash/DIRECT'
expect "kernel panic" 123 'kernel splat' -- "$run" --kernel "$kernel" -- \
	sh -c 'echo c >/proc/sysrq-trigger'

((failures == 0)) || { echo "$failures guest-run fault cases failed" >&2; exit 1; }
echo "all guest-run fault cases behave"

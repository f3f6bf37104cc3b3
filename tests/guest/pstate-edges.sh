#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In the guest: the emulated P-states at their edges. Everything that
# changes a P-state runs on cpu1 (taskset), so that on cpu0 only the loop
# being measured runs (when debt measures cpu1, the script only waits for
# the loop's output meanwhile).
#
#  debt     a CPU runs a CPU-bound loop for 1 s at 800 MHz, then goes to
#           2000 MHz and runs it 0.5 s more; the control does the same with
#           its first second at 2000 MHz already. Spin time owed at 800 MHz
#           must not slow the new P-state: the median over 8 tries (cpu0 and
#           cpu1 in turn, the other CPU idle) of the 0.5 s window's
#           throughput over the control's must be within TOLERANCE percent
#           of 1. The CPU runs alone and is compared with itself seconds
#           apart, because two vCPUs busy at once share the host's two
#           cores with QEMU's own threads: their ratio over 0.5 s spread
#           0.93-1.13 at the same P-state, and host load pushed a throttled
#           CPU 9% above f/fmax on all three tries of one CI run. Alone, a
#           throttled CPU's 0.5 s windows still spread 0.73-0.94 of fmax
#           (median 0.80 where f/fmax is 0.83), after 800 MHz or not: the
#           tolerance must be wider than for calibrate.sh's long runs. The
#           driver this replaced carried up to 64 ms of debt into the new
#           P-state, 15% of the window.
#  share    two CPU-bound loops share cpu0 for 3 s, at fmin and at fmax,
#           three times in turn: at fmin they must do fmin/fmax of what
#           they do at fmax (within SHARE_TOL, 25%, the medians; two
#           vCPUs' worth of work drifts with the host), and neither may get
#           less than half of the other's (the median of its runs). A
#           payer that paid the debt of the loop preempting it never
#           finished at fmin, while the other ran unthrottled: 0.5 of the
#           fmax work, one loop near 0.
#  ipi      a burst of P-state changes of an idle CPU's policy costs it no
#           interrupt from the driver: emu_kick() (kprobe) runs there for
#           at most one change in 4, and finds it idle for at most one in 8
#           (the driver kicks only a CPU that runs something, but under TCG
#           a kworker's run can end before its IPI lands; the old driver
#           kicked on all 200). IWI and CAL of /proc/interrupts are printed
#           beside a burst of writes that change nothing.
#  hotplug  (shared policy only) cpu1 goes offline at 800 MHz, the policy
#           goes to 2000 MHz, cpu1 comes back: it must run at 2000 MHz from
#           then on. cpu1's speed over cpu0's, the median of three 1 s
#           pairs taken at once, must be nearer 1 than 0.4, what it is if
#           cpu1 kept 800 MHz (the bug this catches): at least 0.7. Not a
#           calibration: the pair is unswapped and the host's noise
#           reaches the ratio (one pair spread 0.75-1.06 on a quiet host,
#           0.75-2.3 on a noisy one), mostly upwards: in a CI run of
#           2026-12-07, with QEMU's main loop thread busy on one of the
#           two host cores, medians of 1.12 and 1.32 (pairs 0.90-1.59),
#           so the side of 1.2 (cpu1 unthrottled, a calibration error)
#           is printed, not judged.
#
# Usage: pstate-edges.sh [TOLERANCE_PCT]
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

tol=${1:-10}
loop=${IFM_BIN_DIR:?IFM_BIN_DIR must name the folder with cpuloop}/cpuloop
[[ -x $loop ]] || fail "$loop not built"
fmax=$(cpufreq 0 cpuinfo_max_freq)
fmin=$(cpufreq 0 cpuinfo_min_freq)
f2=2000000
shared=0
[[ $(xargs </sys/devices/system/cpu/cpufreq/policy0/related_cpus) == "0 1" ]] && shared=1
# Everything but the measured loops runs on cpu1.
taskset -pc 1 $$ >/dev/null

# loops CPUS SECONDS: "loops/s of the first CPU / loops/s of the second"
loops() {
	"$loop" -c "$1" -t "$2" | awk -v a="${1%,*}" -v b="${1#*,}" '
		{ split($1, c, "="); split($2, l, "="); v[c[2]] = l[2] }
		END { if (!(a in v) || !(b in v) || v[b] <= 0) exit 1; printf "%.6f", v[a] / v[b] }'
}

# within GOT WANT: true if GOT is within tol percent of WANT; prints the error.
within() {
	awk -v g="$1" -v w="$2" -v t="$tol" 'BEGIN {
		e = (g / w - 1) * 100; printf "%+.2f%%", e; exit !(e <= t && e >= -t) }'
}

# window CPU KHZ: CPU runs the loop 1 s at KHZ, then 0.5 s at $f2; prints
# the loops per second of the 0.5 s.
window() {
	set_freq "$1" "$2"
	"$loop" -c "$1" -t 1 >/dev/null
	set_freq "$1" "$f2"
	"$loop" -c "$1" -t 0.5 | awk '{ split($2, l, "="); v = l[2] } END { if (v <= 0) exit 1; print v }'
}

if ((!shared)); then
	# --- debt ------------------------------------------------------------
	set_freq 0 "$fmax"
	set_freq 1 "$fmax"
	declare -a r=()
	for i in 1 2 3 4 5 6 7 8; do
		a=$(window $((i % 2)) "$fmin") || fail "cpuloop failed"
		c=$(window $((i % 2)) "$f2") || fail "cpuloop failed"
		r+=("$(awk -v a="$a" -v c="$c" 'BEGIN { printf "%.4f", a / c }')")
		set_freq $((i % 2)) "$fmax"
	done
	m=$(printf '%s\n' "${r[@]}" | sort -n | awk '{ v[NR] = $1 } END { printf "%.4f", (v[4] + v[5]) / 2 }')
	echo "# debt: the first 0.5 s at $f2 kHz after 1 s at $fmin kHz, over the same after 1 s at $f2 kHz: ${r[*]} (median $m)"
	err=$(within "$m" 1) || fail "debt: the first 0.5 s after $fmin -> $f2 kHz ran at $m of the speed without debt ($err)"
	pass "debt: the first 0.5 s after $fmin -> $f2 kHz ran at $m of the speed without debt ($err)"
fi

if ((!shared)); then
	# --- share -----------------------------------------------------------
	share_tol=25
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	# pair KHZ: "SUM MIN/MAX" of the loops/s of two loops on cpu0 at once
	pair() {
		set_freq 0 "$1"
		local a b
		"$loop" -c 0 -t 3 >"$tmp/a" &
		a=$!
		"$loop" -c 0 -t 3 >"$tmp/b" &
		b=$!
		wait "$a" && wait "$b" || return 1
		cat "$tmp/a" "$tmp/b" | awk '{ split($2, l, "="); v[NR] = l[2] }
			END { if (NR != 2 || v[1] <= 0 || v[2] <= 0) exit 1
				lo = v[1] < v[2] ? v[1] : v[2]; hi = v[1] + v[2] - lo
				printf "%.0f %.4f\n", v[1] + v[2], lo / hi }'
	}
	declare -a slow=() fast=() fair=()
	for i in 1 2 3; do
		res=$(pair "$fmin") || fail "share: cpuloop failed"
		read -r sum f <<<"$res"
		slow+=("$sum")
		fair+=("$f")
		res=$(pair "$fmax") || fail "share: cpuloop failed"
		read -r sum f <<<"$res"
		fast+=("$sum")
	done
	med() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
	got=$(awk -v s="$(med "${slow[@]}")" -v f="$(med "${fast[@]}")" 'BEGIN { printf "%.4f", s / f }')
	want=$(awk -v a="$fmin" -v m="$fmax" 'BEGIN { printf "%.4f", a / m }')
	fr=$(med "${fair[@]}")
	echo "# share: two loops on cpu0, loops/s summed at $fmin kHz ${slow[*]}, at $fmax kHz ${fast[*]}; the slower over the faster at $fmin kHz ${fair[*]}"
	err=$(tol=$share_tol within "$got" "$want") ||
		fail "share: two loops on cpu0 at $fmin kHz did $got of their work at $fmax kHz, want $want ($err)"
	awk -v r="$fr" 'BEGIN { exit !(r >= 0.5) }' ||
		fail "share: at $fmin kHz one of two loops on cpu0 got $fr of the other's speed (one pays for both)"
	pass "share: two loops on cpu0 at $fmin kHz did $got of their work at $fmax kHz ($err of $want), the slower at $fr of the faster"
fi

# --- ipi ----------------------------------------------------------------
# The idle CPU is cpu0 (this script runs on cpu1). Per-CPU policies: cpu0's
# own policy changes; shared: the one policy does. The driver's P-state
# kicks that run on cpu0 are counted exactly with a kprobe on emu_kick(),
# which records the task the kick interrupted: the driver kicks a CPU that
# runs something (a kworker, RCU, the sysfs write's own work), which is
# right, so only the kicks that found cpu0 idle (swapper/0) are judged;
# cpu0's IRQ work and function call interrupts (IWI, CAL in
# /proc/interrupts) are printed beside those of as many writes that change
# nothing (sysfs and RCU send some of their own).
ipis() { awk '$1 == "IWI:" || $1 == "CAL:" { n += $2 } END { print n }' /proc/interrupts; }
burst() { # burst N F1 F2: N writes of cpu0's scaling_setspeed, alternating
	local i
	for ((i = 0; i < $1; i++)); do
		if ((i % 2)); then echo "$2"; else echo "$3"; fi >/sys/devices/system/cpu/cpu0/cpufreq/scaling_setspeed
	done
}
tr=/sys/kernel/tracing
[[ -d $tr/events ]] || fail "no tracefs at $tr"
# shellcheck disable=SC2016 # $comm is the kprobe's fetch argument
echo 'p:ifm_emu_kick emu_kick comm=$comm' >>"$tr/kprobe_events" || fail "cannot put a kprobe on emu_kick"
echo 1 >"$tr/events/kprobes/ifm_emu_kick/enable"
set_freq 0 "$fmax"
n=200
echo >"$tr/trace"
echo 1 >"$tr/tracing_on"
a=$(ipis)
burst $n "$fmax" "$fmax"
b=$(ipis)
burst $n "$fmin" "$f2"
c=$(ipis)
echo 0 >"$tr/tracing_on"
kicks=$(grep -c 'ifm_emu_kick:' "$tr/per_cpu/cpu0/trace" || true)
idle_kicks=$(grep -c 'ifm_emu_kick:.*comm="swapper/0"' "$tr/per_cpu/cpu0/trace" || true)
echo 0 >"$tr/events/kprobes/ifm_emu_kick/enable"
echo '-:ifm_emu_kick' >>"$tr/kprobe_events"
echo "# ipi: idle cpu0, $n writes that change nothing: $((b - a)) IWI+CAL; $n P-state changes: $((c - b)) IWI+CAL, $kicks P-state kicks, $idle_kicks of them found cpu0 idle"
((kicks <= n / 4)) || fail "ipi: the driver kicked cpu0 $kicks times for $n P-state changes of its idle policy"
((idle_kicks <= n / 8)) || fail "ipi: idle cpu0 was interrupted $idle_kicks times by the driver for $n P-state changes"
pass "ipi: idle cpu0 was interrupted $idle_kicks times by the driver for $n P-state changes ($kicks kicks in all)"

# --- hotplug (shared policy) ------------------------------------------------
if ((shared)); then
	taskset -pc 0 $$ >/dev/null
	set_freq 0 "$fmin"
	"$loop" -c 1 -t 1 >/dev/null
	echo 0 >/sys/devices/system/cpu/cpu1/online
	echo "$f2" >/sys/devices/system/cpu/cpu0/cpufreq/scaling_setspeed
	echo 1 >/sys/devices/system/cpu/cpu1/online
	[[ $(cpufreq 0 scaling_cur_freq) == "$f2" ]] || fail "hotplug: policy at $(cpufreq 0 scaling_cur_freq) kHz, want $f2"
	declare -a h=()
	for i in 1 2 3; do
		r1=$(loops 1,0 1) || fail "cpuloop failed"
		h+=("$r1")
	done
	hr=$(printf '%s\n' "${h[@]}" | sort -n | sed -n 2p)
	echo "# hotplug: cpu1 / cpu0 in the 3 s after cpu1 came back: ${h[*]} (median $hr)"
	lo=$(awk -v a="$fmin" -v f="$f2" 'BEGIN { printf "%.4f", (a / f + 1) / 2 }')
	awk -v r="$hr" -v lo="$lo" 'BEGIN { exit !(r >= lo) }' ||
		fail "hotplug: cpu1 back online runs at $hr of cpu0's speed, below $lo: not at the policy's P-state"
	pass "hotplug: cpu1 back online runs at $hr of cpu0's speed (at least $lo), at the policy's $f2 kHz"
fi

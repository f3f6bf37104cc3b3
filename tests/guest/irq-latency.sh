#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In the guest: the emulated P-states must not hold interrupts off.
#
# cyclictest (rt-tests) measures the wake-up latency of a SCHED_FIFO thread
# on cpu0 at every P-state (userspace governor), first beside a CPU-bound
# loop on cpu0, then with cpu0 otherwise idle:
#   cyclictest -m -p 95 -a 0 -t 1 -i 1000 -D SECONDS/4 -q -h 30000
# A real CPU at a low P-state services an interrupt and wakes a real-time
# task in microseconds; so must an emulated one. The average at every
# P-state must be within FACTOR (default 1.5) times that at the top P-state,
# plus SLACK_US (default 30) for the noise of a TCG guest whose values are a
# few tens of microseconds. The 99th percentile is judged beside the busy
# loop only, where the driver throttles, within 2.5 times the top
# P-state's plus 100 us: it is the host's scheduling as much as the
# guest's (a CI run of 2026-12-07 had 800 MHz at 2.3x, 2317 against 1008
# us, while the idle p99 spread 400-1108 us in no order of P-state), and
# the driver this replaced was at 2.9 times the top P-state's p99 at 800
# MHz (2.3 at 1200), its average at 8.8 times. With cpu0 idle the driver parks its timer, and an idle p99
# is printed, not judged. The maximum is the host's (milliseconds at every
# P-state), printed, never judged.
#
# Each P-state's SECONDS (default 8) are taken in 4 slices, round-robin over
# the P-states, and its slices' histograms are added up: the host's noise
# moves the latency of whole seconds at a time, and P-states measured one
# after the other took it as their own (one CI run measured the idle top
# P-state at 123 us avg while the four others, in no order, were at
# 190-225 us; another, the top P-state's busy p99 at 1.2 ms where the next
# run had 0.8-1.7 ms and 800 MHz 2.0-2.9 ms).
#
# Usage: irq-latency.sh [SECONDS [FACTOR [SLACK_US]]]
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

secs=${1:-8}
factor=${2:-1.5}
slack=${3:-30}
loop=${IFM_BIN_DIR:?IFM_BIN_DIR must name the folder with cpuloop}/cpuloop
[[ -x $loop ]] || fail "$loop not built"
command -v cyclictest >/dev/null || fail "cyclictest not found (Debian package rt-tests)"
fmax=$(cpufreq 0 cpuinfo_max_freq)
read -ra freqs <<<"$(cpufreq 0 scaling_available_frequencies)"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

slices=4
if ! [[ $secs =~ ^[0-9]+$ ]] || ((secs < slices || secs % slices)); then
	fail "SECONDS must be a multiple of $slices"
fi
slice=$((secs / slices))

# slice KHZ FILE: a slice of cyclictest at KHZ, its histogram added to FILE.
slice() {
	set_freq 0 "$1"
	cyclictest -m -p 95 -a 0 -t 1 -i 1000 -D "$slice" -q -h 30000 >>"$2" 2>"$out/err" ||
		fail "cyclictest failed: $(cat "$out/err")"
}

# summary FILE: "avg p99 max" in microseconds of the slices in FILE.
summary() {
	awk '
		/^[0-9]+ [0-9]+$/ { n[$1 + 0] += $2; c += $2; next }
		/^# Avg Latencies:/ { a = $4 + 0; next }
		/^# Max Latencies:/ { if ($4 + 0 > max) max = $4 + 0; next }
		# the last summary line of a slice: weigh its average by its samples
		/^# Histogram Overflows:/ { o = $4 + 0; n[30000] += o; c += o
			sum += a * c; total += c; c = 0 }
		END {
			if (!total) exit 1
			want = total * 0.99; s = 0; p99 = 30000
			for (i = 0; i <= 30000; i++) { s += n[i]; if (s >= want) { p99 = i; break } }
			printf "%d %d %d\n", sum / total, p99, max
		}' "$1"
}

set_freq 1 "$fmax"
bad=0
for hog in busy idle; do
	declare -A avg=() p99=() max=()
	pid=''
	if [[ $hog == busy ]]; then
		"$loop" -c 0 -t 3600 >/dev/null &
		pid=$!
		sleep 1
	fi
	for ((i = 0; i < slices; i++)); do
		for f in "${freqs[@]}"; do
			slice "$f" "$out/$hog.$f"
		done
	done
	if [[ -n $pid ]]; then
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	for f in "${freqs[@]}"; do
		summary "$out/$hog.$f" >"$out/res" || fail "no cyclictest samples at $f kHz ($hog)"
		read -r "avg[$f]" "p99[$f]" "max[$f]" <"$out/res"
	done
	judge_p99=0
	[[ $hog == busy ]] && judge_p99=1
	echo "# cpu0 $hog: P-state_kHz avg_us p99_us max_us (limit: avg ${factor}x the top P-state + ${slack} us$( ((judge_p99)) && echo ", p99 2.5x + 100 us"))"
	for f in "${freqs[@]}"; do
		verdict=$(awk -v a="${avg[$f]}" -v p="${p99[$f]}" -v a0="${avg[$fmax]}" -v p0="${p99[$fmax]}" \
			-v k="$factor" -v s="$slack" -v jp="$judge_p99" 'BEGIN {
				r = ""
				if (a > k * a0 + s) r = r " avg"
				if (jp && p > 2.5 * p0 + 100) r = r " p99"
				print (r == "") ? "ok" : "TOO SLOW:" r
			}')
		printf '%-10s %6d %6d %6d  %s\n' "$f" "${avg[$f]}" "${p99[$f]}" "${max[$f]}" "$verdict"
		[[ $verdict == ok ]] || bad=$((bad + 1))
	done
	unset avg p99 max
done
((bad == 0)) || fail "$bad P-states add to the wake-up latency of a real-time task"
pass "a real-time task wakes as fast at every P-state as at the top one (avg within ${factor}x + ${slack} us, p99 beside the loop within 2.5x + 100 us)"

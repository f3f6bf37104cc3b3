#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In the guest: calibrate the emulated P-states (per-CPU policies).
#
# TCG's speed drifts by tens of percent from one run to the next, so P-states
# are never timed one after another. Instead the same CPU-bound loop runs on
# both vCPUs at once, one at the top P-state and one at f, and then again
# with the CPUs swapped; the geometric mean of the two slow/fast ratios
# cancels both the drift and any difference between the vCPUs. Each P-state
# is measured in ROUNDS such pairs (default 3), rounds of all P-states
# interleaved, and the median kept, so one disturbed run (the host
# descheduling a vCPU) does not decide. It must be within TOLERANCE percent
# (default 5) of f/fmax at every P-state.
#
# Then an idle CPU must not be slowed: the median wake-up latency of a timer
# on an otherwise idle CPU is the same at the lowest and the top P-state.
# The timer fires every WAKE_PERIOD_US (default 1000) for 3 s; 0 skips the
# check. It is meaningful only where a wake-up's own task time (return
# from clock_nanosleep, clock_gettime) is small: that part runs at the
# P-state's speed, as it would on real hardware. On the debug kernel it is
# about 0.5 ms, so at 800 MHz the wake-up latency rises with it (1 ms
# wake-ups even fall behind: 58 ms p50; 20 ms ones: 1.25 vs 0.77 ms).
#
# Usage: calibrate.sh [SECONDS_PER_RUN [TOLERANCE_PCT [ROUNDS [WAKE_PERIOD_US]]]]
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

secs=${1:-3}
tol=${2:-5}
rounds=${3:-3}
wake_us=${4:-1000}
loop=${IFM_BIN_DIR:?IFM_BIN_DIR must name the folder with cpuloop}/cpuloop
[[ -x $loop ]] || fail "$loop not built"
fmax=$(cpufreq 0 cpuinfo_max_freq)
read -ra freqs <<<"$(cpufreq 0 scaling_available_frequencies)"

# ratio SLOWCPU FASTCPU KHZ: loops/s of SLOWCPU at KHZ over FASTCPU at fmax
ratio() {
	set_freq "$2" "$fmax"
	set_freq "$1" "$3"
	"$loop" -c 0,1 -t "$secs" | awk -v s="$1" -v f="$2" '
		{ split($1, c, "="); split($2, l, "="); v[c[2]] = l[2] }
		END { if (!(s in v) || !(f in v) || v[f] <= 0) exit 1; printf "%.6f", v[s] / v[f] }'
}

# Rounds over all P-states, so a slow phase of the host spreads over all.
declare -A pairs
for ((i = 0; i < rounds; i++)); do
	for f in "${freqs[@]}"; do
		r1=$(ratio 1 0 "$f") || fail "cpuloop failed"
		r2=$(ratio 0 1 "$f") || fail "cpuloop failed"
		pairs[$f]+="$r1,$r2 "
	done
done

echo "# P-state_kHz  expected  measured  error_pct  (sqrt(cpu1/cpu0 * cpu0/cpu1) of each round; median kept)"
bad=0
for f in "${freqs[@]}"; do
	line=$(awk -v f="$f" -v fmax="$fmax" -v pairs="${pairs[$f]}" -v tol="$tol" 'BEGIN {
		n = split(pairs, p, " ")
		for (i = 1; i <= n; i++) { split(p[i], ab, ","); g[i] = sqrt(ab[1] * ab[2]) }
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (g[j] < g[i]) { t = g[i]; g[i] = g[j]; g[j] = t }
		m = (n % 2) ? g[(n + 1) / 2] : (g[n / 2] + g[n / 2 + 1]) / 2
		want = f / fmax; err = (m / want - 1) * 100
		all = ""; for (i = 1; i <= n; i++) all = all sprintf("%s%.4f", i > 1 ? " " : "", g[i])
		printf "%-12d  %.4f    %.4f    %+6.2f     (%s)%s", f, want, m, err, all,
			(err > tol || err < -tol) ? "  OUT OF TOLERANCE" : ""
	}')
	echo "$line"
	[[ $line == *"OUT OF TOLERANCE"* ]] && bad=$((bad + 1))
done
((bad == 0)) || fail "$bad P-states out of +-$tol%"
pass "every P-state within +-$tol% of f/fmax"

if ((wake_us == 0)); then
	echo "# idle-CPU wake-up check skipped (WAKE_PERIOD_US=0)"
	exit 0
fi
wakeups=$((3000000 / wake_us))
((wakeups >= 100)) || wakeups=100

# Timer wake-ups on an idle CPU: three interleaved rounds at fmin and fmax.
fmin=${freqs[0]}
p50() {
	set_freq 1 "$1"
	"$loop" --wakeup -c 1 -n "$wakeups" -p "$wake_us" | sed -n 's/.*p50_us=\([0-9.]*\).*/\1/p'
}
lo=() hi=()
for _ in 1 2 3; do
	lo+=("$(p50 "$fmin")")
	hi+=("$(p50 "$fmax")")
done
verdict=$(printf '%s %s %s\n%s %s %s\n' "${lo[@]}" "${hi[@]}" | awk '
	function med(a, b, c) { return a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b)) }
	NR == 1 { lo = med($1, $2, $3) } NR == 2 { hi = med($1, $2, $3) }
	END { printf "%.1f %.1f %s", lo, hi, (lo <= hi * 1.25 + 20) ? "same" : "slower" }')
read -r lo_med hi_med same <<<"$verdict"
echo "# idle-CPU timer wake-up latency, median of 3 x p50 of $wakeups wake-ups every $wake_us us: ${lo_med} us at $fmin kHz, ${hi_med} us at $fmax kHz"
[[ $same == same ]] || fail "a timer wake-up on an idle CPU is slower at the lowest P-state (${lo_med} us vs ${hi_med} us)"
pass "an idle CPU is not slowed by a low P-state"

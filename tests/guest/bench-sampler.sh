#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In the guest: what iowait-freqmon costs, side by side in one run (ctest
# label "bench": it reports, it does not judge; the host is noisy).
#  1. bench-sampler: per-sample cost against bare preads, libcpupower vs a
#     kept sysfs fd, 2 kHz with and without SCHED_FIFO.
#  2. the highest rate the sampler sustains: 500 Hz up to 8 kHz for
#     SECONDS each, missed deadlines and the sampler's CPU share; the
#     highest rate with < 1% missed is reported.
#  3. the slowdown of a CPU-bound loop on CPU 0 while the sampler runs
#     pinned on CPU 1 at 1 kHz: PAIRS pairs of runs, without and with the
#     sampler back to back (order alternating), median of the pair ratios.
#
# Usage: bench-sampler.sh [SECONDS [PAIRS]]
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

secs=${1:-3}
pairs=${2:-7}
bin=${IFM_BIN_DIR:?IFM_BIN_DIR must name the folder with the tools}
for p in iowait-freqmon bench-sampler cpuloop; do
	[[ -x $bin/$p ]] || fail "$bin/$p not built"
done
cpupower -c all frequency-set -g performance >/dev/null || fail "cpupower: performance governor"

echo "## 1. bench-sampler"
"$bin/bench-sampler"

echo "## 2. sustained rate, $secs s each, sampler pinned to CPU 1 (SCHED_OTHER)"
best=0
for rate in 500 1000 2000 4000 8000; do
	"$bin/iowait-freqmon" -p 1 -r "$rate" -d "$secs" -q -s /tmp/sum >/dev/null ||
		fail "iowait-freqmon at $rate Hz failed"
	missed=$(sed -n 's/^missed deadlines: [0-9]* (\([0-9.]*\)%).*/\1/p' /tmp/sum)
	share=$(sed -n 's/^sampler CPU: \([0-9.]*\)% of one CPU (sampler thread).*/\1/p' /tmp/sum)
	[[ -n $missed && -n $share ]] || fail "cannot parse the summary at $rate Hz"
	echo "rate_hz=$rate missed_pct=$missed sampler_cpu_pct=$share"
	awk -v m="$missed" 'BEGIN { exit !(m < 1.0) }' && best=$rate
done
echo "highest sustained rate (< 1% missed): ${best} Hz"

echo "## 3. CPU-bound loop on CPU 0, $pairs pairs of $secs s, sampler at 1 kHz on CPU 1"
ratios=()
loops() { "$bin/cpuloop" -c 0 -t "$secs" | sed -n 's/.*loops_per_s=//p'; }
with_sampler() {
	"$bin/iowait-freqmon" -p 1 -r 1000 -q -s /dev/null &
	local pid=$!
	sleep 0.2
	loops
	kill -INT "$pid"
	wait "$pid" || true
}
for ((i = 0; i < pairs; i++)); do
	if ((i % 2)); then
		w=$(with_sampler) b=$(loops)
	else
		b=$(loops) w=$(with_sampler)
	fi
	r=$(awk -v b="$b" -v w="$w" 'BEGIN { printf "%.4f", (b / w - 1) * 100 }')
	echo "pair=$i bare_loops_per_s=$b sampled_loops_per_s=$w slowdown_pct=$r"
	ratios+=("$r")
done
med=$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
echo "median slowdown with the sampler at 1 kHz on the other CPU: ${med}% (goal <= 2%)"
pass "sampler benchmark done"

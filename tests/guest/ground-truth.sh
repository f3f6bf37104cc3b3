#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In the guest: the sampler against the kernel's own event trace. One run of
# io-alternate pinned to cpu0 (O_DIRECT reads of a throttled disk, then
# BURST_MS of computing, for SECONDS) under ondemand (this kernel's default
# io_is_busy), sampled by iowait-freqmon at RATE Hz on cpu1 and recorded at
# the same time by
#   perf record -k CLOCK_MONOTONIC -a $(scripts/trace-timeline --record-events)
# (cpu_idle, cpu_frequency, sched, sched_stat_iowait, block, the interrupt
# handlers' irq and irq_vectors events, and the kprobes of
# trace-timeline --add-probes on tick_irq_enter(), tick_nohz_irq_exit(),
# tick_nohz_idle_enter() and tick_nohz_idle_exit()) with
# kernel.sched_schedstats=1. scripts/trace-timeline --align cuts the trace
# like the sampler's rows, once with the kernel's own idle bounds (the
# tick_nohz_idle_* probes: what the sampler's source, the kernel's
# accounting, counts as idle) and once with cpu_idle's (perf timechart's
# view, printed for information); `trace-timeline compare` gives the errors.
#
# Fails when cpu0's sampled busy or iowait share, or the share of its busy
# time at any P-state (time in state), is off the trace's at the kernel's
# idle bounds by more than MAX_PP percentage points, or its mean busy MHz by
# more than MAX_PP percent, when the trace's iowait is an approximation (no
# sched_stat_iowait), or when the run did not alternate (the trace's iowait
# share of cpu0 below 0.05: nothing was measured). Prints the whole
# comparison (per P-state, cpu1 = the sampler's own CPU) for both views.
#
# Usage: ground-truth.sh DISK [SECONDS [BURST_MS [MAX_PP [RATE]]]]
#        (DISK: e.g. /dev/vda; defaults 5 s, 2 ms, 1.0 pp, 1000 Hz)
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${IFM_BIN_DIR:?IFM_BIN_DIR must name the folder with iowait-freqmon}
disk=${1:?usage: ground-truth.sh DISK [SECONDS [BURST_MS [MAX_PP [RATE]]]]}
secs=${2:-5}
burst_ms=${3:-2}
max_pp=${4:-1.0}
rate=${5:-1000}
tl=$top/scripts/trace-timeline
[[ -x $bin/iowait-freqmon && -x $bin/io-alternate && -x $bin/cpuloop ]] ||
	fail "iowait-freqmon, io-alternate or cpuloop not built in $bin"
[[ -b $disk ]] || fail "$disk is not a block device"
command -v perf >/dev/null || fail "perf not found (Debian package linux-perf)"
command -v python3 >/dev/null || fail "python3 not found"
[[ -f $tl ]] || fail "$tl missing"
[[ $max_pp =~ ^[0-9]+([.][0-9]+)?$ ]] || fail "MAX_PP must be a number of percentage points, not '$max_pp'"
out=$(mktemp -d)

# The burst: cpuloop's loops per second at the top P-state give work chunks per ms.
cal=$(burst_calibrate "$bin" "$burst_ms")
read -r lps chunks <<<"$cal"
echo "calibration: $lps loops/s at the top P-state, a burst of $burst_ms ms is $chunks chunks"

cpupower -c all frequency-set -g ondemand >/dev/null || fail "cannot switch to ondemand"
echo "ondemand io_is_busy=$(cat /sys/devices/system/cpu/cpufreq/ondemand/io_is_busy 2>/dev/null || echo absent)"
ss=$(sysctl -n kernel.sched_schedstats) || fail "no kernel.sched_schedstats (CONFIG_SCHEDSTATS)"
trap 'sysctl -q -w kernel.sched_schedstats="$ss" || true' EXIT
sysctl -q -w kernel.sched_schedstats=1
sleep 1
python3 "$tl" --add-probes || fail "trace-timeline --add-probes failed"
mapfile -t events < <(python3 "$tl" --record-events) || fail "trace-timeline --record-events failed"

# perf record must not write to a pipe or to the 9p share (mmap): $out is tmpfs.
(cd "$out" && perf record -k CLOCK_MONOTONIC -a --no-buildid -m 1024 -o "$out/perf.data" \
	"${events[@]}" -- \
	"$bin/iowait-freqmon" -p 1 -r "$rate" -o "$out/run.tsv" -s "$out/run.summary" -- \
	"$bin/io-alternate" -c 0 -t "$secs" -w "$chunks" "$disk" >"$out/ops" 2>"$out/perf.log") ||
	fail "perf record / iowait-freqmon / io-alternate failed: $(tail -n 3 "$out/perf.log")"
[[ -s $out/perf.data && -s $out/run.tsv ]] || fail "no perf.data or sampler TSV"
echo "io-alternate: $(cat "$out/ops")"
! grep -i '\blost\b' "$out/perf.log" || fail "perf lost events: the trace is incomplete"

for bounds in cpu_idle kernel; do
	echo "== the trace with --idle-bounds $bounds"
	python3 "$tl" --align "$out/run.tsv" --idle-bounds "$bounds" --totals "$out/trace-$bounds.json" \
		-o "$out/trace-$bounds.tsv" "$out/perf.data" ||
		fail "trace-timeline --idle-bounds $bounds failed on the recorded run"
	python3 "$tl" compare "$out/run.tsv" "$out/trace-$bounds.json" || fail "trace-timeline compare failed"
	python3 "$tl" compare --json --cpu 0 "$out/run.tsv" "$out/trace-$bounds.json" >"$out/cmp-$bounds.json" ||
		fail "trace-timeline compare --json failed"
done

python3 - "$out/cmp-kernel.json" "$out/trace-kernel.json" "$max_pp" "$out/cmp-cpu_idle.json" <<'PY' ||
import json, sys
cmp = json.load(open(sys.argv[1]))["0"]
totals = json.load(open(sys.argv[2]))
limit = float(sys.argv[3])
view = json.load(open(sys.argv[4]))["0"]


def signed(v):
    return "n/a" if v is None else f"{v:+.3f}"


bad = []
if totals["iowait_source"] != "schedstat":
    bad.append("the trace has no sched:sched_stat_iowait: its iowait is an approximation")
traced_iowait = cmp["iowait_share"][1]
if traced_iowait is None or traced_iowait < 0.05:
    bad.append(f"cpu0's traced iowait share is {traced_iowait}: the run did not alternate")
for key, unit in (("err_busy_pp", "pp"), ("err_iowait_pp", "pp"), ("err_tis_pp_max", "pp"),
                  ("err_mean_busy_mhz_pct", "%")):
    v = cmp[key]
    ok = v is not None and abs(v) <= limit
    print(f"{'ok' if ok else 'FAIL'}: cpu0 {key} {signed(v)}"
          f" (limit {limit} {unit}, the kernel's idle bounds)")
    if not ok:
        bad.append(key)
print(f"info: cpu0 anomalies {totals['anomalies']}")
print(f"info: at cpu_idle's bounds (perf timechart's view) cpu0 err_busy_pp"
      f" {signed(view['err_busy_pp'])}, err_iowait_pp {signed(view['err_iowait_pp'])}")
for b in bad:
    print(f"FAIL: {b}", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
	fail "the sampler is off the trace (above)"
pass "cpu0's sampled busy, iowait and time in state within $max_pp pp, mean busy MHz within $max_pp% of the trace at the kernel's idle bounds"
rm -rf "$out"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs of the whole iowait-freqmon binary against the fixtures.
# Usage: cli-test.sh BINARY FIXTURES CASE   (CASE: see the case list below)
# Exit 0 pass, 1 fail, 77 skipped (ctest SKIP_RETURN_CODE).
set -uo pipefail

bin=$1
fix=$2
case_name=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ifm-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0

fail() {
	printf 'FAIL: %s\n' "$*" >&2
	failed=1
}

# expect_status WANT CMD...: run CMD, stdout to $tmp/out, stderr to $tmp/err
expect_status() {
	local want=$1 got
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [[ $got != "$want" ]]; then
		fail "exit status $got, want $want: $*"
		sed 's/^/  stderr: /' "$tmp/err" >&2
	fi
}

expect_grep() {	# expect_grep FILE REGEX
	grep -Eq -- "$2" "$1" || fail "$1 lacks /$2/"
}

# data rows of a TSV file (after the one column header line)
rows() {
	grep -v '^#' "$1" | tail -n +2
}

json() {	# json FILE PYTHON-EXPRESSION-ON-d: prints the result
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1" "${@:3}"
}


# make_root DIR NCPUS NSNAP STEP: a replay root (timer_list.K, stat) with
# NSNAP snapshots 5 ms apart of CPUs 0, STEP, 2*STEP, ... below NCPUS
# (possible: 0-NCPUS-1), each CPU a quarter busy: every sample is valid.
make_root() {
	python3 - "$@" <<-'EOF'
		import os, sys
		d, ncpus, nsnap, step = sys.argv[1], *map(int, sys.argv[2:5])
		os.makedirs(d + "/proc/sys/kernel", exist_ok=True)
		os.makedirs(d + "/sys/devices/system/cpu", exist_ok=True)
		open(d + "/proc/sys/kernel/osrelease", "w").write("6.1.0-lab-gen\n")
		open(d + "/sys/devices/system/cpu/possible", "w").write(
		    "0-%d\n" % (ncpus - 1))
		open(d + "/proc/stat", "w").write("".join(
		    "cpu%d 1 0 1 2 1 0 0 0 0 0\n" % c for c in range(0, ncpus, step)))
		for k in range(nsnap):
		    now = 100000000000 + k * 5000000
		    out = ["Timer List Version: v0.9", "now at %d nsecs" % now, ""]
		    for c in range(0, ncpus, step):
		        out += ["cpu: %d" % c, "  .tick_stopped   : 0",
		                "  .idle_entrytime : %d nsecs" % now,
		                "  .idle_exittime  : %d nsecs" % now,
		                "  .idle_sleeptime : %d nsecs" % (now // 2),
		                "  .iowait_sleeptime: %d nsecs" % (now // 4),
		                "jiffies: %d" % (4294917296 + k), ""]
		    with open("%s/proc/timer_list.%d" % (d, k), "w") as f:
		        f.write("\n".join(out) + "\n")
	EOF
}

# the "(whole process)" share of the summary, in percent
process_share() {
	sed -n 's/^sampler CPU: .*, \([0-9.]*\)% (whole process)$/\1/p' "$1"
}

static=$fix/linux-6.1-v0.9
stale=$fix/replay-stale

# ends_clean SIG: a replay at 200 Hz, in TSV and in JSON, gets SIG after
# 0.5 s: exit 0, at least 20 samples, every one of them in the output and
# the output complete (the summary line, the JSON closed).
ends_clean() {
	local fmt pid st n
	make_root "$tmp/r" 2 4000 1
	for fmt in tsv json; do
		"$bin" --root "$tmp/r" --replay -r 200 -f "$fmt" -o "$tmp/o.$fmt" 2>"$tmp/err" &
		pid=$!
		sleep 0.5
		kill -"$1" "$pid"
		wait "$pid"
		st=$?
		[[ $st == 0 ]] || fail "$fmt: exit status $st after SIG$1"
		n=$(sed -n 's/^summary: \([0-9]*\) samples.*/\1/p' "$tmp/err")
		[[ ${n:-0} -ge 20 ]] || fail "$fmt: only '$n' samples in 0.5 s at 200 Hz"
		if [[ $fmt == tsv ]]; then
			[[ $(rows "$tmp/o.tsv" | wc -l) == $((2 * n)) ]] ||
				fail "tsv: rows != 2 x $n samples"
			expect_grep "$tmp/o.tsv" "^# summary: $n samples"
		else
			[[ $(json "$tmp/o.json" 'len(d["samples"]), d["summary"]["samples"]') == "$((2 * n)) $n" ]] ||
				fail "json: samples"
		fi
	done
}

case $case_name in
help)
	expect_status 0 "$bin" --help
	for o in -r --rate -i --interval -d --duration -o --output -f --format \
		-c --cpus --root --replay -q --quiet -s --summary -p --pin \
		-P --priority --clock -m --mlock -b --buffer --no-stat --no-freq -h --help \
		-V --version; do
		grep -q -- "$o\b" "$tmp/out" || fail "--help does not mention $o"
	done
	expect_grep "$tmp/out" '^Usage: iowait-freqmon \[options\] \[--\] \[command'
	expect_grep "$tmp/out" 'Exit status: 0 success; 1 runtime error'
	expect_grep "$tmp/out" '127 if it was not found, 126'
	[[ ! -s $tmp/err ]] || fail "--help wrote to stderr"
	expect_status 0 "$bin" -V
	expect_grep "$tmp/out" '^iowait-freqmon [0-9]+\.[0-9]+\.[0-9]+$'
	;;
usage)
	while read -r args; do
		# shellcheck disable=SC2086 # word splitting wanted
		expect_status 2 "$bin" $args
		expect_grep "$tmp/err" '^iowait-freqmon: '
		expect_grep "$tmp/err" '^Usage: iowait-freqmon'
		[[ ! -s $tmp/out ]] || fail "usage error wrote to stdout: $args"
	done <<-EOF
		--bogus
		-x
		-r
		-r 0
		-r 20000
		-r abc
		-r 10 -i 5
		-i 0.01
		-f xml
		-d 0
		-d -1
		-c 5-1
		-c x
		-p x
		-b 3
		--replay
		--root $static -c 5
	EOF
	expect_grep "$tmp/err" 'CPU 5 does not exist \(possible CPUs: 0-1\)'
	;;
replay-stale | replay-live)
	dir=$fix/${case_name}
	expect_status 0 "$bin" --root "$dir" --replay -r 1000 -o "$tmp/o.tsv"
	rows "$tmp/o.tsv" | diff -u "$dir/expected.tsv" - >&2 ||
		fail "rows differ from $dir/expected.tsv"
	# exactly one column header, the contract, after the metadata
	[[ $(grep -vc '^#' "$tmp/o.tsv") == $(($(wc -l <"$dir/expected.tsv") + 1)) ]] ||
		fail "not exactly one header line"
	[[ $(grep -v '^#' "$tmp/o.tsv" | head -1) == \
		$'time_s\tcpu\tbusy\tidle\tiowait\tfreq_khz\tvalid\tseq\tfreq_start_khz\tstart_s' ]] ||
		fail "column header line"
	head -1 "$tmp/o.tsv" | grep -Eq '^# iowait-freqmon [0-9.]+$' || fail "first line"
	mode='stale-corrected'
	[[ $case_name == replay-live ]] && mode=live
	expect_grep "$tmp/o.tsv" "^# timer_list: v0.9 $mode\$"
	expect_grep "$tmp/o.tsv" '^# cpus: 0-1$'
	expect_grep "$tmp/o.tsv" '^# interval_us: 1000$'
	expect_grep "$tmp/o.tsv" '^# kernel: 6\.1\.0-lab-'
	expect_grep "$tmp/o.tsv" "^# command: .*iowait-freqmon --root $dir --replay -r 1000 -o "
	expect_grep "$tmp/o.tsv" '^# start: 20[0-9-]+T[0-9:.]+Z$'
	expect_grep "$tmp/o.tsv" '^# summary: '
	# the summary also goes to stderr
	expect_grep "$tmp/err" '^summary: [56] samples over 0\.0[56]0000 s'
	if [[ $case_name == replay-stale ]]; then
		expect_grep "$tmp/o.tsv" '^# cpufreq: cpus=0 driver=emu-cpufreq governor=ondemand'
		# busy time split between the frequencies read at both ends
		# when they differ (1976471 with the end's reading alone)
		expect_grep "$tmp/err" '^0 .* 1811765 +6 +0$'
		expect_grep "$tmp/err" 'cpu1 invalid samples: absent 1 first 1'
	else
		expect_grep "$tmp/err" 'cpu1 invalid samples: fields 1 first 1 excess 1'
		expect_grep "$tmp/err" 'cpu0 invalid samples: backwards 1'
	fi
	;;
json)
	expect_status 0 "$bin" --root "$fix/replay-stale" --replay -r 1000 -f json \
		-o "$tmp/o.json"
	python3 -m json.tool "$tmp/o.json" >/dev/null || fail "JSON does not parse"
	[[ $(json "$tmp/o.json" 'len(d["samples"])') == 12 ]] || fail "12 samples"
	[[ $(json "$tmp/o.json" 'd["meta"]["timer_list_mode"], d["meta"]["cpu_list"], d["meta"]["interval_us"]') == "stale-corrected [0, 1] 1000" ]] ||
		fail "meta"
	# every sample equals the TSV contract's expected row
	json "$tmp/o.json" '"\n".join("%.6f\t%d\t%.4f\t%.4f\t%.4f\t%s\t%d\t%d\t%s\t%.6f" % (s["t"], s["cpu"], s["busy"], s["idle"], s["iowait"], "" if s["freq_khz"] is None else s["freq_khz"], s["valid"], s["seq"], "" if s["freq_start_khz"] is None else s["freq_start_khz"], s["t_start"]) for s in d["samples"])' |
		diff -u "$fix/replay-stale/expected.tsv" - >&2 || fail "samples differ"
	[[ $(json "$tmp/o.json" 'd["summary"]["cpus"][0]["mean_busy_freq_khz"]') == 1811765 ]] ||
		fail "mean busy frequency"
	[[ $(json "$tmp/o.json" '[(f["khz"], f["time_s"]) for f in d["summary"]["cpus"][0]["freq_residency"]]') == "[(800000, 0.025), (1600000, 0.01), (2400000, 0.025)]" ]] ||
		fail "frequency residency"
	[[ $(json "$tmp/o.json" 'd["summary"]["cpus"][1]["invalid_reasons"]["absent"], d["summary"]["samples"]') == "1 6" ]] ||
		fail "summary counts"
	expect_status 0 "$bin" --root "$fix/replay-live" --replay -f json -o "$tmp/l.json"
	[[ $(json "$tmp/l.json" 'd["samples"][0]["freq_khz"], d["meta"]["cpufreq"], d["summary"]["cpus"][0]["mean_busy_freq_khz"]') == "None [] None" ]] ||
		fail "null frequencies"
	;;
trace)
	expect_status 0 "$bin" --root "$fix/replay-stale" --replay -r 1000 -f trace \
		-o "$tmp/o.json"
	python3 - "$tmp/o.json" <<-'EOF' || fail "trace format"
		import json, sys
		d = json.load(open(sys.argv[1]))
		ev = d["traceEvents"]
		names = {(e["pid"], e["args"]["name"]) for e in ev
		         if e["ph"] == "M" and e["name"] == "process_name"}
		assert names == {(1, "CPU 0"), (2, "CPU 1")}, names
		sort = {e["pid"]: e["args"]["sort_index"] for e in ev
		        if e["ph"] == "M" and e["name"] == "process_sort_index"}
		assert sort == {1: 0, 2: 1}, sort
		load = [e for e in ev if e["ph"] == "C" and e["name"] == "load"]
		freq = [e for e in ev if e["ph"] == "C" and e["name"] == "freq_khz"]
		# 12 rows (2 invalid: held as invalid 1) and a closing event per CPU
		assert len(load) == 14, len(load)
		l0 = [e for e in load if e["pid"] == 1]
		# stamped at the START of the interval they describe: a counter
		# holds its value until the next event
		assert [e["ts"] for e in l0] == [0.0, 10000.0, 20000.0, 30000.0,
		                                 40000.0, 50000.0, 60000.0], l0
		assert l0[0]["args"] == {"busy": 0.5, "iowait": 0.2, "invalid": 0}, l0
		assert l0[-1]["args"] == {"busy": 0, "iowait": 0, "invalid": 0}, l0
		l1 = [e for e in load if e["pid"] == 2]
		assert [e["args"]["invalid"] for e in l1] == [0, 0, 1, 1, 0, 0, 0], l1
		# frequencies where they were read: the baseline, then each end
		f0 = [e for e in freq if e["pid"] == 1]
		assert [(e["ts"], e["args"]["freq"]) for e in f0] == [
		    (0.0, 800000), (10000.0, 2400000), (20000.0, 2400000),
		    (30000.0, 1600000), (40000.0, 800000), (50000.0, 800000),
		    (60000.0, 2400000)], f0
		assert all(set(e) >= {"ph", "name", "pid", "tid", "ts", "args"}
		           for e in load + freq)
		assert d["otherData"]["meta"]["timer_list"] == "v0.9"
		assert d["otherData"]["summary"]["samples"] == 6
	EOF
	;;
time)
	# the exact rate and the clock in the header
	expect_status 0 "$bin" --root "$stale" --replay -r 3000 -o "$tmp/o.tsv"
	expect_grep "$tmp/o.tsv" '^# rate_hz: 3000$'
	expect_grep "$tmp/o.tsv" '^# interval_ns: 333333\.333$'
	expect_grep "$tmp/o.tsv" '^# interval_us: 333$'
	expect_grep "$tmp/o.tsv" '^# clock: relative$'
	expect_grep "$tmp/o.tsv" '^# start_monotonic_ns: 100000000000$'
	expect_grep "$tmp/err" 'rate 3000 Hz \(interval 333333\.333 ns\)'
	expect_status 0 "$bin" --root "$stale" --replay -i 0.3 -o "$tmp/i.tsv"
	expect_grep "$tmp/i.tsv" '^# rate_hz: 3333\.333333$'
	expect_grep "$tmp/i.tsv" '^# interval_ns: 300000\.000$'
	# seq: 1, 2, ... per sample, the same on every CPU's row
	rows "$tmp/o.tsv" | awk -F'\t' '{ if ($8 != int((NR + 1) / 2)) bad = 1 } END { exit bad }' ||
		fail "seq column"
	# --clock monotonic: CLOCK_MONOTONIC ("now at") in every format
	expect_status 0 "$bin" --root "$stale" --replay --clock monotonic -o "$tmp/m.tsv"
	expect_grep "$tmp/m.tsv" '^# clock: monotonic$'
	[[ $(rows "$tmp/m.tsv" | head -1 | cut -f1,10) == $'100.010000\t100.000000' ]] ||
		fail "monotonic TSV time: $(rows "$tmp/m.tsv" | head -1)"
	expect_status 0 "$bin" --root "$stale" --replay --clock monotonic -f json \
		-o "$tmp/m.json"
	[[ $(json "$tmp/m.json" 'd["meta"]["clock"], d["meta"]["rate_hz"], d["meta"]["start_monotonic_ns"], d["samples"][0]["t_start"], d["samples"][0]["t"], d["samples"][0]["seq"]') == "monotonic 100 100000000000 100.0 100.01 1" ]] ||
		fail "monotonic JSON"
	expect_status 0 "$bin" --root "$stale" --replay --clock monotonic -f trace \
		-o "$tmp/m.trace"
	[[ $(json "$tmp/m.trace" '[e["ts"] for e in d["traceEvents"] if e["ph"] == "C" and e["pid"] == 1 and e["name"] == "load"][:2]') == "[100000000.0, 100010000.0]" ]] ||
		fail "monotonic trace"
	expect_status 2 "$bin" --root "$stale" --replay --clock wall
	expect_grep "$tmp/err" "unknown --clock 'wall' \(relative or monotonic\)"
	;;
ramp)
	# frequency rises mid-burst: the busy time is credited to the
	# frequency in force (2000 MHz exactly, see gen-fixtures.py)
	ramp=$fix/replay-ramp
	expect_status 0 "$bin" --root "$ramp" --replay -o "$tmp/o.tsv"
	rows "$tmp/o.tsv" | diff -u "$ramp/expected.tsv" - >&2 ||
		fail "rows differ from $ramp/expected.tsv"
	# the old attribution, from the rows: the reading at the end (biased
	# up by 10%), and at the start (biased down)
	bias() {	# bias COLUMN: busy-weighted mean kHz of CPU 0
		rows "$tmp/o.tsv" | awk -F'\t' -v c="$1" \
			'$2 == 0 && $7 == 1 { b += $3; f += $3 * $c } END { printf "%.0f\n", f / b }'
	}
	[[ $(bias 6) == 2200000 ]] || fail "end attribution: $(bias 6), want 2200000"
	[[ $(bias 9) == 1800000 ]] || fail "start attribution: $(bias 9), want 1800000"
	expect_grep "$tmp/err" '^0 +0\.120000 +0\.120000 +0\.000000 +50\.00 +50\.00 +0\.00 +2000 +1000 +2000000 +24 +0$'
	expect_grep "$tmp/err" '^all +0\.120000 +0\.360000 +0\.000000 +25\.00 +75\.00 +0\.00 +2000 +500 +2000000 +48 +0$'
	expect_grep "$tmp/err" '^  cpu0: 800000 50\.0% 0\.120/0\.015 1600000 12\.5% 0\.030/0\.030 2400000 37\.5% 0\.090/0\.075$'
	# cross-checked with cpufreq's stats/time_in_state
	expect_grep "$tmp/err" '^cpufreq time_in_state cross-check'
	expect_grep "$tmp/err" '^  policy of cpu0 \(sampled cpu0\): 2400000 37\.5/37\.5 1600000 12\.5/12\.5 800000 50\.0/50\.0$'
	expect_status 0 "$bin" --root "$ramp" --replay -f json -o "$tmp/o.json"
	[[ $(json "$tmp/o.json" 'd["summary"]["cpus"][0]["mean_busy_freq_khz"], d["summary"]["all"]["bzy_mhz"], d["summary"]["all"]["avg_mhz"], d["summary"]["cpus"][0]["split_intervals"]') == "2000000 2000 500 9" ]] ||
		fail "JSON mean busy frequency"
	[[ $(json "$tmp/o.json" '[(s["khz"], s["stats_ticks"], s["stats_share"], s["sampler_share"]) for s in d["summary"]["time_in_state_check"][0]["states"]]') == "[(2400000, 9, 0.375, 0.375), (1600000, 3, 0.125, 0.125), (800000, 12, 0.5, 0.5)]" ]] ||
		fail "JSON time_in_state check"
	# the governor and its tunables in every format's metadata
	expect_grep "$tmp/o.tsv" '^# governor: cpus=0 governor=ondemand tunables=/sys/devices/system/cpu/cpufreq/ondemand ignore_nice_load=0 io_is_busy=1 powersave_bias=0 sampling_down_factor=1 sampling_rate=10000 up_threshold=80$'
	[[ $(json "$tmp/o.json" 'd["meta"]["cpufreq"][1]["tunables"]["io_is_busy"], d["meta"]["cpufreq"][1]["tunables"]["up_threshold"], d["meta"]["cpufreq"][0]["tunables_dir"]') == "1 80 /sys/devices/system/cpu/cpufreq/ondemand" ]] ||
		fail "JSON tunables"
	expect_status 0 "$bin" --root "$ramp" --replay -f trace -o "$tmp/o.trace"
	[[ $(json "$tmp/o.trace" 'd["otherData"]["meta"]["cpufreq"][0]["tunables"]["sampling_rate"]') == 10000 ]] ||
		fail "trace tunables"
	# a governor without a folder: no tunables, said so
	# (a static copy: no valid sample, exit 3; the output is written)
	expect_status 3 "$bin" --root "$fix/linux-6.1-v0.9" -d 0.01 -o "$tmp/s.tsv"
	expect_grep "$tmp/s.tsv" '^# governor: cpus=0-1 governor=ondemand tunables=-$'
	;;
table)
	# one block per second (turbostat style): header, all-CPU row, CPUs
	make_root "$tmp/r" 2 500 1
	expect_status 0 "$bin" --root "$tmp/r" --replay -r 1000 -f table -o "$tmp/t"
	[[ $(grep -c '^ *time_s  *CPU  *Busy%  *IOwait%  *Idle%  *Bzy_MHz  *Avg_MHz$' "$tmp/t") == 3 ]] ||
		fail "3 blocks of 2.495 s"
	[[ $(awk '$2 == "-" { print $1 }' "$tmp/t" | tr '\n' ' ') == "1.000 2.000 2.495 " ]] ||
		fail "block times: $(awk '$2 == "-"' "$tmp/t")"
	expect_grep "$tmp/t" '^ +1\.000 +0 +25\.00 +25\.00 +50\.00 +- +-$'
	expect_grep "$tmp/t" '^summary: 499 samples'
	! grep -q $'\t' "$tmp/t" || fail "TSV rows in the table"
	# the default on a terminal without -o; -o or -f still give TSV
	if command -v script >/dev/null; then
		script -qec "$bin --root $fix/replay-ramp --replay" /dev/null \
			>"$tmp/tty" 2>&1 </dev/null
		expect_grep "$tmp/tty" '^ +0\.240 +0 +50\.00 +0\.00 +50\.00 +2000 +1000'
		expect_grep "$tmp/tty" '^start 20[0-9-]+T[0-9:.]+Z, CLOCK_MONOTONIC 300000000000 ns; times: relative'
		expect_grep "$tmp/tty" '^governor of CPUs 0: ondemand ignore_nice_load=0 io_is_busy=1 powersave_bias=0 sampling_down_factor=1 sampling_rate=10000 up_threshold=80'
		! grep -q $'\t' "$tmp/tty" || fail "TSV rows on a terminal"
		script -qec "$bin --root $fix/replay-ramp --replay -f tsv" /dev/null \
			>"$tmp/tty2" 2>&1 </dev/null
		grep -q $'^0.010000\t0\t1.0000' "$tmp/tty2" || fail "-f tsv on a terminal"
		script -qec "$bin --root $fix/replay-ramp --replay -o $tmp/f.tsv" \
			/dev/null >"$tmp/tty3" 2>&1 </dev/null
		diff -u "$fix/replay-ramp/expected.tsv" <(rows "$tmp/f.tsv") >&2 ||
			fail "-o on a terminal"
	fi
	;;
v0.11)
	# timer_list without sleep times: /proc/stat at USER_HZ, said once
	v11=$fix/replay-v0.11
	expect_status 0 "$bin" --root "$v11" --replay -o "$tmp/o.tsv"
	rows "$tmp/o.tsv" | diff -u "$v11/expected.tsv" - >&2 ||
		fail "rows differ from $v11/expected.tsv"
	[[ $(grep -c 'warning: Timer List Version v0.11 has no idle_sleeptime/iowait_sleeptime: idle and iowait come from /proc/stat, at USER_HZ (100 Hz: a resolution of 10 ms per CPU)$' "$tmp/err") == 1 ]] ||
		fail "one warning on stderr"
	expect_grep "$tmp/o.tsv" '^# timer_list: v0\.11 proc-stat$'
	expect_grep "$tmp/o.tsv" '^# idle_source: /proc/stat resolution_ns=10000000 user_hz=100$'
	expect_grep "$tmp/err" '^idle/iowait source: /proc/stat \(timer_list has no sleep times\), resolution 10000 us \(USER_HZ 100\)$'
	expect_grep "$tmp/err" '^0 +0\.050000 +0\.020000 +0\.030000 '
	expect_grep "$tmp/err" '^  cpu0: stat 50\.0/20\.0/30\.0 \| sampler 50\.0/20\.0/30\.0$'
	grep -q 'untested' "$tmp/err" && fail "v0.11 is known"
	expect_status 0 "$bin" --root "$v11" --replay -f json -o "$tmp/o.json"
	[[ $(json "$tmp/o.json" 'd["meta"]["timer_list_mode"], d["meta"]["idle_source"], d["meta"]["idle_resolution_ns"], d["summary"]["idle_source"], d["summary"]["idle_resolution_ns"]') == "proc-stat /proc/stat 10000000 /proc/stat 10000000" ]] ||
		fail "JSON idle source"
	# timer_list v0.9 has its sleep times: the header says so
	expect_status 0 "$bin" --root "$stale" --replay -o "$tmp/s.tsv"
	expect_grep "$tmp/s.tsv" '^# idle_source: timer_list resolution_ns=1$'
	# never silent zeros: no /proc/stat, no run
	cp -r "$v11" "$tmp/nostat"
	rm -f "$tmp/nostat/proc/stat" "$tmp/nostat/proc/stat".*
	expect_status 3 "$bin" --root "$tmp/nostat" --replay -o "$tmp/n.tsv"
	expect_grep "$tmp/err" 'timer_list(\.0)? has no idle sleep times, and /proc/stat cannot be read: No such file'
	[[ ! -e $tmp/n.tsv ]] || [[ -z $(rows "$tmp/n.tsv") ]] || fail "rows without a source"
	# a /proc/stat without CPU lines at the start: no run either
	cp -r "$v11" "$tmp/badstat"
	echo garbage >"$tmp/badstat/proc/stat.0"
	expect_status 3 "$bin" --root "$tmp/badstat" --replay -q
	expect_grep "$tmp/err" 'cannot read .*timer_list or /proc/stat: No data'
	# a later version without them: the same fallback, and a warning
	cp -r "$v11" "$tmp/v12"
	sed -i 's/^Timer List Version: v0\.11$/Timer List Version: v0.12/' "$tmp/v12"/proc/timer_list.*
	expect_status 0 "$bin" --root "$tmp/v12" --replay -q
	expect_grep "$tmp/err" 'v0\.12 is untested'
	expect_grep "$tmp/err" '^idle/iowait source: /proc/stat'
	# a malformed file is no v0.11: still refused
	expect_status 3 "$bin" --root "$fix/broken-non-numeric"
	expect_grep "$tmp/err" 'no CPU block has the idle accounting fields'
	;;
command)
	expect_status 5 "$bin" --root "$stale" --replay -r 100 -q -- sh -c 'sleep 0.1; exit 5'
	expect_grep "$tmp/err" '^command exit status: 5$'
	# perf stat's three times, from wait4()
	expect_grep "$tmp/err" '^command time: 0\.[1-9][0-9]{5} s elapsed, [0-9]+\.[0-9]{6} s user, [0-9]+\.[0-9]{6} s sys$'
	# shellcheck disable=SC2016 # expanded by the command's shell
	expect_status 0 "$bin" --root "$stale" --replay -r 100 -q -f json -o "$tmp/c.json" -- \
		sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i + 1)); done'
	[[ $(json "$tmp/c.json" 'd["summary"]["command_time"]["user_s"] + d["summary"]["command_time"]["sys_s"] > 0.05 and d["summary"]["command_time"]["elapsed_s"] >= d["summary"]["command_time"]["user_s"] * 0.5') == True ]] ||
		fail "command user/sys time: $(json "$tmp/c.json" 'd["summary"]["command_time"]')"
	expect_grep "$tmp/err" '^summary: '
	expect_status 143 "$bin" --root "$stale" --replay -r 100 -q -- sh -c 'kill -TERM $$'
	expect_status 0 "$bin" --root "$stale" --replay -r 100 -q true
	expect_status 127 "$bin" --root "$stale" --replay -r 100 -q -- /nonexistent/cmd
	expect_grep "$tmp/err" "^iowait-freqmon: cannot run '/nonexistent/cmd': No such file"
	expect_status 127 "$bin" --root "$stale" --replay -q -- no-such-command-ifm
	expect_status 126 "$bin" --root "$stale" --replay -q -- "$fix/replay-stale/expected.tsv"
	# the command's own output and options pass through untouched
	expect_status 0 "$bin" --root "$stale" --replay -r 1000 -o "$tmp/o.tsv" -- echo -r 5
	[[ $(cat "$tmp/out") == "-r 5" ]] || fail "command stdout"
	expect_grep "$tmp/o.tsv" "^# command: .* -- echo -r 5\$"
	# SIGTERM sent to the tool is passed on to the command
	"$bin" --root "$stale" --replay -r 100 -q -- sleep 30 2>"$tmp/err" &
	pid=$!
	sleep 0.5
	kill -TERM "$pid"
	wait "$pid"
	[[ $? == 143 ]] || fail "SIGTERM not passed on to the command"
	;;
signal)
	ends_clean INT
	;;
duration)
	make_root "$tmp/r" 2 4000 1
	expect_status 0 "$bin" --root "$tmp/r" --replay -r 100 -d 0.2 -o "$tmp/o.tsv"
	n=$(rows "$tmp/o.tsv" | wc -l)
	[[ $n -ge 20 && $n -le 40 && $((n % 2)) == 0 ]] || fail "$n rows for 0.2 s at 100 Hz on 2 CPUs"
	expect_status 0 "$bin" --root "$fix/replay-stale" --replay -i 0.5 -q
	expect_grep "$tmp/err" 'rate 2000 Hz \(interval 500000\.000 ns\)'
	;;
sources)
	expect_status 3 "$bin" --root "$tmp/nonexistent"
	expect_grep "$tmp/err" '^iowait-freqmon: cannot read .*/proc/timer_list: No such file'
	expect_status 3 "$bin" --root "$static" --replay
	expect_grep "$tmp/err" 'timer_list\.0: No such file'
	expect_status 3 "$bin" --root "$fix/broken-no-header"
	expect_grep "$tmp/err" 'cannot parse .*: Bad message'
	expect_status 3 "$bin" --root "$fix/broken-non-numeric"
	expect_grep "$tmp/err" 'no CPU block has the idle accounting fields'
	# a CPU absent at the start, asked for: warned, sampled as invalid
	# (a static copy: no sample is valid, exit 3)
	expect_status 3 "$bin" --root "$fix/broken-absent-cpu" -c 0-1 -r 1000 -d 0.01 \
		-o "$tmp/o.tsv"
	expect_grep "$tmp/err" 'warning: CPU 1 is not in timer_list now'
	rows "$tmp/o.tsv" | awk -F'\t' '$2 == 1 && $7 != 0 { bad = 1 } END { exit bad }' ||
		fail "absent CPU rows must be invalid"
	# a replay snapshot without a header: no row, counted, the run goes on
	cp -r "$fix/replay-stale" "$tmp/r"
	echo garbage >"$tmp/r/proc/timer_list.3"
	expect_status 0 "$bin" --root "$tmp/r" --replay -o "$tmp/r.tsv"
	expect_grep "$tmp/err" '^summary: 5 samples over 0\.060000 s'
	expect_grep "$tmp/err" 'read errors: 1,'
	[[ $(rows "$tmp/r.tsv" | cut -f1 | uniq | tr '\n' ' ') == \
		"0.010000 0.020000 0.040000 0.050000 0.060000 " ]] || fail "rows around a broken snapshot"
	# the v0.8 and the host's v0.10 formats are accepted without warning
	# (static copies: "now at" does not move, no sample is valid, exit 3)
	for f in linux-4.19-v0.8 host-v0.10 patched-v0.9; do
		expect_status 3 "$bin" --root "$fix/$f" -r 1000 -d 0.005 -q
		grep -q warning "$tmp/err" && fail "$f: unexpected warning"
	done
	expect_grep "$tmp/err" '^0 .* 0 +[0-9]+$'
	;;
not-root)
	# /proc/timer_list is 0400 root: as an unprivileged user it is unreadable
	if [[ $(id -u) == 0 ]]; then
		command -v setpriv >/dev/null || exit 77
		run=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
		"${run[@]}" test -x "$bin" || exit 77	# build tree not reachable
	else
		run=()
		[[ -r /proc/timer_list ]] && exit 77
	fi
	expect_status 3 "${run[@]}" "$bin" -d 0.01
	expect_grep "$tmp/err" '^iowait-freqmon: cannot read /proc/timer_list: it needs root \(or CAP_DAC_READ_SEARCH\); or use --root DIR$'
	# and --root works without privileges
	expect_status 0 "${run[@]}" "$bin" --root "$fix/replay-stale" --replay -q
	;;
write-error)
	[[ -w /dev/full ]] || exit 77
	expect_status 1 "$bin" --root "$fix/replay-stale" --replay -r 1000 -o /dev/full
	expect_grep "$tmp/err" '^iowait-freqmon: cannot write to /dev/full: No space left on device \(([0-9]+) of \1 samples lost(, and the summary)?\)$'
	# EPIPE: a reader that goes away
	"$bin" --root "$static" -r 1000 2>"$tmp/err" | head -c 10 >/dev/null
	st=${PIPESTATUS[0]}
	[[ $st == 1 ]] || fail "exit status $st on EPIPE"
	expect_grep "$tmp/err" '^iowait-freqmon: cannot write to standard output: Broken pipe \([0-9]+ of [0-9]+ samples lost\)$'
	;;
quiet)
	expect_status 0 "$bin" --root "$fix/replay-stale" --replay -q
	[[ ! -s $tmp/out ]] || fail "-q wrote to stdout"
	expect_grep "$tmp/err" '^summary: 6 samples'
	expect_status 0 "$bin" --root "$fix/replay-stale" --replay -q -s "$tmp/sum"
	[[ ! -s $tmp/err ]] || fail "-s FILE: stderr not empty"
	expect_grep "$tmp/sum" '^summary: 6 samples'
	expect_grep "$tmp/sum" '^/proc/stat cross-check'
	expect_grep "$tmp/sum" '^  cpu0: stat 42\.9/28\.6/28\.6 \| timer_list 56\.7/25\.0/18\.3$'
	# output on stderr: the summary is in it once, as comment lines
	expect_status 0 "$bin" --root "$fix/replay-stale" --replay -o /dev/stderr
	[[ $(grep -c '^summary:' "$tmp/err") == 0 && $(grep -c '^# summary:' "$tmp/err") == 1 ]] ||
		fail "summary duplicated on stderr"
	# -q with -o: metadata and summary, no samples
	expect_status 0 "$bin" --root "$fix/replay-stale" --replay -q -f json -o "$tmp/q.json"
	[[ $(json "$tmp/q.json" 'len(d["samples"]), d["summary"]["samples"]') == "0 6" ]] ||
		fail "-q -o json"
	;;
pin)
	expect_status 0 "$bin" --root "$fix/replay-stale" --replay -p 0 -q
	expect_status 1 "$bin" --root "$fix/replay-stale" --replay -p 1023 -q
	expect_grep "$tmp/err" '^iowait-freqmon: cannot pin the sampler to CPU 1023: Invalid argument$'
	;;
sigchld)
	# a parent that ignores SIGCHLD passes that on through exec: the tool
	# must still get the command's status, and not wait forever
	ign=(python3 -c 'import os, signal, sys
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
os.execv(sys.argv[1], sys.argv[1:])')
	expect_status 3 timeout -s KILL 20 "${ign[@]}" "$bin" --root "$stale" --replay -q \
		-- sh -c 'sleep 0.1; exit 3'
	expect_grep "$tmp/err" '^command exit status: 3$'
	expect_status 0 timeout -s KILL 20 "${ign[@]}" "$bin" --root "$stale" --replay -q -- true
	# and the command itself starts with SIGCHLD at its default
	expect_status 0 timeout -s KILL 20 "${ign[@]}" "$bin" --root "$stale" --replay -q \
		-o "$tmp/o.tsv" -- sh -c 'grep "^SigIgn" /proc/self/status'
	[[ $(( 0x$(awk '{ print $2 }' "$tmp/out") & 0x10000 )) == 0 ]] ||
		fail "the command inherited SIGCHLD ignored"
	;;
start-fail)
	# an impossible --pin is refused before the output file is truncated
	echo old >"$tmp/o.tsv"
	expect_status 1 "$bin" --root "$stale" --replay -p 1023 -o "$tmp/o.tsv"
	expect_grep "$tmp/err" '^iowait-freqmon: cannot pin the sampler to CPU 1023: Invalid argument$'
	[[ $(cat "$tmp/o.tsv") == old ]] || fail "-p 1023 truncated the output file"
	# a sampler that cannot start (SCHED_FIFO refused): the output is
	# complete, with no sample
	run=()
	if [[ $(id -u) == 0 ]]; then
		command -v setpriv >/dev/null || exit 77
		run=(setpriv --bounding-set=-sys_nice --inh-caps=-sys_nice --)
	fi
	for fmt in json tsv; do
		(ulimit -r 0 && exec "${run[@]}" "$bin" --root "$stale" --replay -P 50 \
			-f "$fmt" -o "$tmp/o.$fmt") >"$tmp/out" 2>"$tmp/err"
		st=$?
		[[ $st == 1 ]] || fail "$fmt: exit status $st with SCHED_FIFO refused"
		expect_grep "$tmp/err" '^iowait-freqmon: cannot run the sampler SCHED_FIFO at priority 50: Operation not permitted$'
	done
	[[ $(json "$tmp/o.json" 'len(d["samples"]), d["summary"]["samples"]') == "0 0" ]] ||
		fail "JSON of a failed start"
	expect_grep "$tmp/o.tsv" '^# summary: 0 samples'
	;;
stdout-share)
	# -s - with the data on stdout: the summary only inside the data
	expect_status 0 "$bin" --root "$stale" --replay -s -
	grep -q '^summary:' "$tmp/out" && fail "TSV: summary lines mixed into the data"
	[[ $(grep -c '^# summary:' "$tmp/out") == 1 ]] || fail "TSV: no summary comment"
	[[ $(grep -vc '^#' "$tmp/out") == 13 ]] || fail "TSV: header + 12 rows"
	for fmt in json trace; do
		expect_status 0 "$bin" --root "$stale" --replay -f "$fmt" -s -
		python3 -m json.tool "$tmp/out" >/dev/null || fail "$fmt -s -: not JSON"
	done
	# -s - with the data in a file: the summary on stdout
	expect_status 0 "$bin" --root "$stale" --replay -o "$tmp/o.tsv" -s -
	expect_grep "$tmp/out" '^summary: 6 samples'
	# command mode, data on stdout: the command's stdout goes to stderr
	# (-r 1000: the replay is over before the command)
	expect_status 0 "$bin" --root "$stale" --replay -r 1000 -- sh -c 'echo hello-out; sleep 0.2'
	grep -q '^hello-out$' "$tmp/out" && fail "the command's stdout is among the rows"
	expect_grep "$tmp/err" '^hello-out$'
	[[ $(grep -vc '^#' "$tmp/out") == 13 ]] || fail "rows with a command"
	expect_status 0 "$bin" --root "$stale" --replay -f json -- echo hello-out
	python3 -m json.tool "$tmp/out" >/dev/null || fail "json with a command: not JSON"
	# data in a file, or no data (-q): the command keeps the real stdout
	expect_status 0 "$bin" --root "$stale" --replay -q -- echo hello-out
	[[ $(cat "$tmp/out") == hello-out ]] || fail "-q: command stdout"
	;;
newline)
	# a newline in an argument or in --root: still one header line
	mkdir "$tmp/a"$'\n'"b"
	cp -r "$stale/." "$tmp/a"$'\n'"b/"
	for root in "$stale" "$tmp/a"$'\n'"b"; do
		expect_status 0 "$bin" --root "$root" --replay -r 1000 -o "$tmp/o.tsv" \
			-- sh -c $'sleep 0.2\necho x'
		[[ $(grep -v '^#' "$tmp/o.tsv" | head -1) == \
			$'time_s\tcpu\tbusy\tidle\tiowait\tfreq_khz\tvalid\tseq\tfreq_start_khz\tstart_s' ]] ||
			fail "column header line, root $root"
		[[ $(grep -vc '^#' "$tmp/o.tsv") == 13 ]] || fail "header + 12 rows, root $root"
		rows "$tmp/o.tsv" | diff -u "$stale/expected.tsv" - >&2 ||
			fail "rows differ, root $root"
		expect_grep "$tmp/o.tsv" "^# command: .* -- sh -c \\$'sleep 0\\.2\\\\necho x'\$"
		expect_status 0 "$bin" --root "$root" --replay -f json -o "$tmp/o.json" -- sh -c $'true\necho x'
		[[ $(json "$tmp/o.json" 'd["meta"]["argv"][-1], d["meta"]["root"] == sys.argv[2]' "$root") == \
			"true"$'\n'"echo x True" ]] || fail "JSON argv/root"
	done
	expect_grep "$tmp/o.tsv" '^# root: .*/a\\nb \(replay\)$'
	# the quoted command line runs the same command in bash
	line=$(sed -n 's/^# command: .* -- //p' "$tmp/o.tsv")
	[[ $(bash -c "$line") == x ]] || fail "quoted command line: $line"
	;;
options)
	# the option as written, also for a long option given an argument
	expect_status 2 "$bin" --no-freq=1
	expect_grep "$tmp/err" "^iowait-freqmon: option '--no-freq' takes no argument$"
	expect_status 2 "$bin" --help=x
	expect_grep "$tmp/err" "^iowait-freqmon: option '--help' takes no argument$"
	[[ ! -s $tmp/out ]] || fail "--help=x printed the help on stdout"
	expect_status 2 "$bin" --rate
	expect_grep "$tmp/err" "^iowait-freqmon: option '--rate' needs an argument$"
	expect_status 2 "$bin" -q -r
	expect_grep "$tmp/err" "^iowait-freqmon: option '-r' needs an argument$"
	expect_status 2 "$bin" --bogus=1
	expect_grep "$tmp/err" "^iowait-freqmon: unknown option '--bogus=1'$"
	expect_status 2 "$bin" -qx
	expect_grep "$tmp/err" "^iowait-freqmon: unknown option '-x'$"
	;;
process-share)
	# the process's CPU time over the process's own run time, not over
	# the sampler thread's (which a quick command makes tiny)
	expect_status 3 "$bin" --root "$stale" --replay -r 10000 -q -- sh -c 'exit 3'
	share=$(process_share "$tmp/err")
	[[ -n $share ]] || fail "no process share in the summary"
	python3 -c 'import sys; sys.exit(not 0 <= float(sys.argv[1]) <= 150)' "${share:-x}" ||
		fail "whole-process CPU share $share%"
	expect_status 0 "$bin" --root "$stale" --replay -r 10000 -f json -o "$tmp/o.json" -- sleep 0.3
	[[ $(json "$tmp/o.json" 'd["summary"]["process_cpu_share"] <= 1.5') == True ]] ||
		fail "JSON process_cpu_share"
	;;
quiet-full)
	[[ -w /dev/full ]] || exit 77
	# -q: no sample was to be written, none is reported lost
	expect_status 1 "$bin" --root "$stale" --replay -q -o /dev/full
	expect_grep "$tmp/err" '^iowait-freqmon: cannot write to /dev/full: No space left on device \(the metadata and the summary are lost\)$'
	grep -q 'samples lost' "$tmp/err" && fail "-q reports samples lost"
	# a run that took no sample has none to report lost ("0 of 0"): a
	# replay with one snapshot only (the first is the baseline)
	cp -r "$stale" "$tmp/one"
	rm "$tmp/one/proc/"timer_list.[1-9] "$tmp/one/proc/stat.6"
	expect_status 1 "$bin" --root "$tmp/one" --replay -o /dev/full
	expect_grep "$tmp/err" '^iowait-freqmon: cannot write to /dev/full: No space left on device \(the metadata and the summary are lost\)$'
	grep -q 'samples lost' "$tmp/err" && fail "a run without samples reports samples lost"
	;;
cpulist)
	# 200 online CPUs of 400: a cpus list far longer than 256 bytes
	make_root "$tmp/r" 400 3 2
	want=$(seq -s, 0 2 398)
	expect_status 0 "$bin" --root "$tmp/r" --replay -o "$tmp/o.tsv"
	expect_grep "$tmp/o.tsv" "^# cpus: $want\$"
	expect_status 0 "$bin" --root "$tmp/r" --replay -f json -o "$tmp/o.json"
	[[ $(json "$tmp/o.json" 'd["meta"]["cpus"]') == "$want" ]] || fail "JSON cpus"
	[[ $(rows "$tmp/o.tsv" | wc -l) == 400 ]] || fail "2 samples of 200 CPUs"
	;;
all-invalid)
	# a static copy: "now at" never moves, no sample is valid
	expect_status 3 "$bin" --root "$static" -r 1000 -d 0.02 -o "$tmp/o.tsv"
	expect_grep "$tmp/err" '^iowait-freqmon: no valid sample in [0-9]+ samples: the CPUs'"'"' figures could not be used \(see the invalid samples in the summary\)$'
	expect_grep "$tmp/o.tsv" '^# summary: '
	# a command's status does not hide it
	expect_status 3 "$bin" --root "$static" -r 1000 -q -- sleep 0.05
	expect_grep "$tmp/err" 'no valid sample'
	;;
help-full)
	[[ -w /dev/full ]] || exit 77
	for o in --help --version; do
		"$bin" "$o" >/dev/full 2>"$tmp/err"
		st=$?
		[[ $st == 1 ]] || fail "$o >/dev/full: exit status $st"
		expect_grep "$tmp/err" '^iowait-freqmon: cannot write to standard output: No space left on device$'
	done
	;;
sighup)
	ends_clean HUP
	# started under nohup (SIGHUP ignored): SIGHUP does not end the run
	(trap '' HUP && exec "$bin" --root "$tmp/r" --replay -r 200 -q) 2>"$tmp/err" &
	pid=$!
	sleep 0.3
	kill -HUP "$pid"
	sleep 0.3
	kill -0 "$pid" 2>/dev/null || fail "SIGHUP ended a run started with it ignored"
	kill -TERM "$pid"
	wait "$pid"
	st=$?
	[[ $st == 0 ]] || fail "exit status $st after SIGTERM"
	;;
*)
	echo "unknown case $case_name" >&2
	exit 2
	;;
esac
exit $failed

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In the guest: what ondemand and conservative make of an I/O-bound task.
# io-alternate, pinned to cpu0, reads a block with O_DIRECT from a throttled
# disk, then computes for BURST_MS (at the top P-state), over and over, for
# SECONDS per case. Each case starts at the lowest P-state (powersave), then
# switches policy0 (per-CPU policies) to the governor under test; its time at
# each P-state comes from cpufreq stats (policy0/stats/time_in_state, diff).
# "top" is the share of the two highest P-states.
#
# Expected, by kernel ($IFM_VARIANT):
#   patched   ondemand and conservative default to io_is_busy=1; with 1,
#             each spends most of the run at the top P-states (top >= 0.5);
#             with 0, top drops by at least 0.3
#   baseline  ondemand defaults to io_is_busy=0 and its top share is at
#             least 0.3 below that with io_is_busy=1 (the stock tunable);
#             conservative has no io_is_busy and its top share is at least
#             0.3 below ondemand's with io_is_busy=1
#
# Usage: governor-io.sh DISK [SECONDS [BURST_MS]]   (DISK: e.g. /dev/vda)
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

bin=${IFM_BIN_DIR:?IFM_BIN_DIR must name the folder with io-alternate}
disk=${1:?usage: governor-io.sh DISK [SECONDS [BURST_MS]]}
secs=${2:-8}
burst_ms=${3:-2}
variant=${IFM_VARIANT:?IFM_VARIANT must name the kernel variant}
[[ -x $bin/io-alternate && -x $bin/cpuloop ]] || fail "io-alternate or cpuloop not built in $bin"
[[ -b $disk ]] || fail "$disk is not a block device"
pol=/sys/devices/system/cpu/cpufreq/policy0
[[ $(xargs <$pol/related_cpus) == 0 ]] || fail "policy0 covers CPUs '$(xargs <$pol/related_cpus)', want per-CPU policies"
[[ -f $pol/stats/time_in_state ]] || fail "no cpufreq stats (CONFIG_CPU_FREQ_STAT)"
out=$(mktemp -d)

# The burst: cpuloop's loops per second at the top P-state give work chunks per ms.
cal=$(burst_calibrate "$bin" "$burst_ms")
read -r lps chunks <<<"$cal"
echo "calibration: $lps loops/s at the top P-state, a burst of $burst_ms ms is $chunks chunks"

# set_gov GOVERNOR [IO_IS_BUSY]: from the lowest P-state, switch policy0 to
# GOVERNOR (and set io_is_busy, which the governor's start resets).
set_gov() {
	cpupower -c 0 frequency-set -g powersave >/dev/null || fail "cannot switch to powersave"
	sleep 0.5
	cpupower -c 0 frequency-set -g "$1" >/dev/null || fail "cannot switch to $1"
	if (($# > 1)); then
		echo "$2" >"/sys/devices/system/cpu/cpufreq/$1/io_is_busy" || fail "$1: cannot set io_is_busy=$2"
	fi
}

# measure NAME: run the workload under the current governor; print the shares
# per P-state, keep the top share in $out/NAME.top.
measure() {
	local ops
	cp $pol/stats/time_in_state "$out/$1.before"
	ops=$("$bin/io-alternate" -c 0 -t "$secs" -w "$chunks" "$disk") || fail "$1: io-alternate failed"
	cp $pol/stats/time_in_state "$out/$1.after"
	awk -v name="$1" -v kernel="$variant" -v ops="$ops" -v top="$out/$1.top" '
		NR == FNR { before[$1] = $2; next }
		{ f[++n] = $1; d[n] = $2 - before[$1]; total += d[n] }
		END {
			if (total <= 0) { print "no time in any P-state" > "/dev/stderr"; exit 1 }
			line = "case=" name " kernel=" kernel
			for (i = 1; i <= n; i++) {
				line = line sprintf(" %d=%.3f", f[i] / 1000, d[i] / total)
				mean += f[i] / 1000 * d[i] / total
			}
			# the two highest P-states
			for (i = 1; i <= n; i++) if (f[i] > m1) { m2 = m1; m1 = f[i] } else if (f[i] > m2) m2 = f[i]
			for (i = 1; i <= n; i++) if (f[i] == m1 || f[i] == m2) t += d[i] / total
			printf "%s top=%.3f mean_mhz=%.0f %s\n", line, t, mean, ops
			printf "%.3f\n", t > top
		}' "$out/$1.before" "$out/$1.after" || fail "$1: no cpufreq stats"
}

top() { cat "$out/$1.top"; }

# check_ge A B MARGIN WHAT: A >= B + MARGIN
check_ge() {
	if awk -v a="$1" -v b="$2" -v m="$3" 'BEGIN { exit !(a >= b + m) }'; then
		pass "$4 ($1 >= $2 + $3)"
	else
		fail "$4: $1, want >= $2 + $3"
	fi
}

io_default() { # io_default GOVERNOR WANT: io_is_busy right after the switch
	local v
	set_gov "$1"
	v=$(cat "/sys/devices/system/cpu/cpufreq/$1/io_is_busy")
	[[ $v == "$2" ]] || fail "$1: io_is_busy defaults to $v on $variant, want $2"
	pass "$1: io_is_busy defaults to $v"
}

case $variant in
patched)
	io_default ondemand 1
	io_default conservative 1
	for g in ondemand conservative; do
		set_gov $g 1
		measure "$g-io1"
		set_gov $g 0
		measure "$g-io0"
	done
	for g in ondemand conservative; do
		check_ge "$(top "$g-io1")" 0.5 0 "$g io_is_busy=1: most of the time at the top P-states"
		check_ge "$(top "$g-io1")" "$(top "$g-io0")" 0.3 "$g: io_is_busy=0 drops the top share"
	done
	;;
baseline)
	io_default ondemand 0
	set_gov ondemand
	measure ondemand-default
	set_gov ondemand 1
	measure ondemand-io1
	set_gov conservative
	[[ ! -e /sys/devices/system/cpu/cpufreq/conservative/io_is_busy ]] ||
		fail "baseline conservative has io_is_busy: is this the patched kernel?"
	pass "conservative: no io_is_busy on baseline"
	measure conservative
	check_ge "$(top ondemand-io1)" "$(top ondemand-default)" 0.3 "baseline ondemand: the default (io_is_busy=0) stays off the top P-states"
	check_ge "$(top ondemand-io1)" "$(top conservative)" 0.3 "baseline conservative: treats iowait as idle, off the top P-states"
	;;
*) fail "unknown kernel variant '$variant'" ;;
esac

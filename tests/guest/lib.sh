# shellcheck shell=bash
# Helpers for scripts that run inside a lab guest. Sourced, never run.

fail() {
	printf 'FAIL: %s\n' "$*" >&2
	exit 1
}
pass() { printf 'ok: %s\n' "$*"; }

cpufreq() { # cpufreq CPU FILE: a cpufreq attribute of a CPU, blanks squeezed
	xargs <"/sys/devices/system/cpu/cpu$1/cpufreq/$2"
}

online_cpus() {
	local c
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		[[ ! -f $c/online || $(cat "$c/online") == 1 ]] && echo "${c##*cpu}"
	done
}

# set_freq CPU KHZ: put CPU under the userspace governor at KHZ, checked.
set_freq() {
	cpupower -c "$1" frequency-set -g userspace >/dev/null || fail "cpupower: userspace governor on cpu$1"
	cpupower -c "$1" frequency-set -f "$2" >/dev/null || fail "cpupower: $2 kHz on cpu$1"
	[[ $(cpufreq "$1" scaling_cur_freq) == "$2" ]] ||
		fail "cpu$1: scaling_cur_freq is $(cpufreq "$1" scaling_cur_freq), want $2"
}

# burst_calibrate BIN MS: prints "LPS CHUNKS": cpuloop's loops per second on
# cpu0 at the top P-state (every policy under performance, left so) and the
# work chunks (LPS / 1000 per ms, at least 1) of an MS ms burst.
burst_calibrate() {
	local lps
	cpupower -c all frequency-set -g performance >/dev/null || fail "cannot switch to performance"
	lps=$("$1/cpuloop" -c 0 -t 1 | sed -n 's/.*loops_per_s=\([0-9]*\).*/\1/p')
	[[ $lps =~ ^[1-9][0-9]*$ ]] || fail "cpuloop gave no rate"
	echo "$lps" $((lps * $2 / 1000 > 0 ? lps * $2 / 1000 : 1))
}

[[ ${IFM_GUEST:-} == 1 ]] || fail "this script runs inside a lab guest (scripts/guest-run)"

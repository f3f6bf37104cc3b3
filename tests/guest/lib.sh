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

[[ ${IFM_GUEST:-} == 1 ]] || fail "this script runs inside a lab guest (scripts/guest-run)"

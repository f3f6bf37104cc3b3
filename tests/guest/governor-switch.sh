#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In the guest: switch between every governor while both CPUs are loaded,
# check that each governor drives the emulated P-states where it should
# (performance, ondemand, conservative and schedutil to the top P-state on a
# busy CPU, powersave to the lowest), and take a CPU offline and back online
# under load. guest-run fails the test on any kernel splat. The load runs at
# nice 19: it is just as busy for every governor (none of them ignores nice
# load by default), and the test's own commands no longer share a CPU
# throttled to 800 MHz with it as equals (powersave took 30-60 s to
# settle that way; the whole test now takes about 40 s).
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

loop=${IFM_BIN_DIR:?IFM_BIN_DIR must name the folder with cpuloop}/cpuloop
[[ -x $loop ]] || fail "$loop not built"
fmax=$(cpufreq 0 cpuinfo_max_freq)
fmin=$(cpufreq 0 cpuinfo_min_freq)
policies=(/sys/devices/system/cpu/cpufreq/policy*)
echo "policies: ${policies[*]##*/}, related cpus of policy0: $(xargs </sys/devices/system/cpu/cpufreq/policy0/related_cpus)"

nice -n 19 "$loop" -c 0,1 -t 300 >/dev/null &
load=$!
trap 'kill $load 2>/dev/null || true' EXIT

# settle GOVERNOR WANT_KHZ: wait up to 5 s for every online CPU to reach it
settle() {
	local cpu t
	for ((t = 0; t < 50; t++)); do
		local ok=1
		for cpu in $(online_cpus); do
			[[ $(cpufreq "$cpu" scaling_cur_freq) == "$2" ]] || ok=0
		done
		((ok)) && return 0
		sleep 0.1
	done
	fail "$1: CPUs at $(for c in $(online_cpus); do cpufreq "$c" scaling_cur_freq; done | xargs) kHz under load, want $2"
}

for round in 1 2; do
	for g in performance powersave ondemand userspace conservative schedutil; do
		cpupower -c all frequency-set -g "$g" >/dev/null || fail "cannot switch to $g"
		for cpu in $(online_cpus); do
			[[ $(cpufreq "$cpu" scaling_governor) == "$g" ]] || fail "cpu$cpu did not switch to $g"
		done
		case $g in
		powersave) settle "$g" "$fmin" ;;
		userspace) cpupower -c all frequency-set -f 1600000 >/dev/null; settle "$g" 1600000 ;;
		*) settle "$g" "$fmax" ;;
		esac
		pass "round $round: $g under load at $(cpufreq 0 scaling_cur_freq) kHz"
	done
	if [[ -f /sys/devices/system/cpu/cpu1/online ]]; then
		cpupower -c all frequency-set -g ondemand >/dev/null
		echo 0 >/sys/devices/system/cpu/cpu1/online || fail "cpu1 did not go offline"
		sleep 0.5
		echo 1 >/sys/devices/system/cpu/cpu1/online || fail "cpu1 did not come back online"
		[[ $(cpufreq 1 scaling_driver) == emu-cpufreq ]] || fail "cpu1 lost its cpufreq driver after hotplug"
		# The loop thread of cpu1 was moved off it: start the load afresh.
		kill "$load"
		wait "$load" 2>/dev/null || true
		nice -n 19 "$loop" -c 0,1 -t 300 >/dev/null &
		load=$!
		pass "round $round: cpu1 offline and back online under load"
	fi
done
kill "$load"

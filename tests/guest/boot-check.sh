#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: the emulated cpufreq driver is registered on every CPU with
# its P-state table, every governor is available, and the tracepoints perf
# timechart records exist. Prints what it found.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

echo "kernel:    $(uname -r) ($(uname -v))"
for cpu in $(online_cpus); do
	[[ -d /sys/devices/system/cpu/cpu$cpu/cpufreq ]] || fail "cpu$cpu has no cpufreq"
	drv=$(cpufreq "$cpu" scaling_driver)
	[[ $drv == emu-cpufreq ]] || fail "cpu$cpu: driver is '$drv', want emu-cpufreq"
	freqs=$(cpufreq "$cpu" scaling_available_frequencies)
	[[ $freqs == "800000 1200000 1600000 2000000 2400000" ]] ||
		fail "cpu$cpu: P-states '$freqs'"
	govs=$(cpufreq "$cpu" scaling_available_governors)
	for g in performance powersave userspace ondemand conservative schedutil; do
		[[ " $govs " == *" $g "* ]] || fail "cpu$cpu: governor $g missing from '$govs'"
	done
	echo "cpu$cpu:      driver $drv, governor $(cpufreq "$cpu" scaling_governor), now $(cpufreq "$cpu" scaling_cur_freq) kHz"
done
echo "P-states:  $freqs kHz"
echo "governors: $govs"
echo "power:     $(cat /sys/module/emu_cpufreq/parameters/power_mw) mW busy, $(cat /sys/module/emu_cpufreq/parameters/idle_power_mw) mW idle (model)"
cpupower frequency-info | grep -q 'driver: emu-cpufreq' || fail "cpupower frequency-info does not see emu-cpufreq"
for ev in power/cpu_frequency power/cpu_idle sched/sched_switch sched/sched_wakeup; do
	[[ -d /sys/kernel/tracing/events/$ev ]] || fail "tracepoint $ev missing"
done
grep -q '^Timer List Version: v0\.9' /proc/timer_list || fail "unexpected /proc/timer_list version"
pass "emu-cpufreq on $(online_cpus | wc -l) CPUs, 6 governors, timechart tracepoints"

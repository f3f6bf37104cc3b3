#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In the guest: whether emu-cpufreq registered, as the kernel command line
# and the CPU model (guest-run --append, --cpu) say it should.
#
# Usage: emu-params.sh registered
#        emu-params.sh refused REGEX
# "refused": the driver logged a line matching REGEX (grep -E) and no CPU
# has a cpufreq policy; "registered": the driver registered a policy.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

want=${1:?usage: emu-params.sh registered | refused REGEX}
log=$(dmesg | grep -E 'emu_cpufreq|emu-cpufreq' || true)
printf '# %s\n' "$log"
if [[ $want == registered ]]; then
	[[ -d /sys/devices/system/cpu/cpufreq/policy0 ]] || fail "emu-cpufreq did not register"
	[[ $(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_driver) == emu-cpufreq ]] ||
		fail "the cpufreq driver is $(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_driver)"
	pass "emu-cpufreq registered"
else
	re=${2:?refused needs a REGEX}
	[[ ! -e /sys/devices/system/cpu/cpufreq/policy0 ]] || fail "emu-cpufreq registered, want it refused"
	grep -Eq -- "$re" <<<"$log" || fail "no kernel message matching '$re'"
	pass "emu-cpufreq refused: $(grep -E -m1 -- "$re" <<<"$log")"
fi

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In the guest: the KUnit results of the boot, from the kernel log. The lab
# kernels build KUnit in (kernel/config/lab.config); built-in suites run at
# boot and print KTAP.
#
# Expected, by kernel ($IFM_VARIANT):
#   patched, debug  the suite tick_sched_sleep_time (the series' KUnit patch) ran all of
#                   its cases, none failed or was skipped
#   baseline        no tick_sched_sleep_time suite (its code is not there)
#   all             no KUnit test anywhere reported "not ok"
#
# Usage: kunit.sh
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

(($# == 0)) || fail "usage: kunit.sh"
variant=${IFM_VARIANT:?IFM_VARIANT must name the kernel variant}
suite=tick_sched_sleep_time
cases=12
log=$(mktemp)
dmesg -t >"$log" || fail "cannot read the kernel log"
grep -q 'KTAP version' "$log" || fail "no KTAP output in the kernel log: is KUnit built in?"

if grep -E '^ *not ok ' "$log"; then
	fail "a KUnit test failed"
fi
pass "no KUnit test reported 'not ok'"

case $variant in
patched | debug)
	sed -n "/# Subtest: $suite\$/,/^ok [0-9]* $suite\$/p" "$log" >"$log.suite"
	cat "$log.suite"
	grep -qE "^ok [0-9]+ $suite\$" "$log.suite" || fail "suite $suite did not pass (or did not run)"
	line=$(grep -E "# Totals: pass:" "$log.suite") || fail "no totals line for $suite"
	line=$(xargs <<<"$line")
	[[ $line == *"pass:$cases fail:0 skip:0 total:$cases" ]] ||
		fail "$suite: '$line', want all $cases cases passed"
	pass "$suite: $line"
	;;
baseline)
	! grep -q "$suite" "$log" || fail "baseline ran $suite: is this the patched kernel?"
	pass "baseline has no $suite suite"
	;;
*) fail "unknown kernel variant '$variant'" ;;
esac

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In the guest: ondemand on one policy shared by both CPUs (boot with
# emu_cpufreq.shared=1), an unpinned task that alternates direct I/O and CPU
# bursts, then every CPU idle. io-alternate reads a block with O_DIRECT from
# a throttled one-queue disk, then computes for BURST_MS, for SECONDS, while
# cross-wake.py moves it to the other CPU whenever it sleeps on its I/O, so
# its wake-ups leave the CPU it slept on idle with no waiter. When it exits,
# a last task reads one block on cpu1 through dm-delay (100 ms) and is
# moved to cpu0 while it waits,
# so the last wake-up leaves cpu1 idle; from its exit on, a poller on cpu0
# reads the policy's frequency every millisecond. The RCU grace-period
# kthread moves to cpu0, or each exit would wake cpu1.
#
# A CPU whose idle period kept counting iowait after its waiter was woken
# elsewhere looks fully busy to ondemand with io_is_busy=1, and on a shared
# policy holds every CPU at fmax until its next interrupt.
#
# Expected, by kernel ($IFM_VARIANT):
#   patched   during the run, the policy spends at least half its time at
#             the two top P-states (governor-io's criterion for a per-CPU
#             policy); the policy is at fmax when the task exits and leaves
#             it within 3 of ondemand's sampling periods
#   baseline  (io_is_busy=0 by default) the figures, not asserted
#   all       a try in which the policy is not at fmax when the task exits
#             tells nothing about leaving it; up to TRIES are made
#
# Usage: shared-policy.sh DISK [SECONDS [BURST_MS [TRIES]]]
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

bin=${IFM_BIN_DIR:?IFM_BIN_DIR must name the folder with io-alternate}
disk=${1:?usage: shared-policy.sh DISK [SECONDS [BURST_MS [TRIES]]]}
secs=${2:-5}
burst_ms=${3:-2}
tries=${4:-3}
variant=${IFM_VARIANT:?IFM_VARIANT must name the kernel variant}
here=$(dirname "$0")
[[ -x $bin/io-alternate && -x $bin/cpuloop ]] || fail "io-alternate or cpuloop not built in $bin"
[[ -b $disk ]] || fail "$disk is not a block device"
pol=/sys/devices/system/cpu/cpufreq/policy0
[[ $(xargs <$pol/related_cpus) == "0 1" ]] ||
	fail "policy0 covers CPUs '$(xargs <$pol/related_cpus)': boot with emu_cpufreq.shared=1"
[[ -f $pol/stats/time_in_state ]] || fail "no cpufreq stats (CONFIG_CPU_FREQ_STAT)"
fmax=$(cat $pol/cpuinfo_max_freq)
out=$(mktemp -d)

cal=$(burst_calibrate "$bin" "$burst_ms")
read -r lps chunks <<<"$cal"
# The last read goes through dm-delay (100 ms), so that it surely sleeps.
sectors=$(blockdev --getsz "$disk")
dmsetup create ifm-last --noudevsync --table "0 $sectors delay $disk 0 100" ||
	fail "dmsetup create failed (CONFIG_DM_DELAY?)"
trap 'dmsetup remove ifm-last >/dev/null 2>&1 || true' EXIT
dmsetup mknodes ifm-last
# The RCU grace-period kthread otherwise wakes cpu1 whenever a task exits.
rcu=$(pgrep -x rcu_preempt || pgrep -x rcu_sched) || fail "no RCU grace-period kthread"
taskset -p -c 0 "$rcu" >/dev/null || fail "cannot move the RCU kthread to cpu0"
cpupower -c all frequency-set -g ondemand >/dev/null || fail "cannot switch to ondemand"
gov=/sys/devices/system/cpu/cpufreq/ondemand
rate_us=$(cat $gov/sampling_rate)
echo "shared policy: CPUs $(xargs <$pol/related_cpus), ondemand io_is_busy=$(cat $gov/io_is_busy)," \
	"sampling_rate=$rate_us us, fmax=$fmax kHz, burst $burst_ms ms ($chunks chunks)"

for ((t = 1; t <= tries; t++)); do
	sleep 1
	cp $pol/stats/time_in_state "$out/tis0"
	"$bin/io-alternate" -t "$secs" -w "$chunks" "$disk" >"$out/io" &
	io=$!
	python3 "$here/cross-wake.py" "$((secs + 1))" "$io" >"$out/moves" &
	cross=$!
	# After the task exits (a zombie until we wait for it): one last read
	# by a task on cpu1, moved to cpu0 while it sleeps, so the last wake-up
	# is a remote one; then the frequency at its exit and the ms until the
	# policy leaves fmax (-1: not within 2 s).
	python3 - "$io" /dev/mapper/ifm-last "$pol/scaling_cur_freq" "$fmax" >"$out/leave" <<'PY'
import mmap, os, sys, time
pid, disk, cur, fmax = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
os.sched_setaffinity(0, {0})
def state(p):
    try:
        with open(f'/proc/{p}/stat', 'rb') as f:
            return f.read().rsplit(b')', 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return b'X'
def freq():
    with open(cur) as f:
        return int(f.read())
while state(pid) not in (b'Z', b'X'):
    time.sleep(0.001)
child = os.fork()
if child == 0:
    os.sched_setaffinity(0, {1})
    fd = os.open(disk, os.O_RDONLY | os.O_DIRECT)
    os.preadv(fd, [mmap.mmap(-1, 4096)], 0)
    os._exit(0)
st = state(child)
while st not in (b'D', b'Z', b'X'):
    time.sleep(0.0002)
    st = state(child)
remote = 0
if st == b'D':
    os.sched_setaffinity(child, {0})
    remote = 1
os.waitpid(child, 0)
end = time.monotonic()
at_end = freq()
leave = -1.0
while time.monotonic() - end < 2.0:
    if freq() < fmax:
        leave = (time.monotonic() - end) * 1000
        break
    time.sleep(0.001)
print(at_end, round(leave, 1), remote)
PY
	wait "$io" || fail "io-alternate failed"
	wait "$cross" || fail "cross-wake.py failed"
	cp $pol/stats/time_in_state "$out/tis1"
	read -r at_end leave_ms remote <"$out/leave"
	# top: the share of the two highest P-states during the run
	top=$(paste "$out/tis0" "$out/tis1" | sort -n -k1,1 | awk '
		{ d[NR] = $4 - $2; s += d[NR] } END { printf "%.2f", s ? (d[NR] + d[NR - 1]) / s : 0 }')
	echo "try $t: $(cat "$out/io"); $(cat "$out/moves") top_share=$top freq_at_exit=$at_end leave_ms=$leave_ms remote_last_wakeup=$remote"
	[[ $at_end == "$fmax" && $remote == 1 ]] && break
done

limit_ms=$((3 * rate_us / 1000))
case $variant in
patched)
	awk -v t="$top" 'BEGIN { exit !(t >= 0.5) }' ||
		fail "the shared policy spent only $top of the run at the top P-states, want >= 0.5"
	pass "the shared policy spent $top of the run at the top P-states"
	[[ $at_end == "$fmax" && $remote == 1 ]] ||
		fail "no try ended at fmax with a remote last wake-up ($tries tries)"
	awk -v l="$leave_ms" -v m="$limit_ms" 'BEGIN { exit !(l >= 0 && l <= m) }' ||
		fail "the policy left fmax ${leave_ms} ms after the last task exited, want <= $limit_ms (3 sampling periods; -1: not in 2 s)"
	pass "the policy left fmax $leave_ms ms after the last task exited (limit $limit_ms ms)"
	;;
baseline)
	pass "baseline: top share $top, at exit $at_end kHz, left fmax after $leave_ms ms (reported, not asserted)"
	;;
*) fail "unknown kernel variant '$variant'" ;;
esac

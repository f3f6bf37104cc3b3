#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# In the guest: the remote wake-up. A task blocks in iowait on cpu1 behind a
# slow device (dm-delay, DELAY_MS per read); while it sleeps its affinity
# moves to cpu0, and the disk's only interrupt is on cpu0 (guest-run
# --disk-device-opts num-queues=1,vectors=0: one queue, on a legacy
# interrupt, as the kernel would not let a managed MSI-X vector move), so its wake-up runs on cpu0 and cpu1 stays idle with no I/O
# waiter left. remote-wakeup.py records one such try with the kernel's trace
# and cpu1's timer_list sums, and judges it: cpu1's iowait must not grow
# after the wake-up (at most 1 us, at ns resolution), and while the task
# waited it must match cpu1's idle time in the trace (10%).
#
# A try in which cpu1 leaves idle within 100 us of the first snapshot after
# the wake-up cannot tell (a kernel that keeps counting iowait would show
# less than that); it is repeated, up to TRIES times. The RCU grace-period
# kthread is moved to cpu0 for the test: it otherwise wakes cpu1 whenever
# the test's own processes leave RCU callbacks behind.
#
# Usage: remote-wakeup.sh DISK [DELAY_MS [TRIES]]
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

disk=${1:?usage: remote-wakeup.sh DISK [DELAY_MS [TRIES]]}
delay_ms=${2:-300}
tries=${3:-6}
[[ -b $disk ]] || fail "$disk is not a block device"
name=$(basename "$disk")
mq=(/sys/block/"$name"/mq/*)
((${#mq[@]} == 1)) || fail "$disk has ${#mq[@]} request queues, want 1 (guest-run --disk-device-opts num-queues=1,vectors=0)"

# The disk's interrupt: cpu0, so the completion and the wake-up run there.
virtio=$(basename "$(readlink -f "/sys/block/$name/device")")
irq=$(awk -v d="$virtio" '$NF == d || $NF ~ "^" d "-req" { sub(":", "", $1); print $1 }' /proc/interrupts)
[[ -n $irq ]] || fail "no interrupt of $virtio in /proc/interrupts"
echo 0 >"/proc/irq/$irq/smp_affinity_list" 2>/dev/null || true
[[ $(cat "/proc/irq/$irq/effective_affinity_list") == 0 ]] ||
	fail "irq $irq of $disk is on cpu$(cat "/proc/irq/$irq/effective_affinity_list"), want cpu0"
echo 0 >"/sys/block/$name/queue/rq_affinity"

rcu=$(pgrep -x rcu_preempt || pgrep -x rcu_sched) || fail "no RCU grace-period kthread"
taskset -p -c 0 "$rcu" >/dev/null || fail "cannot move the RCU kthread to cpu0"

sectors=$(blockdev --getsz "$disk")
dmsetup create ifm-rw --noudevsync --table "0 $sectors delay $disk 0 $delay_ms" ||
	fail "dmsetup create failed (CONFIG_DM_DELAY?)"
trap 'dmsetup remove ifm-rw >/dev/null 2>&1 || true' EXIT
dmsetup mknodes ifm-rw
mountpoint -q /sys/kernel/tracing || mount -t tracefs none /sys/kernel/tracing

echo "remote-wakeup: $IFM_VARIANT kernel, $disk behind dm-delay $delay_ms ms, irq $irq on cpu0"
blocks=$((sectors / 8))
for ((t = 1; t <= tries; t++)); do
	rc=0
	line=$(python3 "$(dirname "$0")/remote-wakeup.py" /dev/mapper/ifm-rw \
		$(((t * 7919 % blocks) * 4096)) 1.0) || rc=$?
	echo "try $t: $line"
	case $rc in
	0) pass "cpu1's iowait stopped at the remote wake-up (try $t)"; exit 0 ;;
	1) fail "try $t: ${line##*why=}" ;;
	3) ;;
	*) fail "remote-wakeup.py failed (status $rc)" ;;
	esac
done
fail "no conclusive try in $tries: cpu1 never stayed idle 100 us past the first snapshot after the wake-up"

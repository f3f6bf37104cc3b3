#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One try of the remote wake-up test, in a lab guest; remote-wakeup.sh sets up.

A child on cpu1 reads one block of DEVICE with O_DIRECT and blocks in iowait
(io_schedule()). Once it sleeps, its affinity moves to cpu0, so the wake-up
by the I/O completion (the disk's interrupt on cpu0) runs on cpu0 and moves
it there: cpu1 stays idle and its nr_iowait drops to 0 remotely. Meanwhile
this process, on cpu0, reads /proc/timer_list over and over (cpu1's "now",
idle and iowait sums, at ns resolution) while the kernel's trace records
cpu1's idle periods (power:cpu_idle), the child's block (sched:sched_switch)
and its wake-up (sched:sched_wakeup), on the mono trace clock, which is the
clock of timer_list's "now at".

The figure: cpu1's iowait accrued after the wake-up, the growth of its
iowait sum from the first snapshot after the wake-up to the last, TAIL
seconds later. Exact accounting gives 0; an idle period classified once, at
its entry, keeps counting iowait until cpu1 next leaves idle. The try is
conclusive only when cpu1 stayed idle for at least 100 us after that first
snapshot, so that such a kernel would show at least that much.

Prints one line of key=value figures; exit status 0 for a conclusive try that
passes, 1 for one that fails, 3 for an inconclusive one, 2 on bad usage.
"""

import collections
import mmap
import os
import re
import select
import sys
import time

TRACEFS = '/sys/kernel/tracing'
EVENTS = ('power/cpu_idle', 'sched/sched_switch', 'sched/sched_wakeup',
          'irq_vectors/local_timer_entry',
          'irq_vectors/call_function_single_entry',
          'irq_vectors/call_function_entry', 'irq_vectors/reschedule_entry',
          'irq_vectors/irq_work_entry', 'irq/irq_handler_entry',
          'timer/hrtimer_expire_entry', 'tlb/tlb_flush')
IRQ_EVENTS = ('local_timer_entry', 'call_function_single_entry',
              'call_function_entry', 'reschedule_entry', 'irq_work_entry',
              'irq_handler_entry')
IDLE_EXIT = 4294967295
MIN_WINDOW_NS = 100000      # cpu1 idle this long after the first snapshot
MAX_AFTER_NS = 1000         # iowait allowed after the wake-up
FIELD = re.compile(rb'^  \.(idle_sleeptime|iowait_sleeptime|idle_iowait|'
                   rb'idle_active)\s*: (\d+)', re.M)
LINE = re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+(\d+)\.(\d+): '
                  r'(\w+): (.*)$')


def tracefs(name, value):
    with open(os.path.join(TRACEFS, name), 'w') as f:
        f.write(value)


def trace_start():
    tracefs('tracing_on', '0')
    tracefs('trace_clock', 'mono')
    tracefs('buffer_size_kb', '8192')
    for e in EVENTS:
        tracefs(f'events/{e}/enable', '1')
    tracefs('trace', '')
    tracefs('tracing_on', '1')


def trace_stop():
    tracefs('tracing_on', '0')
    for e in EVENTS:
        tracefs(f'events/{e}/enable', '0')
    with open(os.path.join(TRACEFS, 'trace')) as f:
        return f.read()


def cpu1_fields(text):
    """(now, idle, iowait, idle_iowait or None) of cpu1 in one timer_list read."""
    now = int(re.search(rb'now at (\d+) nsecs', text).group(1))
    start = text.index(b'\ncpu: 1\n')
    end = text.find(b'\ncpu: ', start + 8)
    block = text[start:end if end > 0 else len(text)]
    f = {m.group(1): int(m.group(2)) for m in FIELD.finditer(block)}
    return (now, f[b'idle_sleeptime'], f[b'iowait_sleeptime'],
            f.get(b'idle_iowait'))


def child(device, offset, wfd):
    os.sched_setaffinity(0, {1})
    fd = os.open(device, os.O_RDONLY | os.O_DIRECT)
    buf = mmap.mmap(-1, 4096)
    time.sleep(0.05)        # let cpu1 settle after the fork
    n = os.preadv(fd, [buf], offset)
    os.write(wfd, b'%d' % n)
    time.sleep(30)          # no exit while the parent still samples
    os._exit(0)


def task_state(pid):
    with open(f'/proc/{pid}/stat', 'rb') as f:
        return f.read().rsplit(b')', 1)[1].split()[0]


def run(device, offset, tail):
    """Run the try; return (child pid, snapshots, trace text)."""
    os.sched_setaffinity(0, {0})
    rfd, wfd = os.pipe()
    trace_start()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        child(device, offset, wfd)
    os.close(wfd)
    snaps, moved, woke_at = [], False, None
    tl = open('/proc/timer_list', 'rb', buffering=0)
    try:
        while woke_at is None or time.monotonic() - woke_at < tail:
            tl.seek(0)
            snaps.append(cpu1_fields(tl.readall()))
            if not moved and task_state(pid) == b'D':
                os.sched_setaffinity(pid, {0})
                moved = True
            if woke_at is None and select.select([rfd], [], [], 0)[0]:
                if os.read(rfd, 16) != b'4096':
                    raise SystemExit('remote-wakeup: the child\'s read failed')
                woke_at = time.monotonic()
            if len(snaps) > 200000:
                raise SystemExit('remote-wakeup: the read never completed')
    finally:
        trace = trace_stop()
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    if not moved:
        raise SystemExit('remote-wakeup: the child was never seen in D state')
    return pid, snaps, trace


def parse_trace(text, pid):
    """cpu1's idle periods, its interrupts, the child's block and wake-up."""
    periods, irqs, timers, woken = [], [], {}, []
    block = wake = None
    entered = None
    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        cpu, ev, rest = int(m.group(3)), m.group(6), m.group(7)
        ts = int(m.group(4)) * 1000000000 + int(m.group(5)) * 1000
        if ev == 'sched_wakeup' and f'pid={pid} ' in rest and block:
            tgt = int(re.search(r'target_cpu=(\d+)', rest).group(1))
            wake = wake or (ts, cpu, tgt)
        if ev == 'sched_wakeup' and 'target_cpu=001' in rest:
            woken.append((ts, re.search(r'comm=(\S+)', rest).group(1)))
        if cpu != 1:
            continue
        if ev == 'cpu_idle':
            state = int(re.search(r'state=(\d+)', rest).group(1))
            if state != IDLE_EXIT:
                entered = ts
            elif entered is not None:
                periods.append((entered, ts))
                entered = None
        elif ev == 'sched_switch' and f'prev_pid={pid} ' in rest \
                and 'prev_state=D' in rest:
            block = block or ts
        elif ev in IRQ_EVENTS:
            irqs.append((ts, ev))
        elif ev == 'tlb_flush' and 'reason:remote shootdown' in rest:
            irqs.append((ts, 'tlb_shootdown'))
        elif ev == 'hrtimer_expire_entry':
            fn = re.search(r'function=(\S+)', rest).group(1)
            timers.setdefault(fn, []).append(ts)
    if entered is not None:
        periods.append((entered, None))
    return periods, irqs, timers, woken, block, wake


def judge(pid, snaps, trace):
    periods, irqs, timers, woken, block, wake = parse_trace(trace, pid)
    out = {}
    if block is None or wake is None:
        return 3, {'why': 'no block on cpu1 or no wake-up in the trace'}
    t_wake, waker, target = wake
    out.update(waker_cpu=waker, target_cpu=target)
    if waker != 0 or target != 0:
        return 3, dict(out, why=f'wake-up ran on cpu{waker} to cpu{target}')
    period = next(((e, x) for e, x in periods
                   if e <= t_wake and (x is None or x > t_wake)), None)
    if period is None:
        return 3, dict(out, why='cpu1 was not idle at the wake-up')
    after = [s for s in snaps if s[0] > t_wake + 1000]
    before = [s for s in snaps if s[0] < block]
    if not after or not before:
        return 3, dict(out, why='no snapshot before the block or after the wake-up')
    a, z, b = after[0], after[-1], before[-1]
    exit_ts = period[1] if period[1] is not None else z[0]
    window = exit_ts - a[0]
    out.update(first_snapshot_after_wakeup_ns=a[0] - t_wake,
               cpu1_idle_after_it_ns=window,
               iowait_after_wakeup_ns=z[2] - a[2],
               pending_class_at_it=('n/a' if a[3] is None else
                                    ('iowait' if a[3] else 'idle')))
    # iowait before the wake-up: the trace's idle time of cpu1 while the
    # child waited, against the growth of the sum up to the wake-up
    want = sum(max(0, min(x if x is not None else t_wake, t_wake) - max(e, block))
               for e, x in periods)
    out.update(idle_while_waiting_ns=want, iowait_while_waiting_ns=a[2] - b[2])
    quiet = [t for t, _ in irqs if t >= t_wake]
    kinds = {}
    for t, e in irqs:
        if t >= t_wake:
            kinds[e.replace('_entry', '')] = kinds.get(e.replace('_entry', ''), 0) + 1
    span = (z[0] - t_wake) / 1e9
    out.update(cpu1_interrupts_per_s=round(len(quiet) / span, 1) if span > 0 else 0,
               cpu1_local_timer_per_s=round(
                   sum(1 for t, e in irqs if t >= t_wake and
                       e == 'local_timer_entry') / span, 1) if span > 0 else 0,
               cpu1_interrupts=','.join(
                   f'{e}:{n}' for e, n in sorted(kinds.items())),
               cpu1_woken=','.join(f'{c}:{n}' for c, n in sorted(
                   collections.Counter(c for t, c in woken if t >= t_wake).items())),
               cpu1_ticks_per_s=round(
                   sum(1 for t in timers.get('tick_sched_timer', [])
                       if t >= t_wake) / span, 1) if span > 0 else 0,
               snapshots=len(snaps))
    if window < MIN_WINDOW_NS:
        return 3, dict(out, why=f'cpu1 left idle {window} ns after the first snapshot')
    if out['iowait_after_wakeup_ns'] > MAX_AFTER_NS:
        return 1, dict(out, why='iowait accrued on idle cpu1 after the wake-up')
    if want and abs(out['iowait_while_waiting_ns'] - want) > want // 10:
        return 1, dict(out, why='iowait while waiting is not the idle time '
                       'of cpu1 (10% tolerance)')
    return 0, out


def main(argv):
    if len(argv) != 4:
        print('usage: remote-wakeup.py DEVICE OFFSET TAIL_S', file=sys.stderr)
        return 2
    device, offset, tail = argv[1], int(argv[2]), float(argv[3])
    pid, snaps, trace = run(device, offset, tail)
    status, out = judge(pid, snaps, trace)
    print(' '.join(f'{k}={v}' for k, v in out.items()))
    return status


if __name__ == '__main__':
    sys.exit(main(sys.argv))

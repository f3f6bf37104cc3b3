#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Make I/O waiters wake up on another CPU than the one they slept on.

Usage: cross-wake.py SECONDS PID...

For SECONDS, every 2 ms: each PID that sleeps in D state (blocked on its
I/O) gets the affinity of one online CPU other than the one it last ran on,
so the scheduler has to move it at its wake-up and the wake-up drops the
nr_iowait of a runqueue it no longer runs on. A CPU that is offline at the
time is skipped. Prints 'moves=N' (affinity changes of sleeping tasks);
exit status 0, or 2 on bad usage.
"""

import os
import sys
import time


def state_and_cpu(pid):
    with open(f'/proc/{pid}/stat', 'rb') as f:
        fields = f.read().rsplit(b')', 1)[1].split()
    return fields[0], int(fields[36])     # state, processor (field 39)


def online_cpus():
    return {c for c in range(os.cpu_count() or 1) if c == 0 or _online(c)}


def _online(cpu):
    try:
        with open(f'/sys/devices/system/cpu/cpu{cpu}/online') as f:
            return f.read().strip() == '1'
    except FileNotFoundError:
        return True


def main(argv):
    if len(argv) < 3:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    end = time.monotonic() + float(argv[1])
    pids = [int(p) for p in argv[2:]]
    moves = 0
    while time.monotonic() < end and pids:
        cpus = online_cpus()
        for pid in list(pids):
            try:
                state, cpu = state_and_cpu(pid)
                others = sorted(cpus - {cpu})
                if state == b'D' and others and \
                        os.sched_getaffinity(pid) != {others[0]}:
                    os.sched_setaffinity(pid, {others[0]})
                    moves += 1
            except (ProcessLookupError, FileNotFoundError):
                pids.remove(pid)
            except OSError:
                pass        # the CPU went offline meanwhile
        time.sleep(0.002)
    print(f'moves={moves}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of scripts/trace-timeline on hand-written `perf script` text.

Usage: test_trace_timeline.py [unittest arguments, e.g. TimelineTest]

fixture.perf-script.txt, window 100.000 to 100.010 s (first and last
event), times below in ms after 100.000, rows of 1 ms ending at 1..10 ms.

cpu0 (frequency event at 0: 2400 MHz from the start)
  busy [0, 2)         first cpu_idle event is an entry at 2.0: busy before
  idle [2, 5.5)       no task blocked on cpu0
  busy [5.5, 6)       cpu_idle exit 5.5 .. entry 6.0 (wakes pid 200 at 5.6)
  idle [6, 10)        frequency 800 MHz from 7.25 (inside the idle period;
                      the event is emitted on cpu1's line, cpu_id=0 counts)
  totals: busy 2.5, idle 7.5, iowait 0 ms; busy all at 2400 -> mean 2400,
  time in state {2400: 1}; residency 2400: 7.25 ms (busy 2.5), 800: 2.75.
  rows: 1.0 busy, 1.0 busy, idle x3, [5,6) idle 0.5 busy 0.5, idle x4;
  freq at the end: 2400000 up to the row ending at 7, then 800000.

cpu1 (pid 200 "worker")
  busy [0, 1.2)       first cpu_idle event is an entry at 1.2
                      (pid 200 blocks in D at 1.0 on cpu1: busy still wins)
  iowait [1.2, 5.6)   idle with pid 200 blocked here; its wake-up runs on
                      cpu0 at 5.6 (target_cpu=001) and ends it
  idle [5.6, 5.8)     still in cpu_idle after the wake-up
  busy [5.8, 8.3)     (pid 200 sleeps in S at 8.0: not iowait)
  idle [8.3, 10)
  frequency: initial (--initial-freq-khz) until 3.5, then 1200 MHz
  (event on cpu2's line, during cpu1's iowait).
  totals: busy 1.2 + 2.5 = 3.7, iowait 4.4, idle 0.2 + 1.7 = 1.9 ms.
  With an initial 2000 MHz: busy 1.2 ms at 2000, 2.5 at 1200:
  mean = (1.2 x 2000 + 2.5 x 1200) / 3.7 = 5400 / 3.7 = 1459.459 MHz,
  time in state {1200: 2.5/3.7 = 0.675676, 2000: 1.2/3.7 = 0.324324}.
  With an unknown initial: busy at a known frequency only [5.8, 8.3):
  mean 1200, {1200: 1}, freq_unknown 3.5 ms; rows whose interval starts
  before 3.5 (those ending at 1, 2, 3, 4) invalid.
  rows: [0,1) busy 1; [1,2) busy 0.2 iowait 0.8; [2,3) [3,4) [4,5) iowait
  1; [5,6) iowait 0.6 idle 0.2 busy 0.2; [6,7) [7,8) busy 1; [8,9) busy
  0.3 idle 0.7; [9,10) idle 1.

cpu2: never idles (no cpu_idle event at all, only sched events): busy
  throughout. Frequency initial until 5.75, then 1600 MHz (event emitted on
  cpu0's line). With 2000 initial: mean = (5.75 x 2000 + 4.25 x 1600) / 10
  = 1830 MHz, {1600: 0.425, 2000: 0.575}. Unknown initial: mean 1600,
  rows ending at 1..6 invalid (the one ending at 6 starts at 5 < 5.75).
"""
import importlib.machinery
import importlib.util
import json
import os
import random
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOP = HERE.parent.parent
TOOL = TOP / "scripts" / "trace-timeline"
REPORT = TOP / "scripts" / "report"
FIXTURE = HERE / "fixture.perf-script.txt"
sys.dont_write_bytecode = True   # loading the scripts writes no __pycache__


def load_module(name, path):
    loader = importlib.machinery.SourceFileLoader(name, str(path))
    spec = importlib.util.spec_from_loader(name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


tt = load_module("trace_timeline", TOOL)


def run(*args, stdin=None):
    return subprocess.run([sys.executable, str(TOOL), *map(str, args)], input=stdin,
                          capture_output=True, text=True, check=False)


# (busy, idle, iowait) per row of 1 ms, rows ending at 1..10 ms (see above)
ROWS = {
    0: ["1 0 0", "1 0 0", "0 1 0", "0 1 0", "0 1 0", ".5 .5 0", "0 1 0",
        "0 1 0", "0 1 0", "0 1 0"],
    1: ["1 0 0", ".2 0 .8", "0 0 1", "0 0 1", "0 0 1", ".2 .2 .6", "1 0 0",
        "1 0 0", ".3 .7 0", "0 1 0"],
    2: ["1 0 0"] * 10,
}
# frequency at the end of each row, with an initial 2000000 kHz
FREQ = {
    0: [2400000] * 7 + [800000] * 3,
    1: [2000000] * 3 + [1200000] * 7,
    2: [2000000] * 5 + [1600000] * 5,
}
HEADER = "time_s\tcpu\tbusy\tidle\tiowait\tfreq_khz\tvalid"


def expected_row(i, cpu, valid=True, freq=None):
    b, d, w = (float(x) for x in ROWS[cpu][i].split())
    if not valid:
        b = d = w = 0.0
    f = FREQ[cpu][i] if freq is None else freq
    return f"0.{i + 1:03d}000\t{cpu}\t{b:.4f}\t{d:.4f}\t{w:.4f}\t{f}\t{int(valid)}"


def data_rows(tsv_text):
    lines = tsv_text.splitlines()
    h = lines.index(HEADER)
    return [l for l in lines[h + 1:] if not l.startswith("#")]


class TimelineTest(unittest.TestCase):
    """The fixture's rows and totals, derived by hand in the docstring."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="trace-timeline-test.")
        cls.tsv = Path(cls.tmp) / "trace.tsv"
        cls.totals_path = Path(cls.tmp) / "totals.json"
        p = run("--initial-freq-khz", "2000000", "--totals", cls.totals_path,
                "-o", cls.tsv, FIXTURE)
        if p.returncode != 0:
            raise AssertionError(f"trace-timeline failed: {p.stderr}")
        cls.stderr = p.stderr
        cls.text = cls.tsv.read_text()
        cls.totals = json.loads(cls.totals_path.read_text())

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_header(self):
        lines = self.text.splitlines()
        self.assertEqual(lines[0], f"# trace-timeline {tt.VERSION}")
        self.assertIn("# interval_us: 1000", lines)
        self.assertIn("# cpus: 0-2", lines)
        self.assertIn("# kernel: 6.1.0-lab-patched", lines)
        self.assertIn("# start_trace_ns: 100000000000", lines)
        # exactly one uncommented line before the rows: the column header
        first = next(l for l in lines if not l.startswith("#"))
        self.assertEqual(first, HEADER)
        # no sched_stat_iowait in the fixture: the approximation is stated
        iow = [l for l in lines if l.startswith("# iowait:")]
        self.assertEqual(len(iow), 1)
        self.assertIn("approximation", iow[0])
        self.assertIn("approximation", self.stderr)
        self.assertTrue(self.totals["iowait_approximation"])
        self.assertEqual(self.totals["iowait_source"], "dstate")

    def test_rows(self):
        want = [expected_row(i, cpu) for i in range(10) for cpu in (0, 1, 2)]
        self.assertEqual(data_rows(self.text), want)

    def test_never_idle_cpu(self):
        c = self.totals["cpus"]["2"]
        self.assertAlmostEqual(c["busy_s"], 0.010, places=12)
        self.assertEqual(c["idle_s"], 0)
        self.assertEqual(c["iowait_s"], 0)
        self.assertEqual(c["busy_share"], 1.0)
        self.assertAlmostEqual(c["mean_busy_mhz"], 1830.0, places=9)
        self.assertAlmostEqual(c["time_in_state"]["2000"], 0.575, places=12)
        self.assertAlmostEqual(c["time_in_state"]["1600"], 0.425, places=12)

    def test_freq_change_in_idle(self):
        c = self.totals["cpus"]["0"]
        self.assertAlmostEqual(c["busy_s"], 0.0025, places=12)
        self.assertAlmostEqual(c["idle_s"], 0.0075, places=12)
        self.assertEqual(c["iowait_s"], 0)
        self.assertAlmostEqual(c["mean_busy_mhz"], 2400.0, places=9)
        self.assertEqual(c["time_in_state"], {"2400": 1.0})
        res = {r["freq_khz"]: r for r in c["freq_residency"]}
        self.assertEqual(sorted(res), [800000, 2400000])
        self.assertAlmostEqual(res[2400000]["time_s"], 0.00725, places=12)
        self.assertAlmostEqual(res[2400000]["busy_s"], 0.0025, places=12)
        self.assertAlmostEqual(res[800000]["time_s"], 0.00275, places=12)
        self.assertAlmostEqual(res[800000]["idle_s"], 0.00275, places=12)
        self.assertEqual(res[800000]["busy_s"], 0)

    def test_remote_wakeup_ends_iowait(self):
        c = self.totals["cpus"]["1"]
        self.assertAlmostEqual(c["busy_s"], 0.0037, places=12)
        self.assertAlmostEqual(c["iowait_s"], 0.0044, places=12)
        self.assertAlmostEqual(c["idle_s"], 0.0019, places=12)
        self.assertAlmostEqual(c["busy_share"], 0.37, places=12)
        self.assertAlmostEqual(c["iowait_share"], 0.44, places=12)
        self.assertAlmostEqual(c["mean_busy_mhz"], 5400 / 3.7, places=9)
        self.assertAlmostEqual(c["time_in_state"]["2000"], 1.2 / 3.7, places=12)
        self.assertAlmostEqual(c["time_in_state"]["1200"], 2.5 / 3.7, places=12)
        # and cpu0, where the wake-up ran, has no iowait
        self.assertEqual(self.totals["cpus"]["0"]["iowait_s"], 0)

    def test_events_counted(self):
        ev = self.totals["events"]
        self.assertEqual(ev["power:cpu_idle"], 6)
        self.assertEqual(ev["power:cpu_frequency"], 4)
        self.assertEqual(ev["sched:sched_switch"], 8)
        self.assertEqual(ev["sched:sched_wakeup"], 2)
        self.assertEqual(ev["block:block_rq_issue"], 1)
        self.assertEqual(self.totals["anomalies"], {})
        self.assertEqual(self.totals["window"],
                         {"start_ns": 100_000_000_000, "end_ns": 100_010_000_000,
                          "duration_s": 0.01})

    def test_out_of_order(self):
        """The fixture is grouped by CPU; any other order of its lines gives
        the same output, and without the sort pid 200's iowait would not
        end at its wake-up (which comes first in the file)."""
        lines = FIXTURE.read_text().splitlines(keepends=True)
        head = [l for l in lines if l.startswith("#")]
        body = [l for l in lines if not l.startswith("#")]
        rng = random.Random(15)
        for _ in range(3):
            rng.shuffle(body)
            p = run("--initial-freq-khz", "2000000", "-", stdin="".join(head + body))
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(data_rows(p.stdout), data_rows(self.text))
        # the file order really matters: in file order (events unsorted)
        # the wake-up of pid 200 precedes its block, which then only ends
        # when pid 200 runs again at 5.9 (an anomaly): iowait [1.2, 5.8)
        text = FIXTURE.read_text()
        self.assertLess(text.index("sched_wakeup: comm=worker pid=200"),
                        text.index("prev_pid=200 prev_prio=120 prev_state=D"))
        trace = tt.parse_trace(text, "fixture")
        trace.events.sort(key=lambda e: e[1])          # back to file order
        t = tt.analyse(trace, initial_freq=2000000).totals
        self.assertAlmostEqual(t["cpus"]["1"]["iowait_s"], 0.0046, places=12)
        self.assertEqual(t["anomalies"], {"switch_in_while_blocked": 1})

    def test_unknown_initial_freq(self):
        p = run("--initial-freq-khz", "unknown", FIXTURE)
        self.assertEqual(p.returncode, 0, p.stderr)
        rows = data_rows(p.stdout)
        want = []
        for i in range(10):
            for cpu in (0, 1, 2):
                if cpu == 1 and i < 4:
                    # unknown at the end of rows 1-3 -> 0; row 4 ends at 1200000
                    want.append(expected_row(i, 1, False, 0 if i < 3 else 1200000))
                elif cpu == 2 and i < 6:
                    want.append(expected_row(i, 2, False, 0 if i < 5 else 1600000))
                else:
                    want.append(expected_row(i, cpu))
        self.assertEqual(rows, want)
        t = tt.analyse((FIXTURE.read_text(), "fixture")).totals
        c1, c2 = t["cpus"]["1"], t["cpus"]["2"]
        self.assertAlmostEqual(c1["freq_unknown_s"], 0.0035, places=12)
        self.assertAlmostEqual(c1["mean_busy_mhz"], 1200.0, places=9)
        self.assertEqual(c1["time_in_state"], {"1200": 1.0})
        self.assertAlmostEqual(c1["busy_s"], 0.0037, places=12)   # whole window
        self.assertAlmostEqual(c2["mean_busy_mhz"], 1600.0, places=9)
        self.assertEqual(c1["valid_rows"], 6)
        self.assertEqual(c2["valid_rows"], 4)

    def test_no_freq(self):
        p = run("--initial-freq-khz", "none", FIXTURE)
        self.assertEqual(p.returncode, 0, p.stderr)
        rows = [r.split("\t") for r in data_rows(p.stdout)]
        # cpu1's first three rows: empty frequency, valid
        self.assertEqual([r[5:] for r in rows if r[1] == "1"][:4],
                         [["", "1"], ["", "1"], ["", "1"], ["1200000", "1"]])

    def test_interval_2ms_and_partial_last(self):
        p = run("--initial-freq-khz", "2000000", "--interval-ms", "3", FIXTURE)
        self.assertEqual(p.returncode, 0, p.stderr)
        rows = [r.split("\t") for r in data_rows(p.stdout) if r.split("\t")[1] == "1"]
        # cpu1 rows [0,3) [3,6) [6,9) [9,10): busy 1.2/3, iowait 1.8/3;
        # iowait 2.6/3, idle .2/3, busy .2/3; busy 2.3/3, idle .7/3; idle 1
        self.assertEqual([r[0] for r in rows], ["0.003000", "0.006000", "0.009000", "0.010000"])
        self.assertEqual(rows[0][2:5], ["0.4000", "0.0000", "0.6000"])
        self.assertEqual(rows[1][2:5], ["0.0667", "0.0667", "0.8667"])
        self.assertEqual(rows[2][2:5], ["0.7667", "0.2333", "0.0000"])
        self.assertEqual(rows[3][2:5], ["0.0000", "1.0000", "0.0000"])

    def test_report_reads_it(self):
        """scripts/report's own sampler reader takes the TSV unchanged."""
        report = load_module("report", REPORT)
        s = report.load_samples(self.tsv, None)
        self.assertEqual(sorted(s.cpus), [0, 1, 2])
        c1 = s.cpus[1]
        self.assertAlmostEqual(c1.total_s, 0.010, places=9)
        self.assertAlmostEqual(c1.busy_s, 0.0037, places=9)
        self.assertAlmostEqual(c1.iowait_s, 0.0044, places=9)
        self.assertAlmostEqual(c1.busy_mhz_s / c1.busy_freq_s, 5400 / 3.7, places=6)

    @unittest.skipUnless(shutil.which("gnuplot"), "gnuplot not installed")
    def test_timechart(self):
        out = Path(self.tmp) / "chart.svg"
        p = subprocess.run(["gnuplot", "-e", f"in='{self.tsv}'; out='{out}'",
                            str(TOP / "plots" / "timechart.gp")],
                           capture_output=True, text=True, check=False)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("<svg", out.read_text())


# Mini trace for the sched_stat_iowait mode (cpu0 idle from 50.000 to
# 50.004, cpu1 runs the wake-ups and never idles):
#   pid 300 blocks in D at 0, woken at 3 with no sched_stat_iowait (a lock)
#   pid 301 blocks in D at 0, sched_stat_iowait then woken at 1
#   pid 302 never seen blocking (blocked before the trace), migrated from
#           cpu0 to cpu1 and sched_stat_iowait delay=10 ms at its wake-up
#           at 2: iowait on cpu0 (orig_cpu) from max(0, 2 - 10) = 0 to 2
# schedstat (auto): iowait = [0,1) u [0,2) = [0, 2) 2 ms, idle [2, 4) 2 ms
# dstate:           iowait = [0,3) u [0,1) = [0, 3) 3 ms, idle [3, 4) 1 ms
SCHEDSTAT = """\
 a   300 [000] 50.000000000: sched:sched_switch: prev_comm=a prev_pid=300 prev_prio=120 prev_state=D ==> next_comm=b next_pid=301 next_prio=120
 b   301 [000] 50.000000000: sched:sched_switch: prev_comm=b prev_pid=301 prev_prio=120 prev_state=D ==> next_comm=swapper/0 next_pid=0 next_prio=120
 swapper 0 [000] 50.000000000: power:cpu_idle: state=1 cpu_id=0
 z   500 [001] 50.001000000: sched:sched_stat_iowait: comm=b pid=301 delay=1000000 [ns]
 z   500 [001] 50.001000000: sched:sched_wakeup: comm=b pid=301 prio=120 target_cpu=000
 z   500 [001] 50.002000000: sched:sched_migrate_task: comm=c pid=302 prio=120 orig_cpu=0 dest_cpu=1
 z   500 [001] 50.002000000: sched:sched_stat_iowait: comm=c pid=302 delay=10000000 [ns]
 z   500 [001] 50.002000000: sched:sched_wakeup: comm=c pid=302 prio=120 target_cpu=001
 z   500 [001] 50.003000000: sched:sched_wakeup: comm=a pid=300 prio=120 target_cpu=000
 swapper 0 [000] 50.004000000: power:cpu_idle: state=4294967295 cpu_id=0
"""


class IowaitSourceTest(unittest.TestCase):
    def totals(self, *args):
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "totals.json"
            p = run("--initial-freq-khz", "1000000", "--totals", path,
                    "-o", Path(d) / "out.tsv", *args, "-", stdin=SCHEDSTAT)
            self.assertEqual(p.returncode, 0, p.stderr)
            return json.loads(path.read_text()), p.stderr

    def test_schedstat(self):
        t, err = self.totals()
        self.assertEqual(t["iowait_source"], "schedstat")
        self.assertFalse(t["iowait_approximation"])
        self.assertNotIn("approximation", err)
        c = t["cpus"]["0"]
        self.assertAlmostEqual(c["iowait_s"], 0.002, places=12)
        self.assertAlmostEqual(c["idle_s"], 0.002, places=12)
        self.assertEqual(c["busy_s"], 0)
        self.assertEqual(t["cpus"]["1"]["busy_s"], 0.004)
        self.assertEqual(t["anomalies"], {"blocked_before_trace": 1})

    def test_dstate(self):
        t, err = self.totals("--iowait", "dstate")
        self.assertEqual(t["iowait_source"], "dstate")
        self.assertIn("approximation", err)
        c = t["cpus"]["0"]
        self.assertAlmostEqual(c["iowait_s"], 0.003, places=12)
        self.assertAlmostEqual(c["idle_s"], 0.001, places=12)


# A tiny sampler TSV against the fixture's totals (initial 2000 MHz).
# cpu1, 5 rows of 2 ms (one more, invalid, ignored):
#   busy .5 iowait .5 @2000 | iowait 1 @1200 | busy .3 idle .2 iowait .5
#   @1200 | busy 1 @1200 | busy .2 idle .8 @1200
#   sum(busy dt) = 2 x (.5 + 0 + .3 + 1 + .2) = 4.0 ms of 10: busy 0.40
#   sum(iowait dt) = 2 x (.5 + 1 + .5) = 4.0 ms: iowait 0.40
#   busy at 2000: 1.0 ms, at 1200: 3.0 ms: tis {2000: .25, 1200: .75},
#   mean (1.0 x 2000 + 3.0 x 1200) / 4 = 1400 MHz
# traced: busy .37, iowait .44, tis {2000: 1.2/3.7, 1200: 2.5/3.7},
#   mean 5400/3.7
#   err_busy_pp = 100 (.40 - .37) = +3.00
#   err_iowait_pp = 100 (.40 - .44) = -4.00
#   err_tis_pp: 2000: 100 (.25 - 1.2/3.7) = -7.4324, 1200: +7.4324 (max)
#   err_mean_busy_mhz_pct = 100 (1400 x 3.7 / 5400 - 1) = -4.0741
# cpu0: 5 rows busy .25 idle .75 @2400 = the trace exactly: errors 0.
SAMPLER = """\
# iowait-freqmon 0.1.0
# interval_us: 2000
# start_monotonic_ns: 100000000000
time_s\tcpu\tbusy\tidle\tiowait\tfreq_khz\tvalid
0.002000\t0\t0.2500\t0.7500\t0.0000\t2400000\t1
0.002000\t1\t0.5000\t0.0000\t0.5000\t2000000\t1
0.004000\t0\t0.2500\t0.7500\t0.0000\t2400000\t1
0.004000\t1\t0.0000\t0.0000\t1.0000\t1200000\t1
0.006000\t0\t0.2500\t0.7500\t0.0000\t2400000\t1
0.006000\t1\t0.3000\t0.2000\t0.5000\t1200000\t1
0.008000\t0\t0.2500\t0.7500\t0.0000\t2400000\t1
0.008000\t1\t1.0000\t0.0000\t0.0000\t1200000\t1
0.010000\t0\t0.2500\t0.7500\t0.0000\t2400000\t1
0.010000\t1\t0.2000\t0.8000\t0.0000\t1200000\t1
0.012000\t1\t0.0000\t0.0000\t0.0000\t2400000\t0
# end: 2026-12-04T00:00:00.000Z
"""


class CompareTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="trace-timeline-cmp.")
        cls.sampler = Path(cls.tmp) / "run.tsv"
        cls.sampler.write_text(SAMPLER)
        cls.totals_path = Path(cls.tmp) / "totals.json"
        p = run("--initial-freq-khz", "2000000", "--totals", cls.totals_path,
                "-o", Path(cls.tmp) / "trace.tsv", FIXTURE)
        if p.returncode != 0:
            raise AssertionError(p.stderr)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def check_cpu1(self, e):
        self.assertAlmostEqual(e["err_busy_pp"], 3.0, places=9)
        self.assertAlmostEqual(e["err_iowait_pp"], -4.0, places=9)
        self.assertAlmostEqual(e["err_tis_pp"]["2000"], 100 * (0.25 - 1.2 / 3.7), places=9)
        self.assertAlmostEqual(e["err_tis_pp"]["1200"], 100 * (0.75 - 2.5 / 3.7), places=9)
        self.assertAlmostEqual(e["err_tis_pp_max"], 7.4324324, places=6)
        self.assertAlmostEqual(e["err_mean_busy_mhz_pct"], -4.0740741, places=6)

    def test_module(self):
        sampled = tt.sampler_totals(str(self.sampler))
        self.assertAlmostEqual(sampled[1]["busy_share"], 0.40, places=12)
        self.assertAlmostEqual(sampled[1]["mean_busy_mhz"], 1400.0, places=9)
        self.assertAlmostEqual(sampled[1]["total_s"], 0.010, places=12)
        res = tt.compare(sampled, json.loads(self.totals_path.read_text()))
        self.assertEqual(sorted(res), [0, 1])   # cpu2 is not sampled
        self.check_cpu1(res[1])
        e0 = res[0]
        for k in ("err_busy_pp", "err_iowait_pp", "err_tis_pp_max", "err_mean_busy_mhz_pct"):
            self.assertAlmostEqual(e0[k], 0.0, places=9, msg=k)
        self.assertEqual(tt.comparison_warnings(res), [])

    def test_freq_start_split(self):
        """With freq_start_khz an interval whose frequency changed is
        credited half to each end, as scripts/report and the sampler's
        summary do: cpu0 busy .5 x 4 ms at 800 -> 2400 MHz (1 ms busy at
        each), then .25 x 6 ms at 2400 (1.5 ms): (800 + 2400 x 2.5) / 3.5
        = 1942.857 MHz; time in state 800: 1/3.5, 2400: 2.5/3.5. The end
        alone would say 2400 MHz for all 3.5 ms."""
        tsv = Path(self.tmp) / "split.tsv"
        tsv.write_text("# interval_us: 5000\n"
                       "time_s\tcpu\tbusy\tidle\tiowait\tfreq_khz\tvalid\tseq\tfreq_start_khz\tstart_s\n"
                       "0.004000\t0\t0.5000\t0.5000\t0.0000\t2400000\t1\t1\t800000\t0.000000\n"
                       "0.010000\t0\t0.2500\t0.7500\t0.0000\t2400000\t1\t2\t2400000\t0.004000\n")
        c = tt.sampler_totals(str(tsv))[0]
        self.assertAlmostEqual(c["busy_s"], 0.0035, places=12)
        self.assertAlmostEqual(c["mean_busy_mhz"], (800 + 2400 * 2.5) / 3.5, places=9)
        self.assertAlmostEqual(c["time_in_state"]["800"], 1 / 3.5, places=12)
        self.assertAlmostEqual(c["time_in_state"]["2400"], 2.5 / 3.5, places=12)

    def test_cli(self):
        p = run("compare", "--json", self.sampler, self.totals_path)
        self.assertEqual(p.returncode, 0, p.stderr)
        res = json.loads(p.stdout)
        self.check_cpu1(res["1"])
        p = run("compare", "--cpu", "1", self.sampler, self.totals_path)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("+3.00", p.stdout)
        self.assertIn("-4.00", p.stdout)
        self.assertIn("7.43", p.stdout)
        self.assertIn("-4.07", p.stdout)

    def test_window_mismatch_warned(self):
        t = tt.analyse((FIXTURE.read_text(), "f"), initial_freq=2000000,
                       end_ns=100_005_000_000).totals
        res = tt.compare(tt.sampler_totals(str(self.sampler)), t, cpu=1)
        self.assertEqual(len(tt.comparison_warnings(res)), 1)

    def test_align(self):
        """--align: window from start_monotonic_ns, rows ending where the
        sampler's do (irregular here). cpu1: [0, 3) busy 1.2/3 iowait
        1.8/3; [3, 4.5) iowait 1; [4.5, 10) iowait 1.1/5.5 = .2, idle
        (.2 + 1.7)/5.5 = .34545, busy 2.5/5.5 = .45455."""
        irregular = Path(self.tmp) / "irregular.tsv"
        irregular.write_text("# interval_us: 1500\n# start_monotonic_ns: 100000000000\n"
                             "time_s\tcpu\tbusy\tidle\tiowait\tfreq_khz\tvalid\n"
                             "0.003000\t1\t0\t0\t0\t\t1\n0.004500\t1\t0\t0\t0\t\t1\n"
                             "0.010000\t1\t0\t0\t0\t\t1\n")
        out = Path(self.tmp) / "aligned.tsv"
        tot = Path(self.tmp) / "aligned.json"
        p = run("--align", irregular, "--cpus", "1", "--initial-freq-khz", "2000000",
                "--totals", tot, "-o", out, FIXTURE)
        self.assertEqual(p.returncode, 0, p.stderr)
        text = out.read_text()
        self.assertIn("# start_monotonic_ns: 100000000000", text.splitlines())
        self.assertIn("# interval_us: 1500", text.splitlines())
        self.assertEqual(data_rows(text), [
            "0.003000\t1\t0.4000\t0.0000\t0.6000\t2000000\t1",
            "0.004500\t1\t0.0000\t0.0000\t1.0000\t1200000\t1",
            "0.010000\t1\t0.4545\t0.3455\t0.2000\t1200000\t1"])
        t = json.loads(tot.read_text())
        self.assertTrue(t["aligned"])
        self.assertEqual(list(t["cpus"]), ["1"])
        self.assertAlmostEqual(t["cpus"]["1"]["iowait_s"], 0.0044, places=12)

    def test_no_common_cpu(self):
        p = run("compare", "--cpu", "7", self.sampler, self.totals_path)
        self.assertEqual(p.returncode, 1)
        self.assertIn("CPU 7", p.stderr)


# A CPU whose first cpu_idle event is an exit was idle before it: cpu3
# idle [0, 2) (exit at 2.0), busy [2, 4). Microsecond timestamps (perf
# script without --ns). Rows (1 ms): idle 1, idle 1, busy 1, busy 1.
EDGE = """\
         swapper     0 [003]    10.000000:   sched:sched_wakeup: comm=x pid=9 prio=120 target_cpu=003
         swapper     0 [003]    10.002000:       power:cpu_idle: state=4294967295 cpu_id=3
         swapper     0 [003]    10.002500:   sched:sched_switch: prev_comm=swapper/3 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=x next_pid=9 next_prio=120
               x     9 [003]    10.003000:  irq:irq_handler_entry: irq=11 name=virtio0
               x     9 [003]    10.003100:           cpu-clock:u:
               x     9 [003]    10.004000:   sched:sched_switch: prev_comm=x prev_pid=9 prev_prio=120 prev_state=R+ ==> next_comm=y next_pid=10 next_prio=120
""".replace("cpu-clock:u:", "cpu-clock:u: ")   # perf ends it with a space
# The same in the layout of libtraceevent's sched plugin.
EDGE_PLUGIN = EDGE.replace(
    "comm=x pid=9 prio=120 target_cpu=003", "x:9 [120] CPU:003").replace(
    "prev_comm=swapper/3 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=x next_pid=9 next_prio=120",
    "swapper/3:0 [120] R ==> x:9 [120]").replace(
    "prev_comm=x prev_pid=9 prev_prio=120 prev_state=R+ ==> next_comm=y next_pid=10 next_prio=120",
    "x:9 [120] R+ ==> y:10 [120]")


class EdgeTest(unittest.TestCase):
    def check(self, text):
        self.assertNotEqual(text, EDGE_PLUGIN if text is EDGE else EDGE)
        res = tt.analyse((text, "edge"), initial_freq=1000000)
        rows = [tt.format_row(r).split("\t")[2:5] for r in res.rows]
        self.assertEqual(rows, [["0.0000", "1.0000", "0.0000"]] * 2
                         + [["1.0000", "0.0000", "0.0000"]] * 2)
        c = res.totals["cpus"]["3"]
        self.assertAlmostEqual(c["idle_s"], 0.002, places=12)
        self.assertAlmostEqual(c["busy_s"], 0.002, places=12)
        # events are counted; the handler entered at 3.0 and never left
        # is busy time where the CPU is busy anyway
        self.assertEqual(res.totals["events"]["irq:irq_handler_entry"], 1)
        self.assertEqual(res.totals["events"]["cpu-clock:u"], 1)

    def test_starts_idle(self):
        self.check(EDGE)

    def test_plugin_layout(self):
        self.check(EDGE_PLUGIN)


# Interrupt handlers inside idle (times in ms after 20.000, rows of 1 ms):
# cpu0: w (pid 50) blocks in D at 0 (dstate mode: no sched_stat_iowait),
#   cpu_idle entry at 0.2; local timer 2.0-2.5; softirq 2.5-3.5 with a
#   hard interrupt nested in it 3.0-3.2; virtio's handler 5.0-5.6 wakes w
#   at 5.2; cpu_idle exit 6.0; w runs, sleeps in S at 8.0; idle from 8.1;
#   the last event (10.0) ends the window.
#   busy [0,.2) [2,3.5) [5,5.6) [6,8.1) = 4.4; iowait [.2,2) [3.5,5) =
#   3.3; idle [5.6,6) [8.1,10) = 2.3 (w was woken at 5.2, in the handler).
#   Without the irq events: busy [0,.2) [6,8.1) = 2.3, iowait [.2,5.2) =
#   5.0, idle [5.2,6) [8.1,10) = 2.7.
# cpu1: a reschedule_exit at 0.1 whose entry came before the trace
#   (ignored), cpu_idle entry 0.2, a call_function_single entry at 9.5
#   never left: busy [0,.2) [9.5,10) = 0.7, idle 9.3.
IRQ = """\
               w    50 [000]    20.000000: sched:sched_switch: prev_comm=w prev_pid=50 prev_prio=120 prev_state=D ==> next_comm=swapper/0 next_pid=0 next_prio=120
         swapper     0 [001]    20.000100: irq_vectors:reschedule_exit: vector=253
         swapper     0 [000]    20.000200: power:cpu_idle: state=1 cpu_id=0
         swapper     0 [001]    20.000200: power:cpu_idle: state=1 cpu_id=1
         swapper     0 [000]    20.002000: irq_vectors:local_timer_entry: vector=236
         swapper     0 [000]    20.002500: irq_vectors:local_timer_exit: vector=236
         swapper     0 [000]    20.002500: irq:softirq_entry: vec=1 [action=TIMER]
         swapper     0 [000]    20.003000: irq:irq_handler_entry: irq=11 name=virtio0
         swapper     0 [000]    20.003200: irq:irq_handler_exit: irq=11 ret=handled
         swapper     0 [000]    20.003500: irq:softirq_exit: vec=1 [action=TIMER]
         swapper     0 [000]    20.005000: irq:irq_handler_entry: irq=11 name=virtio0
         swapper     0 [000]    20.005200: sched:sched_wakeup: comm=w pid=50 prio=120 target_cpu=000
         swapper     0 [000]    20.005600: irq:irq_handler_exit: irq=11 ret=handled
         swapper     0 [000]    20.006000: power:cpu_idle: state=4294967295 cpu_id=0
         swapper     0 [000]    20.006000: sched:sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=w next_pid=50 next_prio=120
               w    50 [000]    20.008000: sched:sched_switch: prev_comm=w prev_pid=50 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
         swapper     0 [000]    20.008100: power:cpu_idle: state=1 cpu_id=0
         swapper     0 [001]    20.009500: irq_vectors:call_function_single_entry: vector=251
         swapper     0 [000]    20.010000: power:cpu_idle: state=4294967295 cpu_id=0
"""


class IrqTest(unittest.TestCase):
    """Time in an interrupt handler is busy, also inside cpu_idle (IRQ)."""

    def totals(self, text):
        res = tt.analyse((text, "irq"), initial_freq=1000000)
        return res, {cpu: tuple(round(c[k] * 1e3, 9) for k in ("busy_s", "idle_s", "iowait_s"))
                     for cpu, c in res.totals["cpus"].items()}

    def test_handlers_in_idle_are_busy(self):
        res, tot = self.totals(IRQ)
        self.assertEqual(tot["0"], (4.4, 2.3, 3.3))
        self.assertEqual(tot["1"], (0.7, 9.3, 0.0))
        rows = [tt.format_row(r).split("\t")[2:5] for r in res.rows if r[1] == 0]
        want = [".2 0 .8", "0 0 1", "1 0 0", ".5 0 .5", "0 0 1", ".6 .4 0",
                "1 0 0", "1 0 0", ".1 .9 0", "0 1 0"]
        self.assertEqual(rows, [[f"{float(x):.4f}" for x in w.split()] for w in want])
        self.assertEqual(res.totals["anomalies"].get("irq_exit_without_entry"), 1)
        self.assertEqual(res.totals["anomalies"].get("irq_open_at_end"), 1)
        self.assertFalse([w for w in res.warnings if "no interrupt handler event" in w])

    def test_exit_lost_at_start(self):
        # perf enables the events one by one: a softirq's entry is seen,
        # its exit is not. The next softirq entry on that CPU (softirqs do
        # not nest) ends the guess: busy [.1, 2.5) ms, idle the rest; not
        # busy to the end of the trace.
        text = "".join(f"         swapper     0 [000]    30.{t}: {ev}\n" for t, ev in (
            ("000000", "sched:sched_switch: prev_comm=w prev_pid=50 prev_prio=120"
                       " prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120"),
            ("000000", "power:cpu_idle: state=1 cpu_id=0"),
            ("000100", "irq:softirq_entry: vec=1 [action=TIMER]"),
            ("002000", "irq:softirq_entry: vec=1 [action=TIMER]"),
            ("002500", "irq:softirq_exit: vec=1 [action=TIMER]"),
            ("009000", "sched:sched_wakeup: comm=w pid=50 prio=120 target_cpu=001"),
            ("010000", "power:cpu_idle: state=4294967295 cpu_id=0")))
        res, tot = self.totals(text)
        self.assertEqual(tot["0"], (2.4, 7.6, 0.0))
        self.assertEqual(res.totals["anomalies"].get("irq_exit_lost"), 1)
        self.assertIsNone(res.totals["anomalies"].get("irq_open_at_end"))

    def test_without_irq_events(self):
        text = "".join(l + "\n" for l in IRQ.splitlines() if " irq" not in l)
        res, tot = self.totals(text)
        self.assertEqual(tot["0"], (2.3, 2.7, 5.0))
        self.assertTrue([w for w in res.warnings if "no interrupt handler event" in w])

    def test_record_events(self):
        p = run("--record-events")
        self.assertEqual(p.returncode, 0, p.stderr)
        args = p.stdout.splitlines()
        self.assertEqual(args[0::2], ["-e"] * (len(args) // 2))
        events = args[1::2]
        for ev in tt.REQUIRED_EVENTS + ("sched:sched_stat_iowait",
                                         "irq_vectors:local_timer_entry"):
            self.assertIn(ev, events)
        # every handler event it asks for has its pair
        for ev in events:
            if tt.irq_edge(ev) > 0:
                self.assertIn(ev[:-len("_entry")] + "_exit", events)


# The kernel's interrupt spans (probe:tick_irq_enter to
# probe:tick_nohz_irq_exit), times in ms after 40.000, rows of 1 ms. cpu0:
# w (pid 60) blocks in D at 0 (dstate mode), cpu_idle entry 0.2;
#   a timer interrupt, span 1.0-2.0 (handler 1.3-1.5, softirq 1.6-1.8);
#   one whose softirq (3.2-3.7) a hard interrupt (3.4-3.5) hits: span
#   3.0-3.8, the inner exit at 3.5 (in softirq) ends nothing, the outer at
#   3.8 does; one that wakes w (span from 5.0, virtio 5.2-5.5, wake-up 5.3,
#   no exit probe), cpu_idle exit 6.0, w runs to 8.0 (S), cpu_idle entry
#   8.1 ends the open span; a timer, span 9.0-9.6 (handler 9.2-9.4); the
#   cpu_idle exit at 10.0 ends the window.
#   auto: busy [0,.2) [1,2) [3,3.8) [5,8.1) [9,9.6) = 5.7; iowait [.2,1)
#   [2,3) [3.8,5) = 3.0; idle [8.1,9) [9.6,10) = 1.3.
#   handlers: busy [0,.2) [1.3,1.5) [1.6,1.8) [3.1,3.2) [3.2,3.7) [5.2,5.5)
#   [6,8.1) [9.2,9.4) = 3.8; iowait [.2,1.3) [1.5,1.6) [1.8,3.1) [3.7,5.2)
#   = 4.0; idle [5.5,6) [8.1,9.2) [9.4,10) = 2.2.
PROBED = "".join(f"         swapper     0 [000]    40.{t}: {ev}\n" for t, ev in (
    ("000000", "sched:sched_switch: prev_comm=w prev_pid=60 prev_prio=120 prev_state=D"
               " ==> next_comm=swapper/0 next_pid=0 next_prio=120"),
    ("000200", "power:cpu_idle: state=1 cpu_id=0"),
    ("001000", "probe:tick_irq_enter: (ffffffff810c7d70)"),
    ("001300", "irq_vectors:local_timer_entry: vector=236"),
    ("001500", "irq_vectors:local_timer_exit: vector=236"),
    ("001600", "irq:softirq_entry: vec=1 [action=TIMER]"),
    ("001800", "irq:softirq_exit: vec=1 [action=TIMER]"),
    ("002000", "probe:tick_nohz_irq_exit: (ffffffff810c7a90)"),
    ("003000", "probe:tick_irq_enter: (ffffffff810c7d70)"),
    ("003100", "irq_vectors:local_timer_entry: vector=236"),
    ("003200", "irq_vectors:local_timer_exit: vector=236"),
    ("003200", "irq:softirq_entry: vec=1 [action=TIMER]"),
    ("003400", "irq:irq_handler_entry: irq=11 name=virtio0"),
    ("003500", "irq:irq_handler_exit: irq=11 ret=handled"),
    ("003500", "probe:tick_nohz_irq_exit: (ffffffff810c7a90)"),
    ("003700", "irq:softirq_exit: vec=1 [action=TIMER]"),
    ("003800", "probe:tick_nohz_irq_exit: (ffffffff810c7a90)"),
    ("005000", "probe:tick_irq_enter: (ffffffff810c7d70)"),
    ("005200", "irq:irq_handler_entry: irq=11 name=virtio0"),
    ("005300", "sched:sched_wakeup: comm=w pid=60 prio=120 target_cpu=000"),
    ("005500", "irq:irq_handler_exit: irq=11 ret=handled"),
    ("006000", "power:cpu_idle: state=4294967295 cpu_id=0"),
    ("006000", "sched:sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120"
               " prev_state=R ==> next_comm=w next_pid=60 next_prio=120"),
    ("008000", "sched:sched_switch: prev_comm=w prev_pid=60 prev_prio=120 prev_state=S"
               " ==> next_comm=swapper/0 next_pid=0 next_prio=120"),
    ("008100", "power:cpu_idle: state=1 cpu_id=0"),
    ("009000", "probe:tick_irq_enter: (ffffffff810c7d70)"),
    ("009200", "irq_vectors:local_timer_entry: vector=236"),
    ("009400", "irq_vectors:local_timer_exit: vector=236"),
    ("009600", "probe:tick_nohz_irq_exit: (ffffffff810c7a90)"),
    ("010000", "power:cpu_idle: state=4294967295 cpu_id=0")))


class IrqSpanTest(unittest.TestCase):
    """The kernel's own interrupt spans from the kprobes (PROBED)."""

    def totals(self, text, span="auto"):
        res = tt.analyse((text, "probed"), initial_freq=1000000, irq_span=span)
        c = res.totals["cpus"]["0"]
        return res, tuple(round(c[k] * 1e3, 9) for k in ("busy_s", "idle_s", "iowait_s"))

    def test_kernel_span(self):
        res, tot = self.totals(PROBED)
        self.assertEqual(tot, (5.7, 1.3, 3.0))
        self.assertEqual(res.totals["irq_span"], "kernel")
        self.assertEqual(res.totals["anomalies"], {})
        self.assertTrue(any(l.startswith("# interrupts: kernel: busy from tick_irq_enter()")
                            for l in res.tsv_header), res.tsv_header)
        rows = [tt.format_row(r).split("\t")[2:5] for r in res.rows]
        want = [".2 0 .8", "1 0 0", "0 0 1", ".8 0 .2", "0 0 1", "1 0 0", "1 0 0",
                "1 0 0", ".1 .9 0", ".6 .4 0"]
        self.assertEqual(rows, [[f"{float(x):.4f}" for x in w.split()] for w in want])
        self.assertFalse([w for w in res.warnings if "probe:" in w])

    def test_handlers_only(self):
        res, tot = self.totals(PROBED, "handlers")
        self.assertEqual(tot, (3.8, 2.2, 4.0))
        self.assertEqual(res.totals["irq_span"], "handlers")
        # the probes' lines dropped: the same result, and a warning
        text = "".join(l + "\n" for l in PROBED.splitlines() if "probe:" not in l)
        res2, tot2 = self.totals(text)
        self.assertEqual(tot2, tot)
        self.assertEqual(res2.totals["irq_span"], "handlers")
        self.assertTrue([w for w in res2.warnings if "--add-probes" in w])
        self.assertFalse([w for w in res.warnings if "--add-probes" in w])

    def test_cli(self):
        tmp = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, tmp)
        (tmp / "in.txt").write_text(PROBED)
        for span, busy in (("auto", "5.700"), ("handlers", "3.800")):
            p = run("--irq-span", span, "--initial-freq-khz", "1000000", "--totals",
                    tmp / "t.json", "-o", tmp / "t.tsv", tmp / "in.txt")
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(f"{json.loads((tmp / 't.json').read_text())['cpus']['0']['busy_s'] * 1e3:.3f}", busy)
        p = run("--irq-span", "exact", tmp / "in.txt")
        self.assertEqual(p.returncode, 2)

    def test_add_probes(self):
        tmp = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, tmp)
        fake = tmp / "perf"
        fake.write_text(f"#!/bin/sh\necho \"$@\" >> {tmp}/args\n")
        fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
        (tmp / "events" / "probe" / "tick_irq_enter").mkdir(parents=True)
        self.assertEqual(tt.add_probes(str(fake), (str(tmp / "none"), str(tmp))),
                         [("probe:tick_irq_enter", "present"),
                          ("probe:tick_nohz_irq_exit", "added"),
                          ("probe:tick_nohz_idle_enter", "added"),
                          ("probe:tick_nohz_idle_exit", "added")])
        self.assertEqual((tmp / "args").read_text(), "".join(
            f"probe -a {fn}\n" for fn in ("tick_nohz_irq_exit", "tick_nohz_idle_enter",
                                             "tick_nohz_idle_exit")))
        fake.write_text("#!/bin/sh\necho 'Failed to find symbol tick_nohz_irq_exit' >&2\nexit 255\n")
        p = run("--add-probes", "--perf", fake)
        self.assertEqual(p.returncode, 1)
        self.assertIn("Failed to find symbol", p.stderr)
        self.assertIn("CONFIG_KPROBE_EVENTS", p.stderr)
        p = run("--add-probes", "--perf", tmp / "missing")
        self.assertEqual(p.returncode, 1)
        self.assertIn("not found", p.stderr)
        # the events it makes are the ones --record-events asks for
        events = run("--record-events").stdout.splitlines()[1::2]
        for fn in tt.PROBES:
            self.assertIn(f"probe:{fn}", events)

    def test_kernel_idle_bounds(self):
        # PROBED with the kernel's idle bounds: tick_nohz_idle_enter at 0.1
        # and 8.05 (before cpu_idle's entries), tick_nohz_idle_exit at 6.0;
        # and the idle loop's turn after the first interrupt (cpu_idle exit
        # 2.1, entry 2.3), busy for cpu_idle, idle for the kernel.
        #   cpu_idle: busy 5.7 + .2 = 5.9, iowait 3.0 - .2 = 2.8, idle 1.3.
        #   kernel: busy [0,.1) [1,2) [3,3.8) [5,8.05) [9,9.6) = 5.55;
        #   iowait [.1,1) [2,3) [3.8,5) = 3.1; idle [8.05,9) [9.6,10) = 1.35.
        extra = "".join(f"         swapper     0 [000]    40.{t}: {ev}\n" for t, ev in (
            ("000100", "probe:tick_nohz_idle_enter: (ffffffff810c7a60)"),
            ("002100", "power:cpu_idle: state=4294967295 cpu_id=0"),
            ("002300", "power:cpu_idle: state=1 cpu_id=0"),
            ("006000", "probe:tick_nohz_idle_exit: (ffffffff810c7c70)"),
            ("008050", "probe:tick_nohz_idle_enter: (ffffffff810c7a60)")))
        lines = sorted((PROBED + extra).splitlines(), key=lambda l: l.split()[3])
        text = "".join(l + "\n" for l in lines)
        res, tot = self.totals(text)
        self.assertEqual(tot, (5.9, 1.3, 2.8))
        self.assertEqual(res.totals["idle_bounds"], "cpu_idle")
        res = tt.analyse((text, "probed"), initial_freq=1000000, idle_bounds="kernel")
        c = res.totals["cpus"]["0"]
        self.assertEqual(tuple(round(c[k] * 1e3, 9) for k in ("busy_s", "idle_s", "iowait_s")),
                         (5.55, 1.35, 3.1))
        self.assertEqual(res.totals["idle_bounds"], "kernel")
        self.assertEqual(res.totals["anomalies"], {})
        # without the idle probes: a clear error, not a timeline
        with self.assertRaisesRegex(tt.TraceError, "--idle-bounds kernel needs the kprobes"):
            tt.analyse((PROBED, "probed"), idle_bounds="kernel")
        tmp = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, tmp)
        (tmp / "in.txt").write_text(PROBED)
        p = run("--idle-bounds", "kernel", "-o", tmp / "t.tsv", tmp / "in.txt")
        self.assertEqual(p.returncode, 1)
        self.assertIn("probe:tick_nohz_idle_enter", p.stderr)
        self.assertFalse((tmp / "t.tsv").exists())

    def test_cpu_that_never_left_the_idle_loop(self):
        # cpu1 woken once by a timer that woke no task: cpu_idle exits and
        # enters again, tick_nohz_idle_* never fire. cpu_idle bounds: busy
        # the span [2, 2.5) and the loop's turn [2.6, 2.8); kernel bounds:
        # the span only, idle the rest (not busy all along)
        cpu1 = "".join(f"         swapper     0 [001]    40.{t}: {ev}\n" for t, ev in (
            ("002000", "probe:tick_irq_enter: (ffffffff810c7d70)"),
            ("002100", "irq_vectors:local_timer_entry: vector=236"),
            ("002300", "irq_vectors:local_timer_exit: vector=236"),
            ("002500", "probe:tick_nohz_irq_exit: (ffffffff810c7a90)"),
            ("002600", "power:cpu_idle: state=4294967295 cpu_id=1"),
            ("002800", "power:cpu_idle: state=1 cpu_id=1")))
        idle0 = "".join(f"         swapper     0 [000]    40.{t}: {ev}\n" for t, ev in (
            ("000100", "probe:tick_nohz_idle_enter: (ffffffff810c7a60)"),
            ("006000", "probe:tick_nohz_idle_exit: (ffffffff810c7c70)")))
        lines = sorted((PROBED + idle0 + cpu1).splitlines(), key=lambda l: l.split()[3])
        text = "".join(l + "\n" for l in lines)
        for bounds, want in (("cpu_idle", (0.7, 9.3, 0.0)), ("kernel", (0.5, 9.5, 0.0))):
            res = tt.analyse((text, "probed"), initial_freq=1000000, idle_bounds=bounds)
            c = res.totals["cpus"]["1"]
            self.assertEqual(tuple(round(c[k] * 1e3, 9) for k in ("busy_s", "idle_s", "iowait_s")),
                             want, bounds)
            warned = [w for w in res.warnings if "never left the idle loop" in w]
            self.assertEqual(len(warned), bounds == "kernel", res.warnings)
        self.assertIn("CPU 1: cpu_idle events", warned[0])

    def test_one_probe_recorded(self):
        # only tick_irq_enter: no span is made of it, and the totals say so
        text = "".join(l + "\n" for l in PROBED.splitlines() if "tick_nohz_irq_exit" not in l)
        res, tot = self.totals(text)
        self.assertEqual(tot, (3.8, 2.2, 4.0))
        self.assertEqual(res.totals["irq_span"], "handlers")
        self.assertTrue([w for w in res.warnings if "--add-probes" in w])

    def test_probes_without_handler_events(self):
        # the spans alone: [1, 2), [3, 3.5) (the first exit ends it, no
        # softirq seen open), [5, 6) and on to the next idle; no warning
        # that interrupts count as idle
        text = "".join(l + "\n" for l in PROBED.splitlines() if " irq" not in l)
        res, tot = self.totals(text)
        self.assertEqual(tot, (5.4, 1.3, 3.3))
        self.assertEqual(res.totals["irq_span"], "kernel")
        self.assertFalse([w for w in res.warnings if "count as idle" in w], res.warnings)


class ConsistencyTest(unittest.TestCase):
    """On a random trace (seeded): every row's busy + idle + iowait is its
    interval exactly (ns), and the rows add up to the totals exactly."""

    def test_random_trace(self):
        rng = random.Random(1015)
        ns = 7_000_000_000
        lines = []
        for _ in range(4000):
            ns += rng.randint(1_000, 400_000)
            cpu = rng.randint(0, 2)
            stamp = f"[{cpu:03d}] {ns // 10**9}.{ns % 10**9:09d}:"
            k = rng.random()
            pid = rng.randint(100, 110)
            if k < 0.3:
                st = rng.choice([1, 2, 4294967295])
                lines.append(f" swapper 0 {stamp} power:cpu_idle: state={st} cpu_id={cpu}")
            elif k < 0.35:
                f = rng.choice([800000, 1600000, 2400000])
                lines.append(f" k 5 {stamp} power:cpu_frequency: state={f}"
                             f" cpu_id={rng.randint(0, 2)}")
            elif k < 0.7:
                lines.append(f" t {pid} {stamp} sched:sched_switch: prev_comm=t prev_pid={pid}"
                             f" prev_prio=120 prev_state={rng.choice(['R', 'R+', 'S', 'D'])}"
                             f" ==> next_comm=u next_pid={rng.randint(0, 110)} next_prio=120")
            else:
                lines.append(f" w 6 {stamp} sched:sched_wakeup: comm=t pid={pid} prio=120"
                             f" target_cpu={rng.randint(0, 2):03d}")
        rng.shuffle(lines)
        res = tt.analyse(("\n".join(lines) + "\n", "random"), interval_ns=700_000,
                         initial_freq="unknown")
        sums = {}
        for t_rel, cpu, busy, idle, iow, dt, _f, _v in res.rows:
            self.assertEqual(busy + idle + iow, dt)
            a = sums.setdefault(cpu, [0, 0, 0])
            a[0] += busy
            a[1] += idle
            a[2] += iow
        self.assertEqual(sorted(sums), [0, 1, 2])
        for cpu, (busy, idle, iow) in sums.items():
            c = res.totals["cpus"][str(cpu)]
            self.assertEqual((busy / 1e9, idle / 1e9, iow / 1e9),
                             (c["busy_s"], c["idle_s"], c["iowait_s"]))
            self.assertGreater(iow, 0)
            res_busy = sum(r["busy_s"] for r in c["freq_residency"])
            self.assertAlmostEqual(res_busy + 0, c["busy_freq_s"], places=12)
            self.assertAlmostEqual(sum(r["time_s"] for r in c["freq_residency"])
                                   + c["freq_unknown_s"], c["total_s"], places=12)
            if c["time_in_state"]:
                self.assertAlmostEqual(sum(c["time_in_state"].values()), 1.0, places=12)


class BadInputTest(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="trace-timeline-bad."))
        self.out = self.tmp / "out.tsv"
        self.tot = self.tmp / "out.json"

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def fails(self, text_or_path, *args, code=1):
        if isinstance(text_or_path, str):
            path = self.tmp / "in.txt"
            path.write_text(text_or_path)
        else:
            path = text_or_path
        p = run("-o", self.out, "--totals", self.tot, *args, path)
        self.assertEqual(p.returncode, code, p.stderr)
        # no output at all, and no temporary file left behind
        self.assertEqual(sorted(os.listdir(self.tmp)),
                         sorted(x.name for x in [path] if x.parent == self.tmp))
        self.assertEqual(p.stdout, "")
        err = p.stderr.strip().splitlines()
        self.assertTrue(err[-1].startswith("trace-timeline: error: "), p.stderr)
        return err[-1]

    def test_no_cpu_idle(self):
        text = "".join(l for l in FIXTURE.read_text().splitlines(keepends=True)
                       if "cpu_idle" not in l)
        msg = self.fails(text)
        self.assertIn("power:cpu_idle was not recorded", msg)
        # without the perf header: not seen at all
        body = "".join(l for l in text.splitlines(keepends=True) if not l.startswith("#"))
        msg = self.fails(body)
        self.assertIn("no power:cpu_idle event", msg)

    def test_no_wakeup(self):
        text = "".join(l for l in FIXTURE.read_text().splitlines(keepends=True)
                       if "sched_wakeup" not in l)
        self.assertIn("sched:sched_wakeup", self.fails(text))

    def test_truncated(self):
        text = FIXTURE.read_text()
        msg = self.fails(text[:-40])
        self.assertIn("truncated", msg)
        self.assertIn(f":{text.count(chr(10))}:", msg)   # the last line's number

    def test_malformed_line(self):
        lines = FIXTURE.read_text().splitlines(keepends=True)
        n = next(i for i, l in enumerate(lines) if "state=1 cpu_id=1" in l)
        lines[n] = lines[n].replace("state=1 cpu_id=1", "state=x cpu_id=1")
        msg = self.fails("".join(lines))
        self.assertIn(f":{n + 1}: malformed power:cpu_idle", msg)
        lines[n] = "garbage\n"
        self.assertIn(f":{n + 1}: not a perf script event line", self.fails("".join(lines)))

    def test_perf_missing_or_failing(self):
        data = self.tmp / "run.perf.data"
        data.write_bytes(b"PERFILE2" + bytes(64))
        msg = self.fails(data, "--perf", "/nonexistent/perf")
        self.assertIn("not found", msg)
        fake = self.tmp / "perf"
        fake.write_text("#!/bin/sh\necho 'failed to process sample' >&2\nexit 3\n")
        fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
        p = run("-o", self.out, "--perf", fake, data)
        self.assertEqual(p.returncode, 1)
        self.assertIn("exit 3", p.stderr)
        self.assertIn("failed to process sample", p.stderr)
        self.assertFalse(self.out.exists())

    def test_perf_script_is_run(self):
        """A perf.data goes through `perf script` with the documented fields."""
        data = self.tmp / "run.perf.data"
        data.write_bytes(b"PERFILE2" + bytes(64))
        fake = self.tmp / "perf"
        fake.write_text(f"#!/bin/sh\necho \"$@\" > {self.tmp}/args\ncat {FIXTURE}\n")
        fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
        p = run("-o", self.out, "--perf", fake, "--initial-freq-khz", "2000000", data)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual((self.tmp / "args").read_text().split(),
                         ["script", "--ns", "--header", "-F", tt.PERF_FIELDS, "-i", str(data)])
        want = [expected_row(i, cpu) for i in range(10) for cpu in (0, 1, 2)]
        self.assertEqual(data_rows(self.out.read_text()), want)

    def test_existing_output_untouched(self):
        self.out.write_text("old\n")
        text = FIXTURE.read_text()[:-1]
        p = run("-o", self.out, self.tmp / "missing.txt")
        self.assertEqual(p.returncode, 1)
        (self.tmp / "t.txt").write_text(text)
        p = run("-o", self.out, self.tmp / "t.txt")
        self.assertEqual(p.returncode, 1)
        self.assertEqual(self.out.read_text(), "old\n")

    def test_output_kinds(self):
        """Only regular files are replaced: a symbolic link keeps pointing
        at its (new) target, and a FIFO is written into, not replaced (as
        /dev/null must be)."""
        real = self.tmp / "real.tsv"
        real.write_text("old\n")
        link = self.tmp / "link.tsv"
        link.symlink_to(real)
        tt.write_atomic(str(link), "new\n")
        self.assertTrue(link.is_symlink())
        self.assertEqual(real.read_text(), "new\n")
        fifo = self.tmp / "fifo"
        os.mkfifo(fifo)
        got = []
        reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
        reader.start()
        tt.write_atomic(str(fifo), "through\n")
        reader.join(10)
        self.assertEqual(got, ["through\n"])
        self.assertTrue(stat.S_ISFIFO(os.stat(fifo).st_mode))
        self.assertEqual(sorted(os.listdir(self.tmp)), ["fifo", "link.tsv", "real.tsv"])

    def test_usage(self):
        for args in ([], ["--interval-ms", "0", str(FIXTURE)], ["--bogus"],
                     ["--initial-freq-khz", "fast", str(FIXTURE)],
                     ["--align", "x.tsv", "--interval-ms", "1", str(FIXTURE)],
                     ["compare", str(FIXTURE)]):
            p = run(*args)
            self.assertEqual(p.returncode, 2, args)
            self.assertIn("usage:", p.stderr)
        p = run("--help")
        self.assertEqual(p.returncode, 0)
        self.assertIn("EXIT STATUS", p.stdout)


if __name__ == "__main__":
    unittest.main()

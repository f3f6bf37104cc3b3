#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of scripts/report on the synthetic results of make-fixture.py.

Usage: test_report.py [unittest arguments, e.g. SummaryTest]

The expected numbers are worked out by hand from make-fixture.py's
patterns (dt = 0.01 s, samples for the whole runtime). energy_j is CPU 0's
alone: CPU 1 is the observer (meta.json sampler_cpu), always busy 0.1 at
800 MHz, 0.1 x 1500 + 0.9 x 300 = 420 mW, in energy_observer_j:

  PERF      cpu0 busy 0.8 at 2400: 0.8 x 9000 + 0.2 x 300 = 7260 mW
  POWERSAVE cpu0 busy 0.8 at  800: 0.8 x 1500 + 0.2 x 300 = 1260 mW
  OD_IDLE   busy@2400, iowait@2400, busy@800, idle@800 per 0.04 s:
            (9000 + 300 + 1500 + 300) / 4 = 2775 mW;
            busy 0.5, iowait 0.25, half the busy time at each P-state: 1600 MHz
  OD_BUSY   three PERF rows, one busy 0.8 at 1200 (0.8 x 2600 + 60 = 2140):
            (3 x 7260 + 2140) / 4 = 5980 mW;
            busy at 2400 3/4, at 1200 1/4: 2100 MHz
  HALF_2400 busy 0.5: 0.5 x 9000 + 150 = 4650 mW
  HALF_1600 busy 0.5: 0.5 x 4100 + 150 = 2200 mW
  MISSED    busy 0.2 at 800, iowait 0.8: 0.2 x 1500 + 0.8 x 300 = 540 mW

Run energy = runtime x power (the samples cover the runtime); observer
energy = runtime x 0.42 W.

Missed deadlines (the sampler's summary; percent = missed / (missed +
samples), printed %.2f): wl-a and fio runs 0 (0.00%) except
  baseline ondemand io1 wl-a #3 (order 12, 1.36 s, 136 samples, MISSED
    pattern): 24 / 160 = 15.00% > 10%: excluded: its runtime counts, its
    samples do not (mean MHz, shares, time in state, energy)
  patched ondemand io1 wl-a #2 (order 23, 124 samples): 3 / 127 = 2.36%
    > 1%: flagged, kept
  patched ondemand io1 wl-a #3 (order 24, 116 samples): 1 / 117 = 0.85%
wl-b's TSVs have no summary: missed_pct_median and _max null.

fio-psync-qd1 (patched kernel; IOPS from rN.fio.json, jobs' read.iops
summed):
  performance, runtimes 0.50 0.51 0.50 0.52: IOPS 480, 500, 540 and no
    JSON (a warning): median 500, p25 490, p75 520, ratio 1
  ondemand io1, runtimes 0.50 0.52 0.51: IOPS 150.25 + 150.25 = 300.5
    (two jobs), 360 and a malformed JSON (a warning): median 330.25,
    p25 300.5 + 0.25 x 59.5 = 315.375, p75 345.125;
    ratio 330.25 / 500 = 0.6605
  energy per I/O (meta fio_runtime_s 0.5; the run's energy over IOPS x
  0.5 s): performance 0.50 x 4650 / 240 = 9.6875, 0.51 x 4650 / 250 =
  9.486, 0.50 x 4650 / 270 = 8.6111 mJ, median 9.486; ondemand io1
  (OD_IDLE's 4-sample cycle of 11100 mW x 0.01 s: 50 samples are 12
  cycles + 9000 + 300, 52 are 13 cycles) 1425 mJ / 150.25 = 9.4842,
  1443 mJ / 180 = 8.0167, median 8.7504; no efficiency (no powersave IOPS) and no energy x delay (fio
  runs for a fixed time)

95% bootstrap intervals (2000 resamples, percentiles 2.5 and 97.5 by
linear interpolation). The median of a resample of 3 distinct values is the
smallest with probability P(2 or 3 of the 3 draws are it) = 7/27 = 26%, the
largest likewise: far above 2.5%, so the interval of the median of a, b, c
is [a, c]. The ratio of two such medians (resampled independently) is at
its least, min / max, with probability (7/27)^2 = 6.7% > 2.5%, at its most,
max / min, likewise: the interval of a ratio of 3 runs to 3 is
[min_a / max_b, max_a / min_b]. Of 2 values, the resample median is the
smaller with probability 1/4: [min, max] again. Of the 4 fio performance
runtimes 0.50 0.50 0.51 0.52 the median is 0.50 with P(3 or 4 draws 0.50)
= 5/16 and 0.52 with P(3 or 4 draws 0.52) = 13/256 = 5.1%: [0.50, 0.52].
edp_js is energy_j x the median runtime of the runs energy_j is the median
of (runs with samples, not excluded).
"""
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from io import StringIO
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOP = HERE.parent.parent
REPORT = TOP / "scripts" / "report"
FIXTURE = HERE / "make-fixture.py"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
sys.dont_write_bytecode = True   # loading scripts/report writes no __pycache__

# (workload, kernel, governor, io_is_busy) -> expected values.
EXPECTED = {
    # runtimes 1.00 1.20 1.10; run 1 has an invalid row (ignored), run 3 a row
    # without frequency on both CPUs (in the shares, not in MHz or energy);
    # energies 7.26 8.712 7.986 J, the observer's 0.42 0.504 0.462 J.
    ("wl-a", "baseline", "performance", None): dict(
        runs=3, failed=0, median_s=1.10, p25_s=1.05, p75_s=1.15, mean_busy_mhz=2400,
        iowait_share=0.1, busy_share=0.8, time_in_state={"2400": 1.0}, efficiency=1.0,
        energy_j=7.986, energy_observer_j=0.462, edp_js=7.986 * 1.10, samples_no_freq=2,
        no_samples=0, missed_pct_median=0.0, missed_pct_max=0.0, runs_missed_over_1pct=0,
        runs_excluded_missed=0, iops_median=None, iops_ratio_perf=None, iops_runs=0,
        ci95_low_s=1.0, ci95_high_s=1.2, ratio_perf=1.0, ratio_perf_ci95=[1 / 1.2, 1.2],
        iops_ci95=None, iops_ratio_perf_ci95=None, lab_fault=False),
    # runtimes 3.0 3.2 3.1, energies 3.1 x 1.26 = 3.906 (median)
    ("wl-a", "baseline", "powersave", None): dict(
        runs=3, failed=0, median_s=3.10, p25_s=3.05, p75_s=3.15, mean_busy_mhz=800,
        iowait_share=0.1, busy_share=0.8, time_in_state={"800": 1.0}, efficiency=0.0,
        energy_j=3.906, energy_observer_j=3.1 * 0.42, edp_js=3.906 * 3.10,
        ci95_low_s=3.0, ci95_high_s=3.2, ratio_perf=3.1 / 1.1, ratio_perf_ci95=[2.5, 3.2],
        lab_fault=False),
    # runtimes 2.6 2.4 2.8; efficiency (3.1 - 2.6) / (3.1 - 1.1) = 0.25;
    # energy 2.6 x 2.775 = 7.215
    ("wl-a", "baseline", "ondemand", 0): dict(
        runs=3, failed=0, median_s=2.60, p25_s=2.50, p75_s=2.70, mean_busy_mhz=1600,
        iowait_share=0.25, busy_share=0.5, time_in_state={"800": 0.5, "2400": 0.5},
        efficiency=0.25, energy_j=7.215, energy_observer_j=2.6 * 0.42, edp_js=7.215 * 2.60,
        ci95_low_s=2.4, ci95_high_s=2.8, ratio_perf=2.6 / 1.1, ratio_perf_ci95=[2.0, 2.8]),
    # runtimes 1.28 1.32 1.36, the last run's sampler missing 15% of its
    # deadlines: its runtime counts (median 1.32, not 1.30 of the other
    # two), its samples (the MISSED pattern) do not: MHz, shares and time in
    # state of OD_BUSY alone; energies 1.28 and 1.32 x 5.98, median 7.774
    # (with it, 7.6544), the observer's 1.30 x 0.42; efficiency
    # (3.1 - 1.32) / 2 = 0.89; energy x delay of the same two runs:
    # 7.774 x 1.30; the interval of the runtime all three
    ("wl-a", "baseline", "ondemand", 1): dict(
        runs=3, failed=0, median_s=1.32, p25_s=1.30, p75_s=1.34, mean_busy_mhz=2100,
        iowait_share=0.1, busy_share=0.8, time_in_state={"1200": 0.25, "2400": 0.75},
        runtimes_s=[1.28, 1.32, 1.36], efficiency=0.89, energy_j=7.774, energy_runs=2,
        energy_observer_j=0.546, edp_js=7.774 * 1.30, sampled_s=2.60,
        ci95_low_s=1.28, ci95_high_s=1.36, ratio_perf=1.2, ratio_perf_ci95=[1.28 / 1.2, 1.36],
        missed_pct_median=0.0, missed_pct_max=15.0, runs_missed_over_1pct=1,
        runs_excluded_missed=1),
    ("wl-a", "patched", "performance", None): dict(
        runs=3, median_s=1.10, efficiency=1.0, energy_j=7.986, samples_no_freq=0),
    ("wl-a", "patched", "powersave", None): dict(
        runs=3, median_s=3.10, efficiency=0.0, energy_j=3.906),
    ("wl-a", "patched", "ondemand", 0): dict(
        runs=3, median_s=2.60, p25_s=2.60, p75_s=2.60, efficiency=0.25, energy_j=7.215,
        ci95_low_s=2.6, ci95_high_s=2.6, ratio_perf_ci95=[2.6 / 1.2, 2.6 / 1.0]),
    # runtimes 1.20 1.24 1.16 and a failed 99 s run (excluded);
    # efficiency (3.1 - 1.2) / 2 = 0.95; energy 1.2 x 5.98 = 7.176;
    # missed 0.00, 2.36 (flagged, kept), 0.85%
    ("wl-a", "patched", "ondemand", 1): dict(
        runs=3, failed=1, median_s=1.20, p25_s=1.18, p75_s=1.22, mean_busy_mhz=2100,
        iowait_share=0.1, busy_share=0.8, time_in_state={"1200": 0.25, "2400": 0.75},
        efficiency=0.95, energy_j=7.176, energy_observer_j=1.2 * 0.42, energy_runs=3,
        edp_js=7.176 * 1.20, runtimes_s=[1.20, 1.24, 1.16], missed_pct_median=0.85,
        missed_pct_max=2.36, runs_missed_over_1pct=1, runs_excluded_missed=0,
        ci95_low_s=1.16, ci95_high_s=1.24, ratio_perf=1.2 / 1.1,
        ratio_perf_ci95=[1.16 / 1.2, 1.24], lab_fault=False),
    # run 2 has no samples ("-"): energies 2.0 and 2.1 x 4.65, median 9.5325,
    # energy x delay 9.5325 x 2.05 (the runtimes of the same runs); its
    # runtime is in the interval; no powersave for wl-b: efficiency null; no
    # sampler summary
    ("wl-b", "baseline", "performance", None): dict(
        runs=3, no_samples=1, median_s=2.10, mean_busy_mhz=2400, busy_share=0.5,
        iowait_share=0.0, efficiency=None, energy_j=9.5325, energy_observer_j=2.05 * 0.42,
        edp_js=9.5325 * 2.05, missed_pct_median=None, missed_pct_max=None,
        runs_missed_over_1pct=0, runs_excluded_missed=0, ci95_low_s=2.0, ci95_high_s=2.2,
        ratio_perf=1.0, ratio_perf_ci95=[2.0 / 2.2, 2.2 / 2.0]),
    # run 2's samples file is missing: energies 4.0 and 4.2 x 2.2, their
    # median runtime 4.1
    ("wl-b", "baseline", "ondemand", 0): dict(
        runs=3, no_samples=1, median_s=4.20, p25_s=4.10, p75_s=4.30, mean_busy_mhz=1600,
        time_in_state={"1600": 1.0}, efficiency=None, energy_j=9.02,
        edp_js=9.02 * 4.10, ratio_perf=2.0, ratio_perf_ci95=[4.0 / 2.2, 4.4 / 2.0]),
    ("wl-b", "patched", "performance", None): dict(
        runs=3, no_samples=0, energy_j=2.1 * 4.65, edp_js=2.1 * 4.65 * 2.1),
    ("wl-b", "patched", "ondemand", 1): dict(
        runs=3, median_s=4.20, mean_busy_mhz=2400, energy_j=4.2 * 4.65,
        edp_js=4.2 * 4.65 * 4.2, iops_median=None, iops_p25=None, iops_p75=None),
    # IOPS: above; energies HALF_2400 x 0.50 0.51 0.50 0.52, median
    # 0.505 x 4.65 (every run has samples, the one without JSON too)
    ("fio-psync-qd1", "patched", "performance", None): dict(
        runs=4, median_s=0.505, mean_busy_mhz=2400, energy_j=0.505 * 4.65,
        iops_median=500.0, iops_p25=490.0, iops_p75=520.0, iops_ratio_perf=1.0,
        iops_runs=3, missed_pct_max=0.0, efficiency=None, edp_js=None,
        energy_per_io_mj=9.486, ci95_low_s=0.50, ci95_high_s=0.52, iops_ci95=[480.0, 540.0],
        iops_ratio_perf_ci95=[480 / 540, 540 / 480], lab_fault=False),
    ("fio-psync-qd1", "patched", "ondemand", 1): dict(
        runs=3, median_s=0.51, iops_median=330.25, iops_p25=315.375, iops_p75=345.125,
        iops_ratio_perf=0.6605, iops_runs=2, edp_js=None,
        energy_per_io_mj=(1425 / 150.25 + 1443 / 180) / 2, iops_ci95=[300.5, 360.0],
        iops_ratio_perf_ci95=[300.5 / 540, 360 / 480], lab_fault=False),
}

SUMMARY_KEYS = {"kernel", "governor", "io_is_busy", "workload", "runs", "failed",
                "median_s", "p25_s", "p75_s", "mean_busy_mhz", "iowait_share",
                "busy_share", "time_in_state", "efficiency", "energy_j", "edp_js",
                "energy_observer_j", "missed_pct_median", "missed_pct_max",
                "runs_missed_over_1pct", "runs_excluded_missed", "iops_median",
                "iops_p25", "iops_p75", "iops_ratio_perf", "iops_runs",
                "energy_per_io_mj", "placement", "policy", "ci95_low_s", "ci95_high_s",
                "ratio_perf", "ratio_perf_ci95", "iops_ci95", "iops_ratio_perf_ci95",
                "lab_fault"}


def make_fixture(parent):
    rdir = Path(parent) / "results"
    subprocess.run([sys.executable, str(FIXTURE), str(rdir)], check=True)
    return rdir


def run_report(*args, env=None):
    return subprocess.run([sys.executable, str(REPORT), *map(str, args)],
                          capture_output=True, text=True, env=env, timeout=600, check=False)


class Fixture(unittest.TestCase):
    """One fixture and one report (PNG and SVG) shared by a class's tests."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="test-report-")
        cls.rdir = make_fixture(cls.tmp.name)
        cls.res = run_report("--formats", "png,svg", cls.rdir)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def setUp(self):
        self.assertEqual(self.res.returncode, 0, self.res.stderr)


class SummaryTest(Fixture):
    def test_records(self):
        summary = json.loads((self.rdir / "summary.json").read_text())
        self.assertIsInstance(summary, list)
        got = {(r["workload"], r["kernel"], r["governor"], r["io_is_busy"]): r for r in summary}
        self.assertEqual(len(summary), len(got), "one record per config")
        self.assertEqual(set(got), set(EXPECTED))
        self.assertEqual([k[:2] for k in got][:2], [("wl-a", "baseline")] * 2, "report order")
        for key, want in EXPECTED.items():
            rec = got[key]
            self.assertLessEqual(SUMMARY_KEYS, set(rec), key)
            for name, value in want.items():
                with self.subTest(config=key, key=name):
                    self.check_value(rec[name], value)

    def check_value(self, got, want):
        if want is None:
            self.assertIsNone(got)
        elif isinstance(want, bool):
            self.assertIs(got, want)
        elif isinstance(want, dict):
            self.assertEqual(set(got), set(want))
            for k, v in want.items():
                self.assertAlmostEqual(got[k], v, places=6)
        elif isinstance(want, list):
            self.assertEqual(len(got), len(want))
            for g, w in zip(got, want):
                self.assertAlmostEqual(g, w, places=6)
        elif isinstance(want, int) and not isinstance(want, bool) and isinstance(got, int):
            self.assertEqual(got, want)
        else:
            self.assertIsNotNone(got)
            self.assertAlmostEqual(got, want, places=6)

    def test_plot_tsvs(self):
        rt = (self.rdir / "plots" / "runtime-wl-a.tsv").read_text().splitlines()
        self.assertIn("config\tbaseline\tp25\tp75\tpatched\tp25\tp75", rt)
        self.assertIn("ondemand io_is_busy=1\t1.32\t1.3\t1.34\t1.2\t1.18\t1.22", rt)
        tis = (self.rdir / "plots" / "time-in-state-wl-a.tsv").read_text().splitlines()
        self.assertIn("config\t800\t1200\t1600\t2000\t2400", tis)
        self.assertIn("baseline ondemand io_is_busy=0\t0.5\t0\t0\t0\t0.5", tis)


class FreePlacementTest(unittest.TestCase):
    """meta.json of a free-placement, shared-policy run: the workload's
    CPUs are both, the observer is not apart. PERF's CPU 0 busy 0.8 at
    2400 and CPU 1 busy 0.1 at 800 pool to busy (0.8 + 0.1) / 2 = 0.45 and
    (0.8 x 2400 + 0.1 x 800) / 0.9 = 2222.22 MHz; the energy counts both
    CPUs: the pinned record's plus the observer's."""

    def test_pooled(self):
        with tempfile.TemporaryDirectory(prefix="test-report-") as tmp:
            rdir = make_fixture(tmp)
            res = run_report("--no-plots", rdir)
            self.assertEqual(res.returncode, 0, res.stderr)
            key = ("wl-a", "baseline", "performance", None)
            pinned = {(r["workload"], r["kernel"], r["governor"], r["io_is_busy"]): r
                      for r in json.loads((rdir / "summary.json").read_text())}[key]
            meta = json.loads((rdir / "meta.json").read_text())
            meta.update(placement="free", workload_cpus=[0, 1], policy="shared",
                        observer={"cpu": 1, "apart": False})
            (rdir / "meta.json").write_text(json.dumps(meta))
            res = run_report("--no-plots", rdir)
            self.assertEqual(res.returncode, 0, res.stderr)
            free = {(r["workload"], r["kernel"], r["governor"], r["io_is_busy"]): r
                    for r in json.loads((rdir / "summary.json").read_text())}[key]
            md = (rdir / "report.md").read_text()
        self.assertEqual((pinned["placement"], pinned["policy"]), ("pinned", "per-cpu"))
        self.assertEqual((free["placement"], free["policy"]), ("free", "shared"))
        self.assertAlmostEqual(pinned["busy_share"], 0.8, places=6)
        self.assertAlmostEqual(free["busy_share"], 0.45, places=6)
        self.assertAlmostEqual(free["mean_busy_mhz"], 2000 / 0.9, places=3)
        self.assertAlmostEqual(free["energy_j"],
                               pinned["energy_j"] + pinned["energy_observer_j"], places=6)
        self.assertIn("placement free (workload CPUs 0, 1), policy shared", md)


class IopsFindingTest(unittest.TestCase):
    """A fio workload's paragraph compares IOPS and energy per I/O, never
    the runtime fio fixes; a verdict needs 3 runs a side."""

    def rec(self, kernel, io, iops, n):
        """A record with IOPS p25, median, p75 = iops and, as if
        performance did 300, the ratio's interval p25/300 - p75/300."""
        return {"kernel": kernel, "label": f"ondemand io_is_busy={io}", "iops_median": iops[1],
                "iops_p25": iops[0], "iops_p75": iops[2], "iops_ratio_perf": iops[1] / 300,
                "iops_ratio_perf_ci95": [iops[0] / 300, iops[2] / 300],
                "iops_runs": n, "efficiency": 0.5, "mean_busy_mhz": 1600.0,
                "energy_per_io_mj": 2.0, "lab_fault": False}

    def test_text(self):
        sys.path.insert(0, str(TOP / "scripts"))
        from ifmreport.findings import iops_finding  # pylint: disable=import-outside-toplevel
        base = self.rec("baseline", 0, (200, 210, 220), 3)
        text = iops_finding(base, self.rec("patched", 1, (250, 260, 270), 3))
        self.assertTrue(text.startswith("On the baseline kernel, ondemand io_is_busy=0 "
                                        "(its default) does 210 IOPS (p25-p75 200-220), "
                                        "0.70x performance's (95% interval 0.67-0.73); "
                                        "on the patched kernel"), text)
        self.assertIn("energy of the workload's CPUs per I/O 2.000 -> 2.000 mJ", text)
        # intervals 0.67-0.73 and 0.83-0.90
        self.assertIn("The patched kernel's ondemand does more I/O: the 95% intervals of the "
                      "IOPS relative to performance do not overlap (baseline 0.70x "
                      "(0.67-0.73), patched 0.87x (0.83-0.90)).", text)
        self.assertNotIn("time", text)
        text = iops_finding(base, self.rec("patched", 1, (170, 180, 190), 3))
        self.assertIn("does less I/O here: the 95% intervals", text)
        # 0.72-0.80 overlaps 0.67-0.73
        text = iops_finding(base, self.rec("patched", 1, (215, 230, 240), 3))
        self.assertIn("no clear difference here: the 95% intervals of the IOPS relative to "
                      "performance overlap (baseline 0.70x (0.67-0.73), patched 0.77x "
                      "(0.72-0.80)). Each against performance, the baseline's interval lies "
                      "below 1 (less I/O), the patched kernel's lies below 1 (less I/O).", text)
        text = iops_finding(base, self.rec("patched", 1, (250, 260, 270), 1))
        self.assertIn("Too few runs with IOPS for a verdict (3 and 1; 3 at least).", text)


class AttrCollector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs = []
        self.tags = set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.refs += [v or "" for k, v in attrs if k in ("src", "href")]


class ReportTest(Fixture):
    # ratio to performance 1.2 / 1.1 = 1.09, interval 1.16 / 1.2 - 1.24 / 1.0
    ROW_A = ("| patched | ondemand | 1 | 3 (+1 failed) | 1.200 (1.180-1.220) | 1.09 (0.97-1.24) "
             "| 2100 | 10.0% | 0.95 | 7.18 | 8.61 |")
    ROW_B = ("| baseline | ondemand | 0 | 3 | 2.600 (2.500-2.700) | 2.36 (2.00-2.80) | 1600 "
             "| 25.0% | 0.25 | 7.21 | 18.76 |")
    HEADER = ("| kernel | governor | io_is_busy | runs | median s (p25-p75) "
              "| time / performance (95% CI) | mean busy MHz "
              "| iowait share | efficiency | energy J (all but CPU 1) | energy x delay J s |")

    def test_markdown(self):
        md = (self.rdir / "report.md").read_text()
        self.assertIn(self.ROW_A, md)
        self.assertIn(self.ROW_B, md)
        # energy x delay 9.5325 x 2.05 (the two runs with samples)
        self.assertIn("| baseline | performance | - | 3 | 2.100 (2.050-2.150) | 1.00 (0.91-1.10) "
                      "| 2400 | 0.0% | n/a | 9.53 | 19.54 |", md)
        for text in ("QEMU emulator version 7.2.99", "a" * 40, "6.1.192-gbase", "quick run",
                     "2026-12-03T12:00:00Z", "[baseline-ondemand-wl-a.svg](perf/baseline-ondemand-wl-a.svg)",
                     "sampler on CPU 1 (the observer, held at performance apart from the "
                     "governor measured) at 100 Hz"):
            self.assertIn(text, md)
        # the tables without IOPS keep their columns
        wl_a = md.split("## Workload wl-a")[1].split("## Workload wl-b")[0]
        self.assertIn(self.HEADER, wl_a)
        self.assertNotIn("IOPS", wl_a)
        energy = md.split("## Energy model")[1]
        self.assertIn("every sampled CPU except the observer, CPU 1 (meta.json sampler_cpu; "
                      "its energy is energy_observer_j in summary.json)", energy)

    def test_missed_deadlines(self):
        md = (self.rdir / "report.md").read_text()
        wl_a, rest = md.split("## Workload wl-a")[1].split("## Workload wl-b")
        self.assertIn("a run missing more than 1% of its deadlines is flagged; more than 10%, "
                      "its samples are left out of the mean busy frequency", wl_a)
        self.assertIn("- order 12: baseline ondemand io_is_busy=1 wl-a #3, 15.00% of its "
                      "deadlines missed (above 10%: left out of the frequency and energy "
                      "statistics, its runtime counts)", wl_a)
        self.assertIn("- order 23: patched ondemand io_is_busy=1 wl-a #2, 2.36% of its "
                      "deadlines missed (above 1%: flagged, kept)", wl_a)
        self.assertNotIn("order 24:", wl_a)        # 0.85%: not flagged
        self.assertNotIn("Missed sampling deadlines", rest.split("## Energy model")[0])
        self.assertIn("runs whose sampler missed more than 10% of its deadlines, are left out",
                      md.split("## Energy model")[1])
        html = (self.rdir / "report.html").read_text()
        self.assertIn("2.36% of its deadlines missed (above 1%: flagged, kept)</li>", html)

    def test_iops(self):
        md = (self.rdir / "report.md").read_text()
        fio = md.split("## Workload fio-psync-qd1")[1].split("## Ground truth")[0]
        self.assertIn("| kernel | governor | io_is_busy | runs | median s (p25-p75) "
                      "| IOPS (p25-p75) | IOPS / performance (95% CI) | mean busy MHz |", fio)
        # intervals 480/540-540/480 and 300.5/540-360/480
        self.assertIn("| patched | performance | - | 4 | 0.505 (0.500-0.512) | 500 (490-520) "
                      "| 1.00 (0.89-1.12) | 2400 |", fio)
        self.assertIn("| patched | ondemand | 1 | 3 | 0.510 (0.505-0.515) | 330 (315-345) "
                      "| 0.66 (0.56-0.75) |", fio)
        self.assertIn("<td>330 (315-345)</td><td>0.66 (0.56-0.75)</td>",
                      (self.rdir / "report.html").read_text())
        # a missing and a malformed fio JSON: warnings naming the file
        err = self.res.stderr
        self.assertIn("samples/041-patched-performance---fio-psync-qd1-4.fio.json: cannot read",
                      err)
        self.assertIn("samples/044-patched-ondemand-1-fio-psync-qd1-3.fio.json: invalid JSON", err)
        self.assertIn("run 44 (patched ondemand io_is_busy=1 fio-psync-qd1 #3) has no IOPS", err)
        self.assertFalse([ln for ln in err.splitlines()
                          if "fio" in ln and not ln.startswith("report: warning: ")])

    def test_findings(self):
        md = (self.rdir / "report.md").read_text()
        wl_a, wl_b = md.split("## Workload wl-a")[1].split("## Workload wl-b")
        # 2.6 / 1.1 = 2.36, 1.2 / 1.1 = 1.09, powersave 3.1 / 1.1 = 2.82
        self.assertIn("ondemand io_is_busy=0 (its default) takes 2.36x performance's time "
                      "(median 2.60 s vs 1.10 s; powersave 2.82x)", wl_a)
        self.assertIn("ondemand io_is_busy=1 (its default) takes 1.09x performance's time", wl_a)
        self.assertIn("efficiency 0.25 -> 0.95", wl_a)
        self.assertIn("mean busy frequency 1600 -> 2100 MHz", wl_a)
        self.assertIn("modelled energy of the workload's CPUs 7.21 -> 7.18 J (-0.5%)", wl_a)
        # ratio intervals 2.4/1.2-2.8/1.0 and 1.16/1.2-1.24/1.0: apart
        self.assertIn("The patched kernel's ondemand is faster: the 95% intervals of the runtime "
                      "relative to performance do not overlap (baseline 2.36x (2.00-2.80), "
                      "patched 1.09x (0.97-1.24)).", wl_a)
        self.assertNotIn("no clear difference", wl_a)
        self.assertNotIn("p25-p75 runtime", md)
        # wl-b: the same runtimes on both kernels, 4.0/2.2-4.4/2.0
        self.assertIn("takes 2.00x performance's time", wl_b)
        self.assertIn("The fix makes no clear difference here: the 95% intervals of the runtime "
                      "relative to performance overlap (baseline 2.00x (1.82-2.20), patched "
                      "2.00x (1.82-2.20)). Each against performance, the baseline's interval "
                      "lies above 1 (slower), the patched kernel's lies above 1 (slower).", wl_b)
        self.assertNotIn("is faster", wl_b)
        # no ratio interval wholly below 1: no lab fault anywhere
        for text in ("Lab faults (", "Lab fault:", "(lab fault)", "[lab fault: b", "[lab fault: p"):
            self.assertNotIn(text, md)

    def test_failed_and_missing_runs_listed(self):
        md = (self.rdir / "report.md").read_text()
        failed = md.split("## Failed runs")[1]
        self.assertIn("order 25: patched ondemand io_is_busy=1 wl-a #4, status 1, 99.000 s", failed)
        nos = md.split("## Runs without samples")[1]
        self.assertIn("order 27: baseline performance wl-b #2", nos)
        self.assertIn("order 30: baseline ondemand io_is_busy=0 wl-b #2", nos)
        self.assertIn("030-baseline-ondemand-0-wl-b-2.tsv", self.res.stderr)

    def test_headline_first(self):
        """The headline section opens the report: one figure per workload,
        then the metadata and the first workload's before/after figure."""
        md = (self.rdir / "report.md").read_text()
        self.assertLess(md.index("## Headline"), md.index("## Setup"))
        imgs = [part.split(")", 1)[0] for part in md.split("](")[1:]]
        self.assertEqual(imgs[:4], ["plots/headline-wl-a.png", "plots/headline-wl-b.png",
                                    "plots/headline-fio-psync-qd1.png",
                                    "plots/beforeafter-wl-a.png"])
        self.assertLess(md.index("(plots/headline-fio-psync-qd1.png)"), md.index("## Setup"))
        self.assertIn("fio-psync-qd1: median IOPS / performance's median", md)
        html = (self.rdir / "report.html").read_text()
        self.assertLess(html.index("<h2>Headline</h2>"), html.index("<h2>Setup</h2>"))

    def test_headline_tsv(self):
        """Ratios and intervals of the summary (derived there), NaN where a
        kernel lacks the config; IOPS ratios for the fio workload."""
        plots = self.rdir / "plots"
        wl_a = (plots / "headline-wl-a.tsv").read_text().splitlines()
        self.assertIn("config\tbaseline\tlow\thigh\tpatched\tlow\thigh", wl_a)
        self.assertIn("ondemand io_is_busy=0\t2.36364\t2\t2.8\t2.36364\t2.16667\t2.6", wl_a)
        self.assertIn("performance\t1\t0.833333\t1.2\t1\t0.833333\t1.2", wl_a)
        wl_b = (plots / "headline-wl-b.tsv").read_text().splitlines()
        self.assertIn("ondemand io_is_busy=1\tNaN\tNaN\tNaN\t2\t1.81818\t2.2", wl_b)
        fio = (plots / "headline-fio-psync-qd1.tsv").read_text().splitlines()
        self.assertIn("config\tpatched\tlow\thigh", fio)
        self.assertIn("ondemand io_is_busy=1\t0.6605\t0.556481\t0.75", fio)

    def test_before_after_first(self):
        md = (self.rdir / "report.md").read_text()
        first_ba = md.index("![wl-a: ondemand, baseline (top)")
        self.assertLess(first_ba, md.index("## Workload wl-a"))
        self.assertGreater(first_ba, md.index("## Before / after"))
        self.assertTrue(md[first_ba:].split("](", 1)[1].startswith("plots/beforeafter-wl-a.png)"))
        # the runs nearest each config's median: baseline io 0 run 1 (2.60 s),
        # patched io 1 run 1 (1.20 s)
        self.assertIn("Top: baseline (6.1.192-gbase), ondemand io_is_busy=0, wl-a: run 1, 2.60 s", md)
        self.assertIn("bottom: patched (6.1.192-gpatch), ondemand io_is_busy=1, wl-a: run 1, 1.20 s", md)

    def test_html_self_contained(self):
        text = (self.rdir / "report.html").read_text()
        parser = AttrCollector()
        parser.feed(text)
        self.assertFalse({"script", "link", "iframe", "object"} & parser.tags)
        external = [r for r in parser.refs
                    if not r.startswith(("data:", "#", "perf/"))]
        self.assertEqual(external, [])
        self.assertIn("perf/baseline-ondemand-wl-a.svg", parser.refs)
        self.assertGreaterEqual(sum(r.startswith("data:image/png;base64,") for r in parser.refs), 5)
        self.assertIn("<td>1.200 (1.180-1.220)</td>", text)
        self.assertIn("efficiency 0.25 -&gt; 0.95", text)

    def test_plots(self):
        plots = self.rdir / "plots"
        titles = {
            "beforeafter-wl-a": "wl-a: ondemand, baseline (top) vs patched (bottom)",
            "beforeafter-wl-b": "wl-b: ondemand, baseline (top) vs patched (bottom)",
            "runtime-wl-a": "wl-a: runtime",
            "time-in-state-wl-b": "wl-b: time in state",
            "timechart-wl-a-patched-ondemand-io1":
                "patched (6.1.192-gpatch), ondemand io_is_busy=1, wl-a: run 1, 1.20 s",
            "timechart-wl-b-baseline-performance":
                "baseline (6.1.192-gbase), performance, wl-b: run 3, 2.10 s",
            "headline-wl-a": "wl-a: runtime / performance's",
            "headline-fio-psync-qd1": "fio-psync-qd1: IOPS / performance's",
        }
        for base, title in titles.items():
            with self.subTest(plot=base):
                self.assertEqual((plots / f"{base}.png").read_bytes()[:8], PNG_MAGIC)
                root = ET.parse(plots / f"{base}.svg").getroot()
                self.assertTrue(root.tag.endswith("svg"))
                self.assertIn(title, " ".join(root.itertext()))
        self.assertEqual(len(list(plots.glob("timechart-*.png"))), 14)


class GnuplotTest(unittest.TestCase):
    """The time-chart scripts alone, in the binned mode too."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="test-report-")
        cls.rdir = make_fixture(cls.tmp.name)
        cls.samples = sorted((cls.rdir / "samples").glob("*.tsv"))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def gnuplot(self, script, **variables):
        assign = "; ".join(f"{k}='{v}'" if isinstance(v, (str, Path)) else f"{k}={v}"
                           for k, v in variables.items())
        return subprocess.run(["gnuplot", "-e", assign, str(TOP / "plots" / script)],
                              capture_output=True, text=True, timeout=120, check=False)

    def test_timechart_binned(self):
        out = Path(self.tmp.name) / "binned.svg"
        res = self.gnuplot("timechart.gp", **{"in": self.samples[0], "out": out,
                                              "title": "binned chart", "bins": 20})
        self.assertEqual(res.returncode, 0, res.stderr)
        root = ET.parse(out).getroot()
        text = " ".join(root.itertext())
        for t in ("binned chart", "CPU 0", "CPU 1", "frequency (MHz)", "time (s)", "iowait"):
            self.assertIn(t, text)

    def test_beforeafter_exact_png(self):
        out = Path(self.tmp.name) / "ba.png"
        res = self.gnuplot("beforeafter.gp", base=self.samples[6], patched=self.samples[21],
                           out=out, bins=0, cpu=1)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(out.read_bytes()[:8], PNG_MAGIC)

    def test_bad_out(self):
        res = self.gnuplot("timechart.gp", **{"in": self.samples[0]})
        self.assertNotEqual(res.returncode, 0)
        self.assertIn("set out=", res.stdout + res.stderr)
        res = self.gnuplot("timechart.gp", **{"in": self.samples[0], "out": "x.pdf"})
        self.assertNotEqual(res.returncode, 0)
        self.assertIn("must end in .png or .svg", res.stdout + res.stderr)


class FreqSplitTest(unittest.TestCase):
    """An interval whose frequency changed between its start
    (freq_start_khz) and its end (freq_khz) credits half its busy time to
    each, as iowait-freqmon's summary does; without freq_start_khz the end
    frequency stands for the whole interval."""

    ROWS = [  # time_s cpu busy idle iowait freq_khz valid seq freq_start_khz start_s
        "0.010000\t0\t1.0000\t0.0000\t0.0000\t2400000\t1\t0\t800000\t0.000000",
        "0.020000\t0\t1.0000\t0.0000\t0.0000\t2400000\t1\t1\t2400000\t0.010000",
    ]

    def load(self, header, rows):
        import importlib.machinery
        import importlib.util
        loader = importlib.machinery.SourceFileLoader("report_mod", str(REPORT))
        spec = importlib.util.spec_from_loader("report_mod", loader)
        mod = importlib.util.module_from_spec(spec)
        loader.exec_module(mod)
        with tempfile.TemporaryDirectory() as d:
            p = Path(d) / "s.tsv"
            p.write_text("# interval_us: 10000\n" + header + "\n" + "\n".join(rows) + "\n")
            return mod.load_samples(p, None).cpus[0]

    def test_split(self):
        # 10 ms at 800 -> 2400: 5 ms each; 10 ms at 2400. Busy 20 ms:
        # 5 ms at 800 MHz, 15 ms at 2400 MHz, mean (5 x 800 + 15 x 2400) / 20.
        c = self.load("time_s\tcpu\tbusy\tidle\tiowait\tfreq_khz\tvalid\tseq\tfreq_start_khz\tstart_s",
                      self.ROWS)
        self.assertAlmostEqual(c.tis[800000], 0.005)
        self.assertAlmostEqual(c.tis[2400000], 0.015)
        self.assertAlmostEqual(c.busy_mhz_s / c.busy_freq_s, 2000.0)

    def test_end_only(self):
        rows = ["\t".join(r.split("\t")[:7]) for r in self.ROWS]
        c = self.load("time_s\tcpu\tbusy\tidle\tiowait\tfreq_khz\tvalid", rows)
        self.assertEqual(set(c.tis), {2400000})
        self.assertAlmostEqual(c.busy_mhz_s / c.busy_freq_s, 2400.0)


class ParseFioTrailerTest(unittest.TestCase):
    """fio's JSON (jobs' read.iops summed; notes before the JSON skipped;
    what is wrong with a bad one) and the sampler summary's missed
    deadlines in a TSV trailer."""

    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, str(TOP / "scripts"))
        from ifmreport import results
        cls.results = results
        cls.tmp = tempfile.TemporaryDirectory(prefix="test-report-")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def fio(self, text):
        p = Path(self.tmp.name) / "r1.fio.json"
        p.write_text(text)
        return self.results.load_fio_iops(p)

    def test_fio_json(self):
        job = '{"jobname": "qd1", "read": {"iops": %s}, "write": {"iops": 0}}'
        self.assertAlmostEqual(self.fio('{"jobs": [%s]}' % (job % "412.5")), 412.5)
        self.assertAlmostEqual(self.fio('{"jobs": [%s, %s]}' % (job % "100", job % "0.5")), 100.5)
        self.assertAlmostEqual(self.fio("note: both iodepth >= 1 and synchronous I/O engine "
                                        "are selected, queue depth will be capped at 1\n"
                                        '{"jobs": [%s]}' % (job % "7")), 7.0)
        for text, msg in (('{"jobs": [', "invalid JSON"), ('{"jobs": []}', "no jobs"),
                          ("[]", "no jobs"),
                          ('{"jobs": [{"write": {}}]}', "jobs[0] has no read.iops"),
                          ('{"jobs": [%s]}' % (job % '"fast"'), "is not a rate"),
                          ('{"jobs": [%s]}' % (job % "-1"), "is not a rate")):
            with self.subTest(text=text):
                with self.assertRaisesRegex(ValueError, msg.replace("[", r"\[")):
                    self.fio(text)
        with self.assertRaisesRegex(ValueError, "cannot read"):
            self.results.load_fio_iops(Path(self.tmp.name) / "none.fio.json")

    def test_missed_trailer(self):
        head = ("# interval_us: 10000\ntime_s\tcpu\tbusy\tidle\tiowait\tfreq_khz\tvalid\n"
                "0.010000\t0\t1.0\t0.0\t0.0\t800000\t1\n# end: x\n")
        p = Path(self.tmp.name) / "s.tsv"
        for line, pct, flagged, excluded in (
                ("", None, False, False),
                ("# missed deadlines: 1 (0.85%), dropped samples: 0, truncated reads: 0, "
                 "read errors: 0, max wake-up latency: 1234 us\n", 0.85, False, False),
                ("# missed deadlines: 3 (2.36%), dropped samples: 0\n", 2.36, True, False),
                ("# missed deadlines: 40 (10.01%), dropped samples: 0\n", 10.01, True, True)):
            with self.subTest(line=line):
                p.write_text(head + line)
                s = self.results.load_samples(p, None)
                self.assertEqual((s.missed_pct, s.flagged, s.excluded), (pct, flagged, excluded))


class MendsTest(unittest.TestCase):
    """The review's mends: one reference function for runtimes and IOPS,
    each run's energy computed once, a time chart of an excluded run says
    so, and performance's median runtime 0 or missing gives null ratios and
    efficiency, not a crash."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="test-report-")
        self.rdir = make_fixture(self.tmp.name)
        sys.path.insert(0, str(TOP / "scripts"))
        from ifmreport import results, stats  # pylint: disable=import-outside-toplevel
        self.results, self.stats = results, stats

    def tearDown(self):
        self.tmp.cleanup()

    def edit_runs(self, fn):
        """Rewrite runs.tsv's rows (fields) with fn(fields) -> fields."""
        path = self.rdir / "runs.tsv"
        lines = path.read_text().splitlines()
        rows = [lines[0]] + ["\t".join(fn(ln.split("\t"))) for ln in lines[1:]]
        path.write_text("\n".join(rows) + "\n")

    def records(self):
        res = run_report("--no-plots", self.rdir)
        self.assertEqual(res.returncode, 0, res.stderr)
        return {(r["workload"], r["kernel"], r["governor"], r["io_is_busy"]): r
                for r in json.loads((self.rdir / "summary.json").read_text())}

    def test_reference_medians(self):
        runs = self.results.load_runs(self.rdir)
        iops = self.results.load_all_iops(runs, on_warn=lambda _msg: None)
        times = self.stats.reference_medians(runs)
        self.assertAlmostEqual(times[("wl-a", "baseline", "performance")], 1.10)
        self.assertAlmostEqual(times[("wl-a", "baseline", "powersave")], 3.10)
        self.assertNotIn(("wl-a", "baseline", "ondemand"), times)
        # IOPS 480, 500, 540 (the fourth run has no JSON: left out)
        ios = self.stats.reference_medians(runs, lambda r: iops.get(r.order))
        self.assertEqual(set(ios), {("fio-psync-qd1", "patched", "performance")})
        self.assertAlmostEqual(ios[("fio-psync-qd1", "patched", "performance")], 500.0)

    def test_energy_once_per_run(self):
        runs = self.results.load_runs(self.rdir)
        meta = self.results.load_meta(self.rdir)
        with contextlib.redirect_stderr(StringIO()):   # its warnings: tested elsewhere
            samples = self.results.load_all_samples(runs, self.results.power_model(meta))
        iops = self.results.load_all_iops(runs, on_warn=lambda _msg: None)
        calls = []
        real = self.stats.run_energy_j
        self.stats.run_energy_j = lambda s, *a: calls.append(s) or real(s, *a)
        try:
            self.stats.summarize(runs, samples, meta, iops)
        finally:
            self.stats.run_energy_j = real
        kept = [s for s in samples.values() if not s.excluded]
        self.assertEqual(len(calls), len(kept))
        self.assertEqual(len({id(s) for s in calls}), len(kept))

    def test_excluded_time_chart_says_so(self):
        # baseline ondemand io 1 wl-a: runs 10 and 11 lose their samples,
        # run 12 (15% of its deadlines missed) is the only one left
        self.edit_runs(lambda f: f[:8] + ["-"] if f[5] in ("10", "11") else f)
        res = run_report(self.rdir)
        self.assertEqual(res.returncode, 0, res.stderr)
        md = (self.rdir / "report.md").read_text()
        self.assertIn("*Time chart: baseline (6.1.192-gbase), ondemand io_is_busy=1, wl-a: run 3, "
                      "1.36 s. Run 3 of ondemand io_is_busy=1 (baseline) is one whose sampler "
                      "missed 15.00% of its deadlines (above 10%), left out of the frequency and "
                      "energy statistics: its configuration has no other run with samples.*", md)
        self.assertEqual(md.count("whose sampler missed 15.00%"), 2)   # alt text and caption

    def test_performance_zero_or_missing(self):
        # wl-a baseline performance takes 0 s; wl-b patched performance fails
        def edit(f):
            if f[:2] == ["baseline", "performance"] and f[3] == "wl-a":
                return f[:6] + ["0.000"] + f[7:]
            if f[:2] == ["patched", "performance"] and f[3] == "wl-b":
                return f[:7] + ["1", f[8]]
            return f
        self.edit_runs(edit)
        got = self.records()
        od0 = got[("wl-a", "baseline", "ondemand", 0)]
        for key in ("ratio_perf", "ratio_perf_ci95", "efficiency"):
            self.assertIsNone(od0[key], key)
        self.assertFalse(od0["lab_fault"])
        perf = got[("wl-a", "baseline", "performance", None)]
        self.assertEqual([perf["ci95_low_s"], perf["ci95_high_s"]], [0.0, 0.0])
        self.assertIsNone(perf["ratio_perf"])
        od1 = got[("wl-b", "patched", "ondemand", 1)]
        self.assertIsNone(od1["ratio_perf"])
        self.assertIsNone(od1["ratio_perf_ci95"])
        self.assertIsNone(got[("wl-b", "patched", "performance", None)]["median_s"])
        md = (self.rdir / "report.md").read_text()
        self.assertIn("ondemand io_is_busy=0 (its default) takes a median 2.60 s (performance's "
                      "median is 0: no ratio)", md)
        self.assertIn("No verdict: no 95% interval of the runtime relative to performance on "
                      "both kernels (baseline n/a, patched 1.09x (0.97-1.24)", md)
        self.assertIn("ondemand io_is_busy=1 (its default) takes a median 4.20 s (no performance "
                      "runs to compare with)", md)


class BadInputTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="test-report-")
        self.rdir = make_fixture(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def assert_error(self, res, *texts):
        self.assertEqual(res.returncode, 1, res.stderr)
        lines = res.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, res.stderr)
        self.assertTrue(lines[0].startswith("report: error: "), lines[0])
        for t in texts:
            self.assertIn(t, lines[0])

    def edit_runs(self, line, fn):
        path = self.rdir / "runs.tsv"
        lines = path.read_text().splitlines()
        lines[line - 1] = fn(lines[line - 1])
        path.write_text("\n".join(lines) + "\n")

    def test_missing_runs(self):
        (self.rdir / "runs.tsv").unlink()
        self.assert_error(run_report("--no-plots", self.rdir), "runs.tsv", "cannot read")

    def test_missing_meta(self):
        (self.rdir / "meta.json").unlink()
        self.assert_error(run_report("--no-plots", self.rdir), "meta.json")

    def test_bad_json(self):
        (self.rdir / "meta.json").write_text('{\n"quick": true,\n}\n')
        self.assert_error(run_report("--no-plots", self.rdir), "meta.json:3:")

    def test_malformed_runtime(self):
        self.edit_runs(5, lambda ln: ln.replace("\t3.000\t", "\tabc\t"))
        self.assert_error(run_report("--no-plots", self.rdir), "runs.tsv:5:", "runtime_s", "abc")

    def test_wrong_field_count(self):
        self.edit_runs(3, lambda ln: ln.rsplit("\t", 1)[0])
        self.assert_error(run_report("--no-plots", self.rdir), "runs.tsv:3:", "8 tab-separated")

    def test_unknown_governor(self):
        self.edit_runs(7, lambda ln: ln.replace("powersave", "turbo"))
        self.assert_error(run_report("--no-plots", self.rdir), "runs.tsv:7:", "turbo")

    def test_bad_header(self):
        self.edit_runs(1, lambda ln: ln.replace("runtime_s", "runtime"))
        self.assert_error(run_report("--no-plots", self.rdir), "runs.tsv:1:", "header")

    def test_not_a_directory(self):
        self.assert_error(run_report("--no-plots", self.rdir / "nothing"), "not a directory")

    def test_failed_run_excluded(self):
        # make a wl-a baseline performance run fail: its 1.20 s leaves the median
        self.edit_runs(3, lambda ln: ln[:ln.rindex("\t0\t")] + "\t7\t" + ln.rsplit("\t", 1)[1])
        res = run_report("--no-plots", self.rdir)
        self.assertEqual(res.returncode, 0, res.stderr)
        rec = json.loads((self.rdir / "summary.json").read_text())[0]
        self.assertEqual((rec["runs"], rec["failed"]), (2, 1))
        self.assertAlmostEqual(rec["median_s"], 1.05)  # of 1.00 and 1.10
        self.assertAlmostEqual(rec["energy_j"], (7.26 + 7.986) / 2)
        md = (self.rdir / "report.md").read_text()
        self.assertIn("order 2: baseline performance wl-a #2, status 7, 1.200 s",
                      md.split("## Failed runs")[1])
        self.assertIn("| baseline | performance | - | 2 (+1 failed) | 1.050 (1.025-1.075) "
                      "| 1.00 (0.91-1.10) |", md)

    def test_malformed_samples_file(self):
        path = next((self.rdir / "samples").glob("007-*"))
        lines = path.read_text().splitlines()
        lines[12] = "0.05\tzero\t1\t0\t0\t800000\t1"
        path.write_text("\n".join(lines) + "\n")
        res = run_report("--no-plots", self.rdir)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn(f"{path.name}:13: malformed sample row", res.stderr)
        rec = json.loads((self.rdir / "summary.json").read_text())[2]
        self.assertEqual((rec["governor"], rec["io_is_busy"], rec["no_samples"]), ("ondemand", 0, 1))
        self.assertEqual(rec["runs"], 3)
        self.assertAlmostEqual(rec["energy_j"], (2.4 + 2.8) / 2 * 2.775)

    def test_usage(self):
        self.assertEqual(run_report().returncode, 2)
        self.assertEqual(run_report("--formats", "pdf", self.rdir).returncode, 2)
        self.assertEqual(run_report("--bogus", self.rdir).returncode, 2)
        res = run_report("--help")
        self.assertEqual(res.returncode, 0)
        self.assertIn("usage:", res.stdout)
        self.assertIn("--no-plots", res.stdout)

    def test_no_gnuplot(self):
        env = dict(os.environ, PATH=str(self.rdir / "samples"))
        self.assert_error(run_report(self.rdir, env=env), "gnuplot")
        res = run_report("--no-plots", self.rdir, env=env)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertTrue((self.rdir / "report.html").is_file())
        self.assertTrue((self.rdir / "plots" / "runtime-wl-a.tsv").is_file())
        self.assertEqual(list((self.rdir / "plots").glob("*.png")), [])


if __name__ == "__main__":
    unittest.main()

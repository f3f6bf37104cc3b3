#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of the 95% intervals of scripts/report: the percentile bootstrap
(scripts/ifmreport/bootstrap.py), the lab-fault flag (intervals.py), the
verdicts drawn from the intervals (findings.py) and the headline figure
(plots/headline.gp).

Usage: test_intervals.py [unittest arguments, e.g. BootstrapTest]

Hand derivations (2000 resamples; the interval is the 2.5th and 97.5th
percentile of the resampled statistic, linear interpolation):

  - values all equal: every resample's median is that value: [v, v].
  - 3 distinct values a < b < c: a resample's median is a when 2 or 3 of
    its 3 draws are a, P = 3 x (1/3)^2 x (2/3) + (1/3)^3 = 7/27 = 26%, far
    above 2.5% (about 518 of 2000 resamples; the 2.5th percentile is
    between the 50th and 51st smallest): [a, c].
  - 2 values a < b: the median is a with P 1/4, b with 1/4: [a, b].
  - the ratio of the medians of 3 runs to 3 runs, resampled apart: at its
    least min_num / max_den with P (7/27)^2 = 6.7% > 2.5%, at its most
    max_num / min_den likewise: [min_num / max_den, max_num / min_den].
  - a denominator [0, 0, 5]: resample medians of 0 (P 20/27): no interval.

Lab fault, end to end: the fixture with wl-b's patched ondemand io 1 at
1.5, 1.6, 1.7 s against performance's 2.0, 2.1, 2.2 s: ratio 1.6 / 2.1 =
0.762, interval [1.5 / 2.2, 1.7 / 2.0] = [0.682, 0.85], wholly below 1.
"""
import json
import random
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOP = HERE.parent.parent
sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, str(TOP / "scripts"))
sys.path.insert(0, str(HERE))
from ifmreport import bootstrap, findings, intervals  # noqa: E402
from test_report import PNG_MAGIC, make_fixture, run_report  # noqa: E402


class BootstrapTest(unittest.TestCase):
    def assert_interval(self, got, want):
        self.assertIsNotNone(got)
        self.assertEqual(len(got), 2)
        for g, w in zip(got, want):
            self.assertAlmostEqual(g, w, places=9)

    def test_constant(self):
        self.assertEqual(bootstrap.median_ci([10, 10, 10]), [10, 10])
        self.assertEqual(bootstrap.ratio_ci([10, 10, 10], [5, 5]), [2.0, 2.0])

    def test_three_and_two_values(self):
        self.assert_interval(bootstrap.median_ci([1.1, 1.0, 1.2]), [1.0, 1.2])
        self.assert_interval(bootstrap.median_ci([360.0, 300.5]), [300.5, 360.0])

    def test_ratio_three_to_three(self):
        self.assert_interval(bootstrap.ratio_ci([2.6, 2.4, 2.8], [1.0, 1.2, 1.1]),
                             [2.4 / 1.2, 2.8 / 1.0])
        # performance against itself, resampled on both sides
        self.assert_interval(bootstrap.ratio_ci([1.0, 1.2, 1.1], [1.0, 1.2, 1.1]),
                             [1.0 / 1.2, 1.2 / 1.0])

    def test_too_few_or_undefined(self):
        self.assertIsNone(bootstrap.median_ci([5.0]))
        self.assertIsNone(bootstrap.median_ci([]))
        self.assertIsNone(bootstrap.ratio_ci([1.0, 2.0], [3.0]))
        self.assertIsNone(bootstrap.ratio_ci([1.0], [3.0, 4.0]))
        self.assertIsNone(bootstrap.ratio_ci([1.0, 2.0, 3.0], [0.0, 0.0, 5.0]))

    def test_deterministic_no_global_state(self):
        values = [float(v) for v in range(1, 21)]
        random.seed(7)
        expect = random.random()
        random.seed(7)
        first = bootstrap.median_ci(values)
        self.assertEqual(random.random(), expect, "the global random state was used")
        self.assertEqual(bootstrap.median_ci(values), first)
        self.assertEqual(bootstrap.median_ci(values, random.Random(bootstrap.SEED)), first)
        # the interval of 20 values lies inside their range, around the median
        self.assertTrue(1.0 <= first[0] < 10.5 < first[1] <= 20.0, first)

    def test_level_and_resamples(self):
        values = [float(v) for v in range(1, 21)]
        wide = bootstrap.median_ci(values, level=0.99)
        narrow = bootstrap.median_ci(values, level=0.5)
        self.assertLessEqual(wide[0], narrow[0])
        self.assertGreaterEqual(wide[1], narrow[1])
        self.assertEqual(len(bootstrap.resampled_medians(values, random.Random(1), 10)), 10)


def rec(governor="ondemand", ci=None, iops_ci=None, kernel="patched"):
    """A record with a runtime ratio interval ci, or IOPS and their ratio
    interval iops_ci."""
    mid = None if ci is None else sum(ci) / 2
    imid = None if iops_ci is None else sum(iops_ci) / 2
    return {"governor": governor, "kernel": kernel, "label": f"{governor} io_is_busy=1",
            "ratio_perf": mid, "ratio_perf_ci95": ci,
            "iops_median": None if iops_ci is None else 100.0,
            "iops_ratio_perf": imid, "iops_ratio_perf_ci95": iops_ci}


class LabFaultTest(unittest.TestCase):
    """The flag alone, then in a report."""

    def test_rule(self):
        self.assertTrue(intervals.is_lab_fault(rec(ci=[0.8, 0.9])))
        self.assertFalse(intervals.is_lab_fault(rec(ci=[0.9, 1.0])), "touching 1 is noise")
        self.assertFalse(intervals.is_lab_fault(rec(ci=[1.1, 1.3])))
        self.assertFalse(intervals.is_lab_fault(rec(ci=None)))
        self.assertFalse(intervals.is_lab_fault(rec("performance", ci=[0.8, 0.9])))
        self.assertTrue(intervals.is_lab_fault(rec("powersave", ci=[0.8, 0.9])))
        # IOPS: above 1 is the fault; the runtime ratio does not count then
        self.assertTrue(intervals.is_lab_fault(rec(ci=[1.1, 1.2], iops_ci=[1.05, 1.2])))
        self.assertFalse(intervals.is_lab_fault(rec(ci=[0.8, 0.9], iops_ci=[0.9, 1.2])))
        self.assertEqual(intervals.fault_detail(rec(ci=[0.8, 0.9])),
                         "its runtime is 0.85x performance's, 95% interval 0.80-0.90, "
                         "wholly below 1")
        self.assertEqual(intervals.fault_detail(rec(iops_ci=[1.05, 1.25])),
                         "its IOPS are 1.15x performance's, 95% interval 1.05-1.25, "
                         "wholly above 1")

    def test_in_report(self):
        with tempfile.TemporaryDirectory(prefix="test-intervals-") as tmp:
            rdir = make_fixture(tmp)
            path = rdir / "runs.tsv"
            faster = {"4.000": "1.500", "4.400": "1.600", "4.200": "1.700"}
            rows = []
            for line in path.read_text().splitlines():
                f = line.split("\t")
                if f[:2] == ["patched", "ondemand"] and f[3] == "wl-b":
                    f[6] = faster[f[6]]
                rows.append("\t".join(f))
            path.write_text("\n".join(rows) + "\n")
            res = run_report(rdir)
            self.assertEqual(res.returncode, 0, res.stderr)
            recs = {(r["workload"], r["kernel"], r["governor"], r["io_is_busy"]): r
                    for r in json.loads((rdir / "summary.json").read_text())}
            md = (rdir / "report.md").read_text()
            html = (rdir / "report.html").read_text()
            tsv = (rdir / "plots" / "headline-wl-b.tsv").read_text()
        fault = recs[("wl-b", "patched", "ondemand", 1)]
        self.assertIs(fault["lab_fault"], True)
        self.assertAlmostEqual(fault["ratio_perf"], 1.6 / 2.1)
        self.assertAlmostEqual(fault["ratio_perf_ci95"][0], 1.5 / 2.2)
        self.assertAlmostEqual(fault["ratio_perf_ci95"][1], 1.7 / 2.0)
        self.assertEqual([k for k, r in recs.items() if r["lab_fault"]],
                         [("wl-b", "patched", "ondemand", 1)])
        detail = ("its runtime is 0.76x performance's, 95% interval 0.68-0.85, wholly below 1")
        headline = md.split("## Headline")[1].split("## Setup")[0]
        self.assertIn(f"- wl-b: patched ondemand io_is_busy=1: {detail}", headline)
        wl_b = md.split("## Workload wl-b")[1].split("## Workload fio-psync-qd1")[0]
        self.assertIn("| patched | ondemand (lab fault) | 1 | 3 | 1.600 (1.550-1.650) "
                      "| 0.76 (0.68-0.85) |", wl_b)
        self.assertIn(f"No comparison for this workload. Lab fault: the patched kernel's "
                      f"ondemand io_is_busy=1 beats performance ({detail}): lab noise or a lab "
                      "defect, not a result. No verdict is drawn from it.", wl_b)
        for verdict in ("is faster", "is slower", "no clear difference", "takes 0.76x"):
            self.assertNotIn(verdict, wl_b)
        self.assertIn("<td>ondemand (lab fault)</td>", html)
        self.assertIn("ondemand io_is_busy=1 [lab fault: patched]\tNaN\tNaN\tNaN\t0.761905"
                      "\t0.681818\t0.85", tsv)
        # wl-a is untouched: still a verdict
        self.assertIn("The patched kernel's ondemand is faster", md)


def vrec(kernel, ci, key="ratio_perf"):
    mid = None if ci is None else sum(ci) / 2
    return {"kernel": kernel, key: mid, key + "_ci95": ci}


class VerdictTest(unittest.TestCase):
    """The runtime verdict from the ratio intervals of both kernels."""

    def test_faster_slower_overlap(self):
        base = vrec("baseline", [2.0, 2.8])
        self.assertEqual(findings.verdict(base, vrec("patched", [0.96, 1.24])),
                         "The patched kernel's ondemand is faster: the 95% intervals of the "
                         "runtime relative to performance do not overlap (baseline 2.40x "
                         "(2.00-2.80), patched 1.10x (0.96-1.24)).")
        self.assertIn("is slower here: the 95% intervals",
                      findings.verdict(base, vrec("patched", [2.9, 3.1])))
        self.assertIn("no clear difference here: the 95% intervals of the runtime relative to "
                      "performance overlap", findings.verdict(base, vrec("patched", [2.8, 3.0])))

    def test_overlap_says_where_each_lies_against_1(self):
        # the full run of 2026-12-07: the intervals overlap, but only the
        # baseline's excludes performance's speed
        text = findings.verdict(vrec("baseline", [1.04, 1.21]), vrec("patched", [0.91, 1.18]))
        self.assertEqual(text, "The fix makes no clear difference here: the 95% intervals of the "
                         "runtime relative to performance overlap (baseline 1.12x (1.04-1.21), "
                         "patched 1.04x (0.91-1.18)). Each against performance, the baseline's "
                         "interval lies above 1 (slower), the patched kernel's contains 1 (not "
                         "told apart from performance).")
        text = findings.verdict(vrec("baseline", [0.9, 1.0]), vrec("patched", [0.95, 1.05]))
        self.assertIn("the baseline's interval contains 1 (not told apart from performance), "
                      "the patched kernel's contains 1", text)
        def io(kernel, ci):
            return dict(vrec(kernel, ci, "iops_ratio_perf"), iops_runs=5)
        text = findings.iops_verdict(io("baseline", [0.6, 0.8]), io("patched", [0.7, 1.1]))
        self.assertIn("the baseline's interval lies below 1 (less I/O), the patched kernel's "
                      "contains 1", text)
        text = findings.iops_verdict(io("baseline", [1.01, 1.2]), io("patched", [1.1, 1.3]))
        self.assertIn("the baseline's interval lies above 1 (more I/O), the patched kernel's "
                      "lies above 1 (more I/O).", text)

    def test_no_interval(self):
        text = findings.verdict(vrec("baseline", [2.0, 2.8]), vrec("patched", None))
        self.assertTrue(text.startswith("No verdict: no 95% interval of the runtime relative to "
                                        "performance on both kernels (baseline 2.40x "
                                        "(2.00-2.80), patched n/a;"), text)


class HeadlineGnuplotTest(unittest.TestCase):
    """plots/headline.gp alone: one kernel, a zero-width interval, a ratio
    without interval, bad output names."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="test-intervals-")
        self.dir = Path(self.tmp.name)
        self.tsv = self.dir / "h.tsv"
        self.tsv.write_text("# test\nconfig\tpatched\tlow\thigh\n"
                            "performance\t1\t1\t1\n"
                            "ondemand io_is_busy=1\t1.4\tNaN\tNaN\n"
                            "schedutil [lab fault: patched]\t0.8\t0.7\t0.9\n")

    def tearDown(self):
        self.tmp.cleanup()

    def gnuplot(self, **variables):
        assign = "; ".join(f"{k}='{v}'" for k, v in variables.items())
        return subprocess.run(["gnuplot", "-e", assign, str(TOP / "plots" / "headline.gp")],
                              capture_output=True, text=True, timeout=120, check=False)

    def test_svg_and_png(self):
        out = self.dir / "h.svg"
        res = self.gnuplot(**{"in": self.tsv, "out": out, "title": "w: runtime ratio"})
        self.assertEqual(res.returncode, 0, res.stderr)
        text = " ".join(ET.parse(out).getroot().itertext())
        for t in ("w: runtime ratio", "patched", "performance (1)",
                  "schedutil [lab fault: patched]", "median / performance's median"):
            self.assertIn(t, text)
        out = self.dir / "h.png"
        res = self.gnuplot(**{"in": self.tsv, "out": out})
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(out.read_bytes()[:8], PNG_MAGIC)

    def test_bad_use(self):
        res = self.gnuplot(out=self.dir / "h.png")
        self.assertNotEqual(res.returncode, 0)
        self.assertIn("set in=", res.stdout + res.stderr)
        res = self.gnuplot(**{"in": self.tsv, "out": self.dir / "h.pdf"})
        self.assertNotEqual(res.returncode, 0)
        self.assertIn("must end in .png or .svg", res.stdout + res.stderr)


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of the ground truth in scripts/report (scripts/validation.py):
validation.json, the report's ground-truth section, bad input.

Usage: test_validation.py [unittest arguments, e.g. ValidationTest]

make-fixture.py writes three runs recorded under perf (its TRUTH comment):
times in ms after each run's T0, sampler rows of 10 ms ending at 10..100,
workload window (timer_list "now at") [10, 90] = 80 ms.

Sampled runs (patched and baseline, the same trace and sampler TSV):

  trace, sampler window [0, 100):
    cpu0 busy [0, 20) + [50, 80) = 50 ms -> 0.5; iowait [20, 50) -> 0.3;
         busy at 800 MHz [0, 20) + [50, 55) = 25, at 2400 [55, 80) = 25:
         mean 1600, time in state {800: 0.5, 2400: 0.5}
    cpu1 busy [10k, 10k+1), k = 0..9: 10 ms -> 0.1, at 1200 MHz
  sampler, cpu0: busy 0.0095 + 0.01 + 0.03 = 0.0495 s -> 0.495;
         iowait 0.01 + 0.01 + 0.009 = 0.029 -> 0.29;
         busy at 800: 0.0195, at 2400: 0.03 (the frequency at each row's end)
         mean (0.0195 x 800 + 0.03 x 2400) / 0.0495 = 87.6 / 0.0495 = 1769.697
    err_busy_pp   100 (0.495 - 0.5) = -0.5
    err_iowait_pp 100 (0.29 - 0.3)  = -1.0
    err_tis_pp    800: 100 (0.0195/0.0495 - 0.5) = -10.60606, 2400: +10.60606,
                  max 10.60606
    err_mean_busy_mhz_pct 100 (1769.697 / 1600 - 1) = +10.60606
    cpu1: every error 0
  trace, workload window [10, 90):
    cpu0 busy [10, 20) + [50, 80) = 40 -> 0.5; iowait 30 -> 0.375; idle
         [80, 90) -> 0.125; busy at 800: 15, at 2400: 25: mean 1800,
         {800: 0.375, 2400: 0.625}
    cpu1 busy 8 ms -> 0.1, idle 0.9
  kernel, patched (timer_list live, the source):
    cpu0 idle +9 ms -> 0.1125 (err -1.25 pp), iowait +31 ms -> 0.3875 (+1.25)
    cpu1 idle +72 ms -> 0.9 (0), iowait 0 (0)
    /proc/stat (10 ms ticks): cpu0 idle +1 -> 0.125 (0), iowait +3 -> 0.375
         (0); cpu1 idle +7 -> 0.875 (-2.5)
  kernel, baseline (timer_list stale: source /proc/stat):
    cpu0 idle +0 -> 0 (err -12.5), iowait +4 -> 0.5 (+12.5);
    timer_list (not used) idle +5 ms -> 0.0625, iowait +20 ms -> 0.25

The run without the sampler (patched):
  trace, workload window: cpu0 busy [10, 20) + [51, 80) = 39 -> 0.4875,
    iowait [20, 51) -> 0.3875, idle 0.125; its frequency before the event
    at 55 comes from freq.before (800): mean (14 x 800 + 25 x 2400) / 39
    = 71200 / 39 = 1825.641; cpu1 idle throughout: busy 0
  kernel (timer_list live): cpu0 idle +10 ms, iowait +31 ms: errors 0
  /proc/stat: cpu0 iowait +3 ticks -> 0.375 (-1.25)
Observer effect (patched): sampler CPU busy 0.1 (its window), over the
  workload window on 0.1 / off 0; workload CPU on 0.5 / off 0.4875:
  +1.25 pp; runtimes 0.081 / 0.079. Baseline: off null, with a reason.
"""
import json
import os
import shutil
import sys
import tempfile
import unittest
from html.parser import HTMLParser
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOP = HERE.parent.parent
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, str(TOP / "scripts"))
import validation  # noqa: E402
sys.path.insert(0, str(HERE))
from test_report import make_fixture, run_report  # noqa: E402

PATCHED = "perf/patched-ondemand-io1-wl-a"
BASELINE = "perf/baseline-ondemand-io0-wl-a"
NOSAMPLER = "perf/patched-ondemand-io1-wl-a-nosampler"
E_TIS = 100 * (0.5 - 0.0195 / 0.0495)          # 10.60606...
E_MHZ = 100 * ((87.6 / 0.0495) / 1600 - 1)     # 10.60606...




def by_dir(recs):
    return {r["dir"]: r for r in recs}


class Base(unittest.TestCase):
    def assert_near(self, got, want, places=6, msg=None):
        if want is None:
            self.assertIsNone(got, msg)
        else:
            self.assertIsNotNone(got, msg)
            self.assertAlmostEqual(got, want, places=places, msg=msg)


class ValidationTest(Base):
    """validation.json of the fixture (report --no-plots)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="test-validation-")
        cls.rdir = make_fixture(cls.tmp.name)
        cls.res = run_report("--no-plots", cls.rdir)
        cls.recs = json.loads((cls.rdir / "validation.json").read_text())
        cls.rec = by_dir(cls.recs)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_exit_and_keys(self):
        self.assertEqual(self.res.returncode, 0, self.res.stderr)
        self.assertEqual([r["dir"] for r in self.recs], [BASELINE, PATCHED, NOSAMPLER])
        for r in self.recs:
            for k in ("kernel", "governor", "io_is_busy", "workload", "err_busy_pp",
                      "err_iowait_pp", "err_tis_pp_max", "err_mean_busy_mhz_pct",
                      "err_kernel_iowait_pp", "cpus", "observer", "sampler", "error"):
                self.assertIn(k, r)
            self.assertIsNone(r["error"])
        p = self.rec[PATCHED]
        self.assertEqual((p["kernel"], p["governor"], p["io_is_busy"], p["workload"], p["sampler"]),
                         ("patched", "ondemand", 1, "wl-a", True))
        self.assertEqual(self.rec[BASELINE]["io_is_busy"], 0)
        self.assertFalse(self.rec[NOSAMPLER]["sampler"])
        # summary.json keeps its shape
        summary = json.loads((self.rdir / "summary.json").read_text())
        self.assertIsInstance(summary, list)
        self.assertEqual(len(summary), 14)

    def test_sampler_errors(self):
        for d in (PATCHED, BASELINE):
            r = self.rec[d]
            with self.subTest(run=d):
                self.assert_near(r["err_busy_pp"], -0.5)
                self.assert_near(r["err_iowait_pp"], -1.0)
                self.assert_near(r["err_tis_pp_max"], E_TIS)
                self.assert_near(r["err_mean_busy_mhz_pct"], E_MHZ)
                c0 = r["cpus"]["0"]["sampler"]
                self.assert_near(c0["err_tis_pp"]["800"], -E_TIS)
                self.assert_near(c0["err_tis_pp"]["2400"], E_TIS)
                self.assert_near(c0["mean_busy_mhz"][0], 87.6 / 0.0495)
                self.assert_near(c0["mean_busy_mhz"][1], 1600)
                c1 = r["cpus"]["1"]["sampler"]
                for k in ("err_busy_pp", "err_iowait_pp", "err_tis_pp_max",
                          "err_mean_busy_mhz_pct"):
                    self.assert_near(c1[k], 0.0, msg=k)
                self.assertTrue(r["trace"]["aligned"])
                self.assertEqual(r["trace"]["iowait_source"], "schedstat")
                self.assert_near(r["window"]["sampler_s"], 0.1)
                self.assert_near(r["window"]["workload_s"], 0.08)
        n = self.rec[NOSAMPLER]
        for k in ("err_busy_pp", "err_iowait_pp", "err_tis_pp_max", "err_mean_busy_mhz_pct"):
            self.assertIsNone(n[k])
        self.assertTrue(any("without the sampler" in x for x in n["notes"]))

    def test_trace_over_workload_window(self):
        t = self.rec[PATCHED]["cpus"]["0"]["trace"]
        self.assert_near(t["busy_share"], 0.5)
        self.assert_near(t["iowait_share"], 0.375)
        self.assert_near(t["idle_share"], 0.125)
        self.assert_near(t["mean_busy_mhz"], 1800)
        self.assert_near(t["time_in_state"]["800"], 0.375)
        t = self.rec[NOSAMPLER]["cpus"]["0"]["trace"]
        self.assert_near(t["busy_share"], 0.4875)
        self.assert_near(t["iowait_share"], 0.3875)
        # 800 MHz before the first event, from freq.before
        self.assert_near(t["mean_busy_mhz"], 71200 / 39)
        self.assertEqual(self.rec[NOSAMPLER]["trace"]["initial_freq_khz"],
                         {"0": 800000, "1": 800000})
        # the sampled runs had frequency events before the snapshot: not used
        self.assertEqual(self.rec[PATCHED]["trace"]["initial_freq_khz"], {})

    def test_kernel_errors(self):
        p = self.rec[PATCHED]
        self.assertEqual(p["kernel_source"], "timer_list")
        self.assert_near(p["err_kernel_iowait_pp"], 1.25)
        self.assert_near(p["err_kernel_idle_pp"], -1.25)
        k1 = p["cpus"]["1"]["kernel"]
        self.assert_near(k1["err_idle_pp"], 0.0)
        self.assert_near(k1["err_iowait_pp"], 0.0)
        self.assert_near(k1["proc_stat"]["err_idle_pp"], -2.5)
        self.assert_near(p["cpus"]["0"]["kernel"]["proc_stat"]["err_iowait_pp"], 0.0)
        b = self.rec[BASELINE]
        self.assertEqual(b["kernel_source"], "proc_stat")
        self.assertFalse(b["cpus"]["0"]["kernel"]["timer_list_live"])
        self.assert_near(b["err_kernel_iowait_pp"], 12.5)
        self.assert_near(b["err_kernel_idle_pp"], -12.5)
        self.assert_near(b["cpus"]["0"]["kernel"]["timer_list"]["iowait_share"], 0.25)
        n = self.rec[NOSAMPLER]
        self.assert_near(n["err_kernel_iowait_pp"], 0.0)
        self.assert_near(n["err_kernel_idle_pp"], 0.0)
        self.assert_near(n["cpus"]["0"]["kernel"]["proc_stat"]["err_iowait_pp"], -1.25)

    def test_observer(self):
        for d in (PATCHED, NOSAMPLER):
            ob = self.rec[d]["observer"]
            with self.subTest(run=d):
                self.assert_near(ob["sampler_cpu_busy_share_on"], 0.1)
                self.assert_near(ob["sampler_cpu_busy_share_off"], 0.0)
                self.assert_near(ob["workload_cpu_busy_share_on"], 0.5)
                self.assert_near(ob["workload_cpu_busy_share_off"], 0.4875)
                self.assert_near(ob["workload_cpu_busy_delta_pp"], 1.25)
                self.assert_near(ob["runtime_s_on"], 0.081)
                self.assert_near(ob["runtime_s_off"], 0.079)
                self.assertIsNone(ob["reason"])
        self.assert_near(self.rec[PATCHED]["observer"]["sampler_cpu_busy_share"], 0.1)
        self.assertIsNone(self.rec[NOSAMPLER]["observer"]["sampler_cpu_busy_share"])
        ob = self.rec[BASELINE]["observer"]
        self.assert_near(ob["sampler_cpu_busy_share"], 0.1)
        self.assertIsNone(ob["workload_cpu_busy_share_off"])
        self.assertIsNone(ob["workload_cpu_busy_delta_pp"])
        self.assertIn("no run without the sampler", ob["reason"])

    def test_notes(self):
        self.assertTrue(any("lost 2 chunks" in n for n in self.rec[BASELINE]["notes"]))
        self.assertEqual(self.rec[PATCHED]["notes"], [])

    def test_trace_tsv_for_plots(self):
        """The aligned trace TSV has the sampler's rows and scripts/report
        reads it like a sampler TSV."""
        p = self.rec[PATCHED]["plots"]
        self.assertEqual(p["sampler_tsv"], f"{PATCHED}/samples.tsv")
        tsv = self.rdir / p["trace_tsv"]
        rows = [ln.split("\t") for ln in tsv.read_text().splitlines()
                if ln[:1].isdigit()]
        self.assertEqual(len(rows), 20)
        self.assertEqual(rows[0], ["0.010000", "0", "1.0000", "0.0000", "0.0000", "800000", "1"])
        self.assertEqual(rows[8], ["0.050000", "0", "0.0000", "0.0000", "1.0000", "800000", "1"])
        self.assertEqual(rows[10], ["0.060000", "0", "1.0000", "0.0000", "0.0000", "2400000", "1"])
        self.assertIn("# start_monotonic_ns: 5000000000", tsv.read_text())
        self.assertIsNone(self.rec[NOSAMPLER]["plots"]["sampler_tsv"])
        self.assertTrue((self.rdir / self.rec[NOSAMPLER]["plots"]["trace_tsv"]).is_file())


class ImgCollector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows = 0
        self.in_row = 0
        self.row_imgs = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "div" and a.get("class") == "row":
            self.rows += 1
            self.in_row = 1
            self.row_imgs.append(0)
        elif tag == "img" and self.in_row and (a.get("src") or "").startswith("data:image/png"):
            self.row_imgs[-1] += 1

    def handle_endtag(self, tag):
        if tag == "div":
            self.in_row = 0


class TruthReportTest(Base):
    """The report's ground-truth section, with figures."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="test-validation-")
        cls.rdir = make_fixture(cls.tmp.name)
        cls.res = run_report(cls.rdir)
        cls.md = (cls.rdir / "report.md").read_text()
        cls.html = (cls.rdir / "report.html").read_text()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def setUp(self):
        self.assertEqual(self.res.returncode, 0, self.res.stderr)

    def section(self):
        return self.md.split("## Ground truth")[1].split("## Energy model")[0]

    def test_error_table(self):
        sec = self.section()
        self.assertIn("| patched | ondemand io_is_busy=1 | wl-a | sampled | -0.50 | -1.00 | 10.61 "
                      "| +10.61 | +1.25 | -1.25 | timer_list |", sec)
        self.assertIn("| baseline | ondemand io_is_busy=0 | wl-a | sampled | -0.50 | -1.00 | 10.61 "
                      "| +10.61 | +12.50 | -12.50 | proc_stat |", sec)
        self.assertIn("| patched | ondemand io_is_busy=1 | wl-a | no sampler | n/a | n/a | n/a | n/a "
                      "| +0.00 | +0.00 | timer_list |", sec)
        self.assertIn("| patched | ondemand io_is_busy=1 | wl-a | 10.00% | 10.00% / 0.00% "
                      "| 50.00% / 48.75% | +1.25 | 0.081 / 0.079 |", sec)
        self.assertIn("no run without the sampler", sec)
        self.assertIn("lost 2 chunks", sec)
        self.assertLess(self.md.index("## Workload wl-b"), self.md.index("## Ground truth"))

    def test_side_by_side(self):
        plots = self.rdir / "plots"
        for name in ("patched-ondemand-io1-wl-a", "baseline-ondemand-io0-wl-a"):
            for kind in ("sampler", "trace"):
                with self.subTest(name=name, kind=kind):
                    self.assertEqual((plots / f"truth-{name}-{kind}.png").read_bytes()[:8],
                                     PNG_MAGIC)
            self.assertIn(f"(plots/truth-{name}-sampler.png) | ![", self.section())
            self.assertIn(f"(plots/truth-{name}-trace.png) |", self.section())
        self.assertFalse((plots / "truth-patched-ondemand-io1-wl-a-nosampler-trace.png").exists())
        parser = ImgCollector()
        parser.feed(self.html)
        self.assertEqual(parser.rows, 2)
        self.assertEqual(parser.row_imgs, [2, 2])
        self.assertIn("Ground truth: the sampler and the kernel against the perf trace", self.html)
        # still exactly the per-config time charts of the summary
        self.assertEqual(len(list(plots.glob("timechart-*.png"))), 14)


class TruthBadInputTest(Base):
    """Results folders with broken or partial perf runs: exit 0, a clear
    message, the rest still reported."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="test-validation-")
        self.rdir = make_fixture(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def report(self, *args, env=None):
        res = run_report(*args, self.rdir, env=env)
        self.assertEqual(res.returncode, 0, res.stderr)
        return res, by_dir(json.loads((self.rdir / "validation.json").read_text())), \
            (self.rdir / "report.md").read_text()

    def test_no_sampler_tsv(self):
        (self.rdir / PATCHED / "samples.tsv").unlink()
        _res, rec, md = self.report()
        p = rec[PATCHED]
        self.assertIsNone(p["error"])
        self.assertIsNone(p["err_busy_pp"])
        self.assertIsNone(p["plots"]["sampler_tsv"])
        self.assertTrue(any("no sampler TSV" in n for n in p["notes"]))
        # the rest still there: the kernel's errors, the trace chart, the others
        self.assert_near(p["err_kernel_iowait_pp"], 1.25)
        self.assert_near(rec[BASELINE]["err_busy_pp"], -0.5)
        self.assertIn(f"{PATCHED}: no sampler TSV (samples.tsv)", md)
        self.assertIn("No sampler TSV for this run: the traced time chart only.", md)
        self.assertIn("(plots/truth-patched-ondemand-io1-wl-a-trace.png)", md)
        self.assertNotIn("truth-patched-ondemand-io1-wl-a-sampler.png", md)
        # the trace's figure covers the workload's window at the sampler's rate
        tsv = self.rdir / p["plots"]["trace_tsv"]
        self.assertEqual(sum(1 for ln in tsv.read_text().splitlines() if ln[:1].isdigit()), 16)

    def test_kernel_idle_bounds(self):
        # the patched run with the kernel's idle-bound kprobes at cpu_idle's
        # own entries and exits, and one turn of the idle loop inside the
        # iowait: cpu_idle exits at 30 and enters again at 32 ms. The
        # cpu_idle view counts [30, 32) busy: sampler window busy 0.52,
        # iowait 0.28 (errors -2.5, +1.0 pp); workload window iowait
        # 28/80 = 0.35 (the kernel's error +3.75 pp). At the kernel's bounds
        # the loop is idle again: the fixture's own errors (-0.5, -1.0;
        # the kernel's +1.25 / -1.25).
        path = self.rdir / PATCHED / "perf.perf-script.txt"
        extra = "".join(f"         swapper     0 [000] 5.0{t}000000: {ev}\n" for t, ev in (
            ("20", "probe:tick_nohz_idle_enter: (ffffffff810c7a60)"),
            ("30", "power:cpu_idle: state=4294967295 cpu_id=0"),
            ("32", "power:cpu_idle: state=1 cpu_id=0"),
            ("50", "probe:tick_nohz_idle_exit: (ffffffff810c7c70)"),
            ("80", "probe:tick_nohz_idle_enter: (ffffffff810c7a60)")))
        path.write_text(path.read_text() + extra)
        _, rec, md = self.report("--no-plots")
        p = rec[PATCHED]
        self.assertIsNone(p["error"])
        self.assert_near(p["err_busy_pp"], -2.5)
        self.assert_near(p["err_iowait_pp"], 1.0)
        self.assert_near(p["err_kernel_iowait_pp"], 3.75)
        kb = p["kernel_bounds"]
        self.assert_near(kb["err_busy_pp"], -0.5)
        self.assert_near(kb["err_iowait_pp"], -1.0)
        # the loop [30, 32) ran at 800 MHz: traced busy 25 ms at 800 and 25
        # at 2400 (mean 1600 MHz) instead of 27 and 25; the sampler's mean
        # 1769.70 MHz puts 39.39% of busy at 800
        self.assert_near(kb["err_mean_busy_mhz_pct"], 100 * (1769.6969697 / 1600 - 1))
        self.assert_near(kb["err_tis_pp_max"], 100 * (0.5 - (2400 - 1769.6969697) / 1600))
        self.assert_near(p["err_mean_busy_mhz_pct"], 100 * (1769.6969697 / (
            (27 * 800 + 25 * 2400) / 52) - 1))
        self.assert_near(kb["err_kernel_iowait_pp"], 1.25)
        self.assert_near(kb["err_kernel_idle_pp"], -1.25)
        self.assertIsNone(kb["error"])
        self.assertIsNone(rec[BASELINE]["kernel_bounds"])
        sec = md.split("## Ground truth")[1].split("## Energy model")[0]
        self.assertIn("### At the kernel's own idle bounds", sec)
        self.assertIn("| patched | ondemand io_is_busy=1 | wl-a | sampled | -0.50 | -1.00 "
                      "| 10.61 | +10.61 | +1.25 | -1.25 |", sec)
        # the baseline's trace has no idle kprobes: no row of it there
        self.assertNotIn("| baseline |", sec.split("own idle bounds")[1].split("###")[0])

    def test_missing_events(self):
        path = self.rdir / PATCHED / "perf.perf-script.txt"
        path.write_text("".join(ln for ln in path.read_text().splitlines(keepends=True)
                                if "power:cpu_idle" not in ln))
        _res, rec, md = self.report("--no-plots")
        err = rec[PATCHED]["error"]
        self.assertIn("power:cpu_idle was not recorded", err)
        self.assertIsNone(rec[PATCHED]["err_busy_pp"])
        self.assertIsNone(rec[PATCHED]["err_kernel_iowait_pp"])
        self.assertIn("| patched | ondemand io_is_busy=1 | wl-a | sampled (error) | n/a |", md)
        self.assertIn(f"{PATCHED}: {err}", md)
        self.assert_near(rec[BASELINE]["err_busy_pp"], -0.5)
        # the reference run lost its partner: a reason, not a crash
        self.assertIsNone(rec[NOSAMPLER]["observer"]["workload_cpu_busy_delta_pp"])
        self.assertIn("no run with the sampler", rec[NOSAMPLER]["observer"]["reason"])

    def test_perf_data_without_perf(self):
        d = self.rdir / PATCHED
        (d / "perf.perf-script.txt").unlink()
        (d / "perf.data").write_bytes(b"PERFILE2" + bytes(200))
        env = dict(os.environ, PERF="/nonexistent/perf")
        _res, rec, md = self.report("--no-plots", env=env)
        err = rec[PATCHED]["error"]
        self.assertIn("is a perf.data, and /nonexistent/perf was not found", err)
        self.assertIn(err, md)

    def test_perf_script_text_preferred(self):
        d = self.rdir / PATCHED
        (d / "perf.data").write_bytes(b"PERFILE2" + bytes(200))
        env = dict(os.environ, PERF="/nonexistent/perf")
        _res, rec, _md = self.report("--no-plots", env=env)
        self.assertIsNone(rec[PATCHED]["error"])
        self.assert_near(rec[PATCHED]["err_busy_pp"], -0.5)

    def test_truncated_trace(self):
        path = self.rdir / BASELINE / "perf.perf-script.txt"
        path.write_text(path.read_text()[:-40])
        _res, rec, md = self.report("--no-plots")
        self.assertIn("truncated input", rec[BASELINE]["error"])
        self.assertIn("truncated input", md)

    def test_trace_starts_late(self):
        path = self.rdir / PATCHED / "perf.perf-script.txt"
        keep = [ln for ln in path.read_text().splitlines(keepends=True)
                if ln.startswith("#") or float(ln.split("]")[1].split(":")[0]) >= 5.03]
        path.write_text("".join(keep))
        _res, rec, _md = self.report("--no-plots")
        p = rec[PATCHED]
        self.assertIsNone(p["error"])
        self.assertTrue(any("does not cover the sampler's window" in n for n in p["notes"]),
                        p["notes"])
        self.assertEqual(p["trace"]["anomalies"], {"blocked_before_trace": 1})

    def test_no_trace(self):
        (self.rdir / BASELINE / "perf.perf-script.txt").unlink()
        _res, rec, _md = self.report("--no-plots")
        self.assertIn("no perf.data or *.perf-script.txt", rec[BASELINE]["error"])

    def test_bad_run_json(self):
        (self.rdir / NOSAMPLER / "run.json").write_text("{\n\"kernel\": \n")
        res, rec, _md = self.report("--no-plots")
        self.assertIn("run.json:3: invalid JSON", rec[NOSAMPLER]["error"])
        self.assertIn("run.json:3", res.stderr)
        self.assert_near(rec[PATCHED]["err_busy_pp"], -0.5)
        self.assertIsNone(rec[PATCHED]["observer"]["workload_cpu_busy_share_off"])

    def test_no_snapshots(self):
        for f in ("timer_list.before", "timer_list.after", "freq.before"):
            (self.rdir / PATCHED / f).unlink()
        _res, rec, _md = self.report("--no-plots")
        p = rec[PATCHED]
        self.assertIsNone(p["err_kernel_iowait_pp"])
        self.assertIsNone(p["kernel_source"])
        self.assertTrue(any("no timer_list snapshots" in n for n in p["notes"]))
        self.assert_near(p["err_busy_pp"], -0.5)
        # the workload's figures then cover the whole trace
        self.assertGreater(p["window"]["workload_s"], 0.08)

    def test_stale_timer_list_only(self):
        for f in ("stat.before", "stat.after"):
            (self.rdir / BASELINE / f).unlink()
        _res, rec, _md = self.report("--no-plots")
        b = rec[BASELINE]
        self.assertEqual(b["kernel_source"], "timer_list (stale)")
        self.assert_near(b["err_kernel_iowait_pp"], -12.5)   # 0.25 - 0.375
        self.assertTrue(any("stale timer_list" in n for n in b["notes"]))

    def test_no_perf_runs(self):
        shutil.rmtree(self.rdir / "perf")
        res = run_report("--no-plots", self.rdir)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(json.loads((self.rdir / "validation.json").read_text()), [])
        self.assertNotIn("Ground truth", (self.rdir / "report.md").read_text())


class ParseTest(Base):
    """The snapshot parsers and the per-CPU initial frequency alone."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="test-validation-")
        self.dir = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        p = self.dir / name
        p.write_text(text)
        return p

    def test_timer_list(self):
        p = self.write("tl", "Timer List Version: v0.9\nnow at 123 nsecs\n\ncpu: 0\n"
                       " clock 0:\n  .offset:     7 nsecs\n  .idle_sleeptime : 10 nsecs\n"
                       "  .iowait_sleeptime: 20 nsecs\n  .idle_active    : 1\n"
                       "  .nr_iowait      : 2\njiffies: 5\n\ncpu: 1\n"
                       "  .idle_sleeptime : 30 nsecs\n  .iowait_sleeptime: 0 nsecs\n"
                       "Tick Device: mode:     1\nPer CPU device: 1\n"
                       "  .idle_sleeptime : 99 nsecs\n")
        tl = validation.parse_timer_list(p)
        self.assertEqual(tl["now_ns"], 123)
        self.assertEqual(tl["cpus"][0], {"idle_sleeptime": 10, "iowait_sleeptime": 20,
                                         "idle_active": 1, "nr_iowait": 2})
        self.assertEqual(tl["cpus"][1], {"idle_sleeptime": 30, "iowait_sleeptime": 0})
        with self.assertRaisesRegex(validation.InputError, "now at"):
            validation.parse_timer_list(self.write("bad", "cpu: 0\n"))

    def test_stat_and_freq(self):
        st = validation.parse_stat(self.write("st", "cpu  1 2 3 4 5 6 7 8\n"
                                              "cpu0 1 2 3 40 50 6 7 8 0 0\nintr 1 2\n"))
        self.assertEqual(st, {0: {"user": 1, "nice": 2, "system": 3, "idle": 40, "iowait": 50,
                                  "irq": 6, "softirq": 7, "steal": 8}})
        self.assertEqual(validation.parse_freq(self.write("f", "0 800000\n1 2400000\n")),
                         {0: 800000, 1: 2400000})
        with self.assertRaisesRegex(validation.InputError, "f2:1"):
            validation.parse_freq(self.write("f2", "cpu0 fast\n"))

    def test_initial_freqs(self):
        tt = validation.tt
        text = ("a 1 [000] 1.000000000: power:cpu_frequency: state=1600000 cpu_id=1\n"
                "a 1 [000] 3.000000000: power:cpu_frequency: state=2400000 cpu_id=0\n")
        trace = tt.parse_trace(text, "t")
        self.assertEqual(validation.initial_freqs(trace, {0: 800000, 1: 800000}, 2_000_000_000),
                         {0: 800000})
        self.assertEqual(validation.initial_freqs(trace, {0: 800000}, 500_000_000), {0: 800000})

    def test_kernel_shares(self):
        tl0 = {"now_ns": 0, "cpus": {0: {"idle_sleeptime": 0, "iowait_sleeptime": 0,
                                         "idle_active": 0}}}
        tl1 = {"now_ns": 200_000_000, "cpus": {0: {"idle_sleeptime": 50_000_000,
                                                   "iowait_sleeptime": 20_000_000,
                                                   "idle_active": 1}}}
        st0 = {0: {"idle": 0, "iowait": 0}}
        st1 = {0: {"idle": 5, "iowait": 3}}
        ks = validation.kernel_shares(tl0, tl1, st0, st1, 100, 0)
        self.assertTrue(ks["timer_list_live"])
        self.assert_near(ks["timer_list"]["idle_share"], 0.25)
        self.assert_near(ks["timer_list"]["iowait_share"], 0.1)
        self.assert_near(ks["proc_stat"]["idle_share"], 0.25)
        self.assert_near(ks["proc_stat"]["iowait_share"], 0.15)
        ks = validation.kernel_shares(tl0, tl1, None, None, 100, 1)
        self.assertIsNone(ks["timer_list"])
        self.assertIsNone(ks["proc_stat"])


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of scripts/converged (scripts/ifmreport/converge.py): which
(kernel, workload, config) of a results folder still need runs.

Usage: test_converge.py [unittest arguments, e.g. ConvergeTest]

The folder (RUNS below) has runs.tsv and meta.json only, mid-experiment:
no sampler TSVs (the samples column names files that do not exist, so
reading one would warn) and fio's JSON for the fio runs. The intervals
(test_intervals.py derives them): the median of 3 values a <= b <= c has
[a, c], a ratio of 3 runs to 3 [min / max, max / min]. With --min-runs 3
--tol 0.02:

  w, baseline
    performance   1.0 1.0 1.0    [1, 1] around 1: done
    ondemand-io0  2.0 2.0 2.0    ratio 2, [2, 2]: done
    ondemand-io1  1.0 1.5 2.0    ratio 1.5, [1.0, 2.0], beyond 1.47-1.53: needs runs
    conservative  1.5 1.5 + a failed run: 2 runs: needs runs
  w, patched
    performance   1.0 1.1 1.2    median 1.1, [1.0, 1.2] beyond 1.078-1.122: needs runs
    ondemand-io1  1.2 1.2 1.2    ratio 1.2 / 1.1, [1.2 / 1.2, 1.2 / 1.0]: needs runs
  w2, patched
    performance   1.0 1.0 1.0    done
    ondemand-io1  1.3 1.3 1.3    ratio 1.3, [1.3, 1.3]: done
    ondemand-io0  1.3 1.3 1.3 with a sampler that missed 15% of its
                  deadlines (no matter: runtimes all count): done
  fio-x, baseline (IOPS, the runtimes do not matter)
    performance   IOPS 500 500 500, runtimes 1 2 3: done
    ondemand-io0  IOPS 250 250 250: ratio 0.5, [0.5, 0.5]: done
    ondemand-io1  IOPS 250 300, the third run without JSON: needs runs

With --tol 0.5 the spread ones are done (1.0-2.0 within 0.75-2.25; 1.0-1.2
within 0.55-1.65; ratio 1.09 with 1.0-1.2 within 0.55-1.64): only the two
short of runs remain; with --min-runs 2 too, none (conservative [1.5, 1.5]
over [1, 1]; fio ondemand-io1 IOPS 250, 300 over 500: ratio 0.55 in
[0.5, 0.6], within 0.275-0.825).
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOP = HERE.parent.parent
CONVERGED = TOP / "scripts" / "converged"
sys.dont_write_bytecode = True   # no __pycache__ in the source tree

HEADER = "kernel\tgovernor\tio_is_busy\tworkload\trepeat\torder\truntime_s\tstatus\tsamples"
# (kernel, governor, io_is_busy, workload, [(runtime, status, IOPS or None)])
RUNS = [
    ("baseline", "performance", "-", "w", [(1.0, 0, None)] * 3),
    ("baseline", "ondemand", "0", "w", [(2.0, 0, None)] * 3),
    ("baseline", "ondemand", "1", "w", [(1.0, 0, None), (1.5, 0, None), (2.0, 0, None)]),
    ("baseline", "conservative", "-", "w", [(1.5, 0, None), (1.5, 0, None), (9.0, 1, None)]),
    ("patched", "performance", "-", "w", [(1.0, 0, None), (1.1, 0, None), (1.2, 0, None)]),
    ("patched", "ondemand", "1", "w", [(1.2, 0, None)] * 3),
    ("patched", "performance", "-", "w2", [(1.0, 0, None)] * 3),
    ("patched", "ondemand", "1", "w2", [(1.3, 0, None)] * 3),
    ("patched", "ondemand", "0", "w2", [(1.3, 0, None)] * 3),
    ("baseline", "performance", "-", "fio-x", [(1.0, 0, 500.0), (2.0, 0, 500.0), (3.0, 0, 500.0)]),
    ("baseline", "ondemand", "0", "fio-x", [(1.0, 0, 250.0), (1.5, 0, 250.0), (2.0, 0, 250.0)]),
    ("baseline", "ondemand", "1", "fio-x", [(1.0, 0, 250.0), (1.0, 0, 300.0), (1.0, 0, None)]),
]
PENDING = ["baseline\tw\tondemand-io1", "baseline\tw\tconservative",
           "patched\tw\tperformance", "patched\tw\tondemand-io1",
           "baseline\tfio-x\tondemand-io1"]


def fio_json(iops):
    return json.dumps({"jobs": [{"jobname": "qd1", "read": {"iops": iops}}]})


def write_results(rdir, runs, meta=True):
    """runs.tsv (+ meta.json) of RUNS-like rows; fio's JSON beside the
    named, never written, sampler TSVs."""
    (rdir / "samples").mkdir(parents=True)
    rows, order = [HEADER], 0
    for kernel, gov, io, wl, results in runs:
        for rep, (runtime, status, iops) in enumerate(results, 1):
            order += 1
            name = f"samples/{order:03d}.tsv"
            if iops is not None:
                (rdir / f"samples/{order:03d}.fio.json").write_text(fio_json(iops))
            rows.append(f"{kernel}\t{gov}\t{io}\t{wl}\t{rep}\t{order}\t{runtime:.3f}\t{status}\t{name}")
    (rdir / "runs.tsv").write_text("\n".join(rows) + "\n")
    if meta:
        (rdir / "meta.json").write_text(json.dumps({"workloads": {"w": {}, "w2": {}}}))


def converged(*args, cwd=None, cmd=None):
    return subprocess.run((cmd or [sys.executable, str(CONVERGED)]) + [str(a) for a in args],
                          capture_output=True, text=True, timeout=60, check=False, cwd=cwd,
                          env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))


class ConvergeTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="test-converge-")
        self.rdir = Path(self.tmp.name) / "results"
        write_results(self.rdir, RUNS)

    def tearDown(self):
        self.tmp.cleanup()

    def lines(self, *args):
        """stdout's lines; stderr holds the warning of the fio run without
        JSON only (no sampler TSV is read)."""
        res = converged(self.rdir, *args)
        self.assertEqual(res.returncode, 0, res.stderr)
        err = res.stderr.splitlines()
        self.assertEqual(len(err), 1, res.stderr)
        self.assertTrue(err[0].startswith("converge: warning: "), err[0])
        self.assertIn("036.fio.json: cannot read", err[0])
        return res.stdout.splitlines()

    def test_pending(self):
        self.assertEqual(self.lines("--min-runs", "3", "--tol", "0.02"), PENDING)
        self.assertEqual(self.lines(), PENDING, "defaults: 3 runs, 0.02")

    def test_looser(self):
        self.assertEqual(self.lines("--min-runs", "3", "--tol", "0.5"),
                         ["baseline\tw\tconservative", "baseline\tfio-x\tondemand-io1"])
        self.assertEqual(self.lines("--min-runs", "2", "--tol", "0.5"), [])

    def test_module_form(self):
        res = converged("-m", "ifmreport.converge", self.rdir, "--min-runs", "3", "--tol", "0.02",
                        cwd=TOP / "scripts", cmd=[sys.executable])
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(res.stdout.splitlines(), PENDING)

    def test_without_meta(self):
        """meta.json comes at the experiment's end: the workload order is
        then runs.tsv's."""
        (self.rdir / "meta.json").unlink()
        self.assertEqual(self.lines(), PENDING)

    def test_fio_json_warning(self):
        (self.rdir / "samples" / "028.fio.json").write_text('{"jobs": [')
        res = converged(self.rdir)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("converge: warning: ", res.stderr)
        self.assertIn("028.fio.json: invalid JSON", res.stderr)
        # baseline fio-x performance is down to 2 runs with IOPS
        self.assertIn("baseline\tfio-x\tperformance", res.stdout.splitlines())

    def test_bad_input(self):
        cases = [((self.rdir / "none",), "not a directory")]
        for args, msg in cases + [((self.rdir, "--tol", "-0.1"), "--tol"),
                                  ((self.rdir, "--min-runs", "0"), "--min-runs"),
                                  ((self.rdir, "--min-runs", "x"), "--min-runs"),
                                  ((), "usage")]:
            with self.subTest(args=args):
                res = converged(*args)
                self.assertEqual(res.returncode, 2)
                self.assertEqual(res.stdout, "")
                self.assertIn(msg, res.stderr)
        (self.rdir / "meta.json").write_text("{\n")
        res = converged(self.rdir)
        self.assertEqual(res.returncode, 2)
        self.assertIn("converge: error: ", res.stderr)
        self.assertIn("meta.json:2: invalid JSON", res.stderr)
        (self.rdir / "runs.tsv").write_text(HEADER + "\n")
        res = converged(self.rdir)
        self.assertEqual((res.returncode, res.stdout), (2, ""))
        self.assertIn("runs.tsv: no runs", res.stderr)
        (self.rdir / "runs.tsv").write_text("kernel\tgovernor\n")
        res = converged(self.rdir)
        self.assertEqual(res.returncode, 2)
        self.assertIn("runs.tsv:1: header must be", res.stderr)

    def test_fast(self):
        """320 runs (2 kernels, 4 workloads, 8 configs, 5 repeats, one fio
        workload with its JSON) within 2 s, sampler TSVs never read."""
        big = Path(self.tmp.name) / "big"
        cfgs = [("performance", "-"), ("powersave", "-"), ("ondemand", "0"), ("ondemand", "1"),
                ("conservative", "0"), ("conservative", "1"), ("schedutil", "-"),
                ("userspace", "-")]
        # 5 values: the resample median is the least with P(3 or more of 5
        # draws) = 5.8% > 2.5%: intervals from least to most, far beyond 2%
        runs = [(k, g, io, wl, [(1.0 + 0.1 * i, 0, 400.0 + 40 * i if wl == "fio-x" else None)
                                for i in range(5)])
                for k in ("baseline", "patched") for wl in ("a", "b", "c", "fio-x")
                for g, io in cfgs]
        write_results(big, runs, meta=False)
        start = time.monotonic()
        res = converged(big)
        elapsed = time.monotonic() - start
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(len(res.stdout.splitlines()), 64)
        self.assertLess(elapsed, 2.0)


class UnitTest(unittest.TestCase):
    """The rule's pieces alone."""

    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, str(TOP / "scripts"))
        from ifmreport import converge  # pylint: disable=import-outside-toplevel
        cls.converge = converge

    def test_within(self):
        within = self.converge.within
        self.assertTrue(within([0.98, 1.02], 1.0, 0.02))
        self.assertFalse(within([0.97, 1.0], 1.0, 0.02))
        self.assertFalse(within([1.0, 1.03], 1.0, 0.02))
        self.assertFalse(within(None, 1.0, 0.02))
        self.assertFalse(within([1.0, 1.0], None, 0.02))

    def test_is_done(self):
        done = self.converge.is_done
        self.assertTrue(done([10, 10, 10], [], True, 3, 0.02))
        self.assertFalse(done([10, 10], [], True, 3, 0.02))
        self.assertTrue(done([2.0, 2.0, 2.0], [1.0, 1.0, 1.0], False, 3, 0.02))
        self.assertFalse(done([1.0, 1.5, 2.0], [1.0, 1.0, 1.0], False, 3, 0.02))
        self.assertFalse(done([2.0, 2.0, 2.0], [], False, 3, 0.02), "no performance")
        self.assertFalse(done([2.0, 2.0, 2.0], [0.0, 0.0, 0.0], False, 3, 0.02), "perf 0")

    def test_names(self):
        self.assertEqual(self.converge.config_name("ondemand", 1), "ondemand-io1")
        self.assertEqual(self.converge.config_name("conservative", 0), "conservative-io0")
        self.assertEqual(self.converge.config_name("conservative", None), "conservative")
        self.assertEqual(self.converge.config_name("schedutil", None), "schedutil")


if __name__ == "__main__":
    unittest.main()

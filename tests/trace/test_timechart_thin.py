#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of scripts/timechart-thin on a hand-written SVG in perf
timechart's format (svg_cstate() and svg_process() groups, the legend, a
grid line, a P-state line), with the expected columns derived by hand.

Usage: test_timechart_thin.py [unittest arguments, e.g. ThinTest]

Defaults: boxes under 1 px are thinned into columns of 0.5 px, opacity
in 1/16 of the class's opacity (the "share" below). Row cpu0 (y=30, height 55), class c1:
  kept     [10, 13.2)            wide: copied as it is, label and all
  narrow   [13.25, 13.35)  0.1   column [13, 13.5): the kept box covers
           [13.4, 13.45)   0.05  [13, 13.2), free [13.2, 13.5) = 0.3 px,
                                 filled 0.15: 1/2 -> x 13.2 width 0.3,
                                 share 8/16 = 0.5
  narrow   [30.4, 30.7)    0.3   spans two columns: [30, 30.5) holds 0.1
                                 (0.2 -> 3.2/16 -> 3/16 = 0.1875), [30.5,
                                 31) holds 0.2 (0.4 -> 6.4 -> 6/16 = 0.375)
Row cpu1 (y=90, height 55), class sample (translated groups, rect at 0,0):
  [20.1, 20.3) 0.2   column [20, 20.5): 0.4 -> 6/16 = 0.375
  [20.6, 20.9) 0.3   column [20.5, 21): 0.6 -> 9.6 -> 10/16 = 0.625
  [21.0, 21.5) 0.5   column [21, 21.5) full: 1
  [21.5, 22.0) 0.5   column [21.5, 22) full: 1, merged with the one
                     before: x 21 width 1 share 1
  [40.0, 40.001)     0.002 of its column: still 1/16 = 0.0625
Kept as they are: the legend (a group of several boxes), a "process" box
(not a per-event class), the grid line and the P-state line after the
boxes (the thinned group must come before it).
"""
import random
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOOL = HERE.parent.parent / "scripts" / "timechart-thin"

HEAD = """<?xml version="1.0" standalone="no"?> 
<!DOCTYPE svg SYSTEM "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg width="1000" height="300" version="1.1" xmlns="http://www.w3.org/2000/svg">
<defs>
  <style type="text/css">
    <![CDATA[
      rect.sample   { fill:rgb(  0,  0,255); fill-opacity:0.8; stroke-width:0; }
      rect.c1       { fill:rgb(255,214,214); fill-opacity:0.5; stroke-width:0; }
    ]]>
   </style>
</defs>
<line x1="0.00000000" y1="15.00" x2="0.00000000" y2="180" style="stroke:rgb(192,192,192);stroke-width:0.500"/>
"""
LEGEND = """<g>
<rect x="0" width="12.50000000" y="0" height="12.5" class="sample"/>
<text transform="translate(17.50000000, 12.50000000)" font-size="10.00000000pt">Running</text>
<rect x="100" width="12.50000000" y="0" height="12.5" class="c1"/>
<text transform="translate(117.50000000, 12.50000000)" font-size="10.00000000pt">Idle</text>
</g>
"""
PROCESS = """<g transform="translate(50.00000000,150.00000000)">
<rect x="0" width="0.20000000" y="0" height="10.0" class="process"/>
</g>
"""
PSTATE = '<line x1="11.05443507" x2="1000.00000000" y1="206.0" y2="206.0" class="pstate"/>\n'
TAIL = "</svg>\n"


def cstate(x0, x1, y=30.0):
    return (f'<g>\n<rect class="c1" x="{x0:.8f}" width="{x1 - x0:.8f}" y="{y:.1f}" '
            f'height="55.0"/>\n<text x="{x0:.8f}" y="{y + 0.15:.8f}" '
            f'font-size="0.15625000pt">C1</text>\n</g>\n')


def sample(x0, x1, y=90.0):
    return (f'<g transform="translate({x0:.8f},{y:.8f})">\n'
            f"<title>4884 perf running 33.9 us</title>\n<desc>Switched because:\n</desc>\n"
            f'<rect x="0" width="{x1 - x0:.8f}" y="0" height="55.0" class="sample"/>\n</g>\n')


KEPT = cstate(10, 13.2)
BOXES = [KEPT, cstate(13.25, 13.35), cstate(13.4, 13.45), cstate(30.4, 30.7),
         sample(20.1, 20.3), sample(20.6, 20.9), sample(21.0, 21.5), sample(21.5, 22.0),
         sample(40.0, 40.001)]
FIXTURE = HEAD + LEGEND + PROCESS + "".join(BOXES) + PSTATE + TAIL
NEW_PATH = re.compile(r'<path class="(\w+)" fill="([^"]*)" fill-opacity="([\d.]+)" d="([^"]*)"/>')
SUBPATH = re.compile(r"M([\d.]+) ([\d.]+)h([\d.]+)v([\d.]+)h-([\d.]+)z")
# perf's styles of the classes (HEAD): the paths carry them as attributes
PAINT = {"c1": ("rgb(255,214,214)", 0.5), "sample": ("rgb(  0,  0,255)", 0.8)}


def run(*args):
    return subprocess.run([sys.executable, str(TOOL), *map(str, args)],
                          capture_output=True, text=True, check=False)


def thin_text(text, *opts):
    with tempfile.TemporaryDirectory() as d:
        src, dst = Path(d, "in.svg"), Path(d, "out.svg")
        src.write_text(text)
        p = run(*opts, src, dst)
        if p.returncode != 0:
            raise AssertionError(f"status {p.returncode}: {p.stderr}")
        return dst.read_text(), p.stderr


def new_rects(svg):
    """(class, x, width, y, height, share) of each new box, by row and x;
    share = the path's fill-opacity over the class's own."""
    out = []
    for cls, fill, opacity, d in NEW_PATH.findall(svg):
        assert (fill, cls) == (PAINT[cls][0], cls), (fill, cls)
        assert SUBPATH.sub("", d) == "", d
        for x, y, w, h, back in SUBPATH.findall(d):
            assert back == w, d
            out.append((cls, float(x), float(w), float(y), float(h),
                        float(opacity) / PAINT[cls][1]))
    return sorted(out, key=lambda r: (r[3], r[0], r[1]))


class ThinTest(unittest.TestCase):
    def setUp(self):
        self.out, self.err = thin_text(FIXTURE)

    def test_columns(self):
        got = new_rects(self.out)
        want = [("c1", 13.2, 0.3, 30, 55, 0.5), ("c1", 30.0, 0.5, 30, 55, 0.1875),
                ("c1", 30.5, 0.5, 30, 55, 0.375),
                ("sample", 20.0, 0.5, 90, 55, 0.375), ("sample", 20.5, 0.5, 90, 55, 0.625),
                ("sample", 21.0, 1.0, 90, 55, 1.0), ("sample", 40.0, 0.5, 90, 55, 0.0625)]
        self.assertEqual(len(got), len(want), got)
        for g, w in zip(got, want):
            self.assertEqual(g[0], w[0])
            for a, b in zip(g[1:], w[1:]):
                self.assertAlmostEqual(a, b, places=3, msg=f"{g} != {w}")

    def test_kept_byte_for_byte(self):
        for part in (HEAD, LEGEND, PROCESS, KEPT, PSTATE):
            self.assertIn(part, self.out)
        for gone in BOXES[1:]:
            self.assertNotIn(gone, self.out)
        self.assertNotIn("4884 perf running", self.out)

    def test_one_group_under_the_pstate_lines(self):
        self.assertEqual(self.out.count('<g class="timechart-thin">'), 1)
        self.assertIn("8 boxes narrower than 1 px", self.out)
        self.assertLess(self.out.index('<g class="timechart-thin">'), self.out.index(PSTATE))
        self.assertLess(self.out.index(KEPT), self.out.index('<g class="timechart-thin">'))

    def test_summary(self):
        self.assertRegex(self.err, r"8 boxes under 1 px drawn as 7; [\d.]+ kB -> [\d.]+ kB")

    def test_idempotent(self):
        again, err = thin_text(self.out)
        self.assertEqual(again, self.out)
        self.assertIn("0 boxes", err)

    def test_wider_columns(self):
        out, _ = thin_text(FIXTURE, "--bin-px", "1", "--levels", "4")
        # [13, 14): free [13.2, 14) = 0.8, filled 0.15 -> 0.75 of 4 -> 1/4;
        # [30, 31): 0.3 -> 1.2 -> 1/4; [20, 21): 0.5 -> 2/4; [21, 22): 1;
        # [40, 41): at least 1/4.
        got = [(c, round(x, 3), round(w, 3), round(o, 4)) for c, x, w, _, _, o in new_rects(out)]
        self.assertEqual(got, [("c1", 13.2, 0.8, 0.25), ("c1", 30.0, 1.0, 0.25),
                               ("sample", 20.0, 1.0, 0.5), ("sample", 21.0, 1.0, 1.0),
                               ("sample", 40.0, 1.0, 0.25)])

    def test_nothing_narrow(self):
        text = HEAD + LEGEND + KEPT + PSTATE + TAIL
        out, err = thin_text(text)
        self.assertEqual(out, text)
        self.assertIn("0 boxes under 1 px drawn as 0", err)


class CoverageTest(unittest.TestCase):
    """Random narrow boxes, no two overlapping: per row, the thinned
    boxes' width times opacity is the narrow boxes' width, within one
    level per column (half a level of rounding; a sliver that rounds to
    nothing is shown at one level)."""

    def test_random(self):
        rnd = random.Random(15)
        for _ in range(5):
            boxes, truth = [], {"c1": 0.0, "sample": 0.0}
            x = 0.0
            while x < 300:
                w = rnd.uniform(0.001, 0.99)
                cls = rnd.choice(("c1", "sample"))
                boxes.append(cstate(x, x + w) if cls == "c1" else sample(x, x + w, 30.0))
                truth[cls] += w
                x += w + rnd.uniform(0, 2)
            out, _ = thin_text(HEAD + "".join(boxes) + TAIL)
            rects = new_rects(out)
            for cls, want in truth.items():
                rs = [r for r in rects if r[0] == cls]
                cols = sum(r[2] for r in rs) / 0.5
                got = sum(r[2] * r[5] for r in rs)
                # and the 0.01 px of the paths' coordinates
                self.assertLessEqual(abs(got - want), cols * (0.5 / 16 + 0.01), cls)
                self.assertGreater(len(rs), 0)


class BadInputTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_not_a_timechart(self):
        src = self.d / "plot.svg"
        src.write_text('<svg width="1" height="1" xmlns="http://www.w3.org/2000/svg"></svg>\n')
        p = run(src, self.d / "out.svg")
        self.assertEqual(p.returncode, 1)
        self.assertIn("not a perf timechart SVG", p.stderr)
        self.assertFalse((self.d / "out.svg").exists())

    def test_missing_input(self):
        p = run(self.d / "none.svg", self.d / "out.svg")
        self.assertEqual(p.returncode, 1)
        self.assertIn("none.svg", p.stderr)
        self.assertFalse((self.d / "out.svg").exists())

    def test_unwritable_output(self):
        src = self.d / "in.svg"
        src.write_text(FIXTURE)
        p = run(src, self.d / "no" / "such" / "out.svg")
        self.assertEqual(p.returncode, 1)
        self.assertIn("cannot write", p.stderr)

    def test_usage(self):
        for args in ((), ("a.svg",), ("--bin-px", "2", "a.svg", "b.svg"),
                     ("--levels", "0", "a.svg", "b.svg"), ("--min-px", "-1", "a", "b")):
            p = run(*args)
            self.assertEqual(p.returncode, 2, args)
            self.assertIn("usage:", p.stderr)

    def test_help(self):
        p = run("--help")
        self.assertEqual(p.returncode, 0)
        for word in ("EXIT STATUS", "--min-px", "--bin-px", "--levels", "perf timechart -P"):
            self.assertIn(word, p.stdout)

    def test_in_place(self):
        src = self.d / "run.svg"
        src.write_text(FIXTURE)
        p = run("-q", src, src)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stderr, "")
        self.assertIn('<g class="timechart-thin">', src.read_text())
        self.assertEqual([f.name for f in self.d.iterdir()], ["run.svg"])


if __name__ == "__main__":
    unittest.main()

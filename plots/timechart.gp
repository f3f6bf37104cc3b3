# SPDX-License-Identifier: GPL-2.0
#
# Time chart of one iowait-freqmon run: per CPU a band over time, each
# sample's interval split into busy (blue, from the bottom), iowait (orange)
# and idle (grey); gaps are invalid samples. The black step line is the
# CPU's frequency in MHz (right axis); it is absent when the file has none.
#
#   gnuplot -e "in='run.tsv'; out='run.png'; title='baseline ondemand git-grep-t1'" plots/timechart.gp
#
# Variables (-e):
#   in      sampler TSV (`iowait-freqmon -f tsv` output)          required
#   out     output file; .png (pngcairo) or .svg                  required
#   title   chart title                                            default: in
#   cpu     only this CPU                                          default: every CPU in the file
#   xmax    end of the time axis in s                              default: last sample
#   fmax    top of the frequency axis in MHz                       default: 1.1 x highest sampled
#   width   width in pixels                                        default: 1000
#   bins    average the samples into this many bins across the     default: the plot's width in
#           time axis (0: one bar per sample, exact)                 pixels if the run has more
#                                                                    samples per CPU, else 0
#   height  height in pixels                                       default: 70 + 200 per CPU

_dir = ARG0[1:strstrt(ARG0, "timechart.gp") - 1]
if (!exists("in")) { print "error: set in='SAMPLES.tsv' with -e"; exit status 1 }
if (!exists("title")) { title = in }
if (!exists("width")) { width = 1000 }

set datafile separator "\t"
set datafile columnheaders
stats in using 2 nooutput
_per_cpu = STATS_records / (STATS_max - STATS_min + 1)
cpu_lo = exists("cpu") ? cpu : int(STATS_min)
cpu_hi = exists("cpu") ? cpu : int(STATS_max)
ncpu = cpu_hi - cpu_lo + 1
if (!exists("height")) { height = 70 + 200 * ncpu }
stats in using 1 nooutput
if (!exists("xmax")) { xmax = STATS_max }
stats in using (valid(6) ? column(6) / 1000.0 : 0) nooutput
b_hasfreq = STATS_max > 0
if (!exists("fmax")) { fmax = b_hasfreq ? 1.1 * STATS_max : 1 }

load _dir . "common.gp"

top = 50.0 / height
bottom = 45.0 / height
ph = (1 - top - bottom) / ncpu
b_keytop = 24.0 / height
set multiplot title title font ",12"
set xrange [0:xmax]
_px = width - 160
if (!exists("bins")) { bins = _per_cpu > _px ? _px : 0 }
b_bw = bins > 0 ? xmax / bins : 0
set y2range [0:fmax]
set lmargin at screen 80.0 / width
set rmargin at screen 1 - 80.0 / width
b_in = in
do for [c = cpu_lo:cpu_hi] {
	i = c - cpu_lo
	set tmargin at screen 1 - top - i * ph
	set bmargin at screen 1 - top - (i + 1) * ph + 14.0 / height
	if (c == cpu_hi) {
		set xlabel "time (s)"
		set format x "%g"
	} else {
		unset xlabel
		set format x ""
	}
	b_cpu = c
	b_label = sprintf("CPU %d", c)
	b_title = ""
	b_key = (c == cpu_lo)
	load _dir . "band.gp"
}
unset multiplot

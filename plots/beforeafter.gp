# SPDX-License-Identifier: GPL-2.0
#
# Before/after figure: the workload CPU of two iowait-freqmon runs, the
# baseline kernel's ondemand above the patched kernel's, on one shared time
# axis. Same encoding as timechart.gp: busy (blue, from the bottom), iowait
# (orange), idle (grey) per sample interval, gaps for invalid samples, the
# frequency in MHz as a black step line on the right axis.
#
#   gnuplot -e "base='b.tsv'; patched='p.tsv'; out='ba.png'; title='git-grep-t1'" plots/beforeafter.gp
#
# Variables (-e):
#   base           sampler TSV of the upper run (baseline)            required
#   patched        sampler TSV of the lower run (patched)             required
#   out            output file; .png (pngcairo) or .svg               required
#   title          figure title                                        default: "before / after"
#   cpu            the CPU shown of both runs                          default: 0
#   base_label     label of the upper panel                            default: "baseline"
#   patched_label  label of the lower panel                            default: "patched"
#   xmax           end of the shared time axis in s                    default: the longer run's last sample
#   fmax           top of the frequency axis in MHz                    default: 1.1 x highest sampled in either
#   width, height  size in pixels                                      default: 1000 x 560
#   bins           average the samples into this many bins across      default: the plot's width in
#                  the time axis (0: one bar per sample, exact)          pixels if a run has more
#                                                                        samples per CPU, else 0

_dir = ARG0[1:strstrt(ARG0, "beforeafter.gp") - 1]
if (!exists("base") || !exists("patched")) {
	print "error: set base='BASELINE.tsv' and patched='PATCHED.tsv' with -e"
	exit status 1
}
if (!exists("title")) { title = "before / after" }
if (!exists("cpu")) { cpu = 0 }
if (!exists("base_label")) { base_label = "baseline" }
if (!exists("patched_label")) { patched_label = "patched" }
if (!exists("width")) { width = 1000 }
if (!exists("height")) { height = 560 }

set datafile separator "\t"
set datafile columnheaders
_f(col) = valid(col) ? column(col) / 1000.0 : 0
stats base using 2 nooutput
_n1 = STATS_records / (STATS_max - STATS_min + 1)
stats patched using 2 nooutput
_n2 = STATS_records / (STATS_max - STATS_min + 1)
stats base using 1 nooutput
_t1 = STATS_max
stats patched using 1 nooutput
_t2 = STATS_max
if (!exists("xmax")) { xmax = _t1 > _t2 ? _t1 : _t2 }
stats base using (_f(6)) nooutput
_f1 = STATS_max
stats patched using (_f(6)) nooutput
_f2 = STATS_max
_fm = _f1 > _f2 ? _f1 : _f2
b_hasfreq = _fm > 0
if (!exists("fmax")) { fmax = b_hasfreq ? 1.1 * _fm : 1 }

load _dir . "common.gp"

top = 50.0 / height
bottom = 45.0 / height
gap = 22.0 / height
ph = (1 - top - bottom) / 2
b_keytop = 24.0 / height
set multiplot title title font ",12"
set xrange [0:xmax]
_px = width - 170
if (!exists("bins")) { bins = (_n1 > _px || _n2 > _px) ? _px : 0 }
b_bw = bins > 0 ? xmax / bins : 0
set y2range [0:fmax]
set lmargin at screen 90.0 / width
set rmargin at screen 1 - 80.0 / width
b_cpu = cpu
do for [i = 0:1] {
	set tmargin at screen 1 - top - i * ph - gap
	set bmargin at screen 1 - top - (i + 1) * ph + 4.0 / height
	if (i == 1) {
		set xlabel "time (s)"
		set format x "%g"
	} else {
		unset xlabel
		set format x ""
	}
	b_in = i == 0 ? base : patched
	b_label = sprintf("CPU %d", cpu)
	b_title = i == 0 ? base_label : patched_label
	b_key = (i == 0)
	load _dir . "band.gp"
}
unset multiplot

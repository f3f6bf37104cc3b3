# SPDX-License-Identifier: GPL-2.0
#
# The headline figure of a workload: each governor configuration's ratio to
# performance's median on the same kernel (runtime; IOPS for a fio
# workload), one bar per kernel side by side, the 95% bootstrap interval as
# an error bar, a dashed line at 1 (performance). Reads the
# headline-WORKLOAD.tsv that scripts/report writes:
#
#   # comment lines
#   config <TAB> KERNEL1 <TAB> low <TAB> high [<TAB> KERNEL2 <TAB> low <TAB> high ...]
#   ondemand io_is_busy=0 <TAB> 2.36 <TAB> 2.00 <TAB> 2.80 <TAB> ...
#
# one row per configuration, three columns (ratio, interval low, high) per
# kernel, named by the kernel in the header; NaN where a kernel lacks the
# ratio (no bar) or its interval (a bar without error bar).
#
#   gnuplot -e "in='plots/headline-git-grep-t1.tsv'; out='headline.png'; title='git-grep-t1'" plots/headline.gp
#
# Variables (-e):
#   in      the TSV above                                   required
#   out     output file; .png (pngcairo) or .svg            required
#   title   chart title                                     default: "ratio to performance"
#   ylabel  y axis label                                    default: "median / performance's median"
#   colours the kernels' bar colours, space-separated      default: grey, blue, green, red, purple
#   width, height  size in pixels                           default: 900 x 450

_dir = ARG0[1:strstrt(ARG0, "headline.gp") - 1]
if (!exists("in")) { print "error: set in='headline-WORKLOAD.tsv' with -e"; exit status 1 }
if (!exists("title")) { title = "ratio to performance" }
if (!exists("ylabel")) { ylabel = "median / performance's median" }
if (!exists("colours")) { colours = "#8c8c8c #1f77b4 #2ca02c #d62728 #9467bd" }
if (!exists("width")) { width = 900 }
if (!exists("height")) { height = 450 }

set datafile separator "\t"
set datafile columnheaders
stats in using (1) nooutput
h_rows = STATS_records
h_nk = int((STATS_columns - 1) / 3)

load _dir . "common.gp"

h_bw = 0.8 / h_nk
# the centre of kernel k's bar in the current row
h_x(k) = column(0) + (k - (h_nk - 1) / 2.0) * h_bw
set title title font ",12"
set boxwidth h_bw absolute
set style fill solid 0.85 border rgb "#404040"
set xrange [-0.5:h_rows - 0.5]
set yrange [0:*]
set ylabel ylabel
set xtics nomirror rotate by -20 scale 0
set rmargin 12
set ytics nomirror
set grid ytics
set key outside top center horizontal
plot in using (column(0)):(0):xtic(1) with points pointsize 0 notitle, \
	for [k = 0:h_nk - 1] in using (h_x(k)):(column(2 + 3 * k)) with boxes \
		lc rgb word(colours, k % words(colours) + 1) title columnhead(2 + 3 * k), \
	for [k = 0:h_nk - 1] in using (h_x(k)):(column(3 + 3 * k)):(0):(column(4 + 3 * k) - column(3 + 3 * k)) \
		with vectors heads size screen 0.006, 90 lw 1.5 lc rgb "#000000" notitle, \
	1 with lines dashtype 2 lw 1.5 lc rgb "#000000" title "performance (1)"

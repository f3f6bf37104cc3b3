# SPDX-License-Identifier: GPL-2.0
#
# Runtime per governor configuration and kernel: clustered bars of the
# median over successful runs, error bars from p25 to p75. Reads the
# runtime-WORKLOAD.tsv that scripts/report writes:
#
#   # comment lines
#   config <TAB> KERNEL1 <TAB> p25 <TAB> p75 [<TAB> KERNEL2 <TAB> p25 <TAB> p75 ...]
#   performance <TAB> 1.10 <TAB> 1.05 <TAB> 1.15 <TAB> ...
#
# one row per configuration, three columns (median, p25, p75, seconds) per
# kernel, named by the kernel in the header; NaN where a kernel lacks it.
#
#   gnuplot -e "in='plots/runtime-git-grep-t1.tsv'; out='runtime.png'; title='git-grep-t1'" plots/runtime.gp
#
# Variables (-e):
#   in      the TSV above                                   required
#   out     output file; .png (pngcairo) or .svg            required
#   title   chart title                                     default: "runtime"
#   width, height  size in pixels                           default: 900 x 450

_dir = ARG0[1:strstrt(ARG0, "runtime.gp") - 1]
if (!exists("in")) { print "error: set in='runtime-WORKLOAD.tsv' with -e"; exit status 1 }
if (!exists("title")) { title = "runtime" }
if (!exists("width")) { width = 900 }
if (!exists("height")) { height = 450 }

set datafile separator "\t"
set datafile columnheaders
stats in using 2 nooutput
nk = int((STATS_columns - 1) / 3)

load _dir . "common.gp"

kcolours = "#8c8c8c #1f77b4 #2ca02c #d62728 #9467bd"
set title title font ",12"
set style data histograms
set style histogram errorbars gap 1 lw 1.5
set style fill solid 0.85 border rgb "#404040"
set bars front
set ylabel "runtime (s), median and p25..p75"
set yrange [0:*]
set xtics nomirror rotate by -20 scale 0
set ytics nomirror
set grid ytics
set key top left
plot for [k = 0:nk - 1] in using (column(2 + 3 * k)):(column(3 + 3 * k)):(column(4 + 3 * k)):xtic(1) \
	title columnhead(2 + 3 * k) lc rgb word(kcolours, k % 5 + 1)

# SPDX-License-Identifier: GPL-2.0
#
# Time in state: for each governor configuration and kernel, the share of
# the workload CPU's busy time spent at each P-state (stacked bars, slowest
# P-state at the bottom). Reads the time-in-state-WORKLOAD.tsv that
# scripts/report writes:
#
#   # comment lines
#   config <TAB> 800 <TAB> 1200 <TAB> ... (one column per P-state, MHz)
#   baseline performance <TAB> 0 <TAB> 0 <TAB> ... <TAB> 1
#
# one row per kernel and configuration, shares 0..1 summing to 1; a row of
# NaN separates the kernels (a gap between the groups).
#
#   gnuplot -e "in='plots/time-in-state-git-grep-t1.tsv'; out='tis.png'; title='git-grep-t1'" plots/time-in-state.gp
#
# Variables (-e):
#   in      the TSV above                                   required
#   out     output file; .png (pngcairo) or .svg            required
#   title   chart title                                     default: "time in state"
#   width, height  size in pixels                           default: 900 x 480

_dir = ARG0[1:strstrt(ARG0, "time-in-state.gp") - 1]
if (!exists("in")) { print "error: set in='time-in-state-WORKLOAD.tsv' with -e"; exit status 1 }
if (!exists("title")) { title = "time in state" }
if (!exists("width")) { width = 900 }
if (!exists("height")) { height = 480 }

set datafile separator "\t"
set datafile columnheaders
stats in using 2 nooutput
ncol = STATS_columns

load _dir . "common.gp"

# Slow to fast: blue to red.
scolours = "#3b4cc0 #7b9ff9 #c0d4f5 #f2cbb7 #ee8468 #b40426"
_c(i, n) = word(scolours, n <= 1 ? 6 : int(0.5 + 5.0 * (i - 2) / (n - 2)) + 1)
set title title font ",12"
set style data histograms
set style histogram rowstacked
set style fill solid 1.0 border rgb "#404040"
set boxwidth 0.7
set ylabel "share of busy time"
set yrange [0:1]
set ytics ("0" 0, "25%%" 0.25, "50%%" 0.5, "75%%" 0.75, "100%%" 1) nomirror
set xtics nomirror rotate by -30 scale 0
set key outside right top title "P-state" reverse Left
plot for [i = 2:ncol] in using (column(i)):xtic(1) \
	title columnhead(i) . " MHz" lc rgb _c(i, ncol)

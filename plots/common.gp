# SPDX-License-Identifier: GPL-2.0
#
# Shared setup of the lab's gnuplot scripts; loaded by them, not run alone.
# Needs `out` (file name ending in .png or .svg); optional `width`, `height`
# in pixels (defaults set by the caller before loading). Sets the terminal
# and output from the extension of `out`, tab-separated data, no enhanced
# text (workload names hold '_' and '-').

if (!exists("out")) { print "error: set out='FILE.png' or out='FILE.svg' with -e"; exit status 1 }
_ext = strlen(out) >= 4 ? out[strlen(out)-3:strlen(out)] : ""
if (_ext eq ".png") {
	set terminal pngcairo noenhanced size width, height font "DejaVu Sans,10"
} else {
	if (_ext eq ".svg") {
		set terminal svg noenhanced size width, height font "DejaVu Sans,10" background "white"
	} else {
		print sprintf("error: out='%s' must end in .png or .svg", out)
		exit status 1
	}
}
set output out
set datafile separator "\t"
set datafile commentschars "#"
set datafile missing NaN
set datafile columnheaders

# Colours of the three states and the frequency line.
c_busy = "#1f77b4"
c_iowait = "#ff7f0e"
c_idle = "#e6e6e6"
c_freq = "#000000"

# SPDX-License-Identifier: GPL-2.0
#
# One panel of a time chart; loaded by timechart.gp and beforeafter.gp, not
# run alone. Draws CPU `b_cpu` of the sampler TSV `b_in`: per valid sample
# over its interval (time_s is the interval's END; the interval is time_s
# minus the previous row's time_s of that CPU, the first row's is time_s
# itself) busy from 0, iowait on top of it, idle up to 1; an invalid row
# (valid 0) draws nothing. The frequency (MHz, right axis) holds each
# sample's value over its interval.
# With `b_bw` 0 every sample is its own bar (exact); with `b_bw` > 0 the
# samples starting in each b_bw-second bin are averaged into one point (for
# runs with more samples than pixels: a 20 s run at 1 kHz would otherwise
# make a 30 MB SVG).
# The caller sets xrange, y2range, margins, b_hasfreq (1: draw the
# frequency), `b_label` (y label), `b_title` (panel title, may be empty) and
# `b_key` (1: draw the key).

set yrange [0:1]
set ytics ("0" 0, "50%%" 0.5, "100%%" 1) nomirror
set ylabel sprintf("%s\nshare of interval", b_label)
if (b_title ne "") {
	set title b_title offset 0, -0.6
} else {
	unset title
}
# The frequency axis and key entry only when the file has frequencies
# (b_hasfreq); without, gnuplot warns the line has no valid points.
if (b_hasfreq) {
	set y2tics nomirror
	set y2label "frequency (MHz)"
	_ftitle = "frequency (MHz)"
} else {
	unset y2tics
	unset y2label
	_ftitle = ""
}
set style fill solid 1.0 border
set grid noytics noxtics
if (b_key) {
	set key at screen 0.5, screen 1 - b_keytop center top horizontal samplen 2 noautotitle
} else {
	unset key
}
# _x: the start of the interval; updates _tp (previous time of this CPU).
# Rows of other CPUs are NaN, which `set datafile missing NaN` skips; an
# invalid row of this CPU draws 0 (a gap).
_dt = 0
_x(t, c) = (c == b_cpu) ? (_dt = t - _tp, _tp = t, t - _dt) : NaN
_y(c, v, y) = (c != b_cpu) ? NaN : (v == 1 ? y : 0)
_f(c, v) = (b_hasfreq && c == b_cpu && v == 1 && valid(6)) ? column(6) / 1000.0 : NaN
if (b_bw > 0) {
	# More samples than pixels: average the samples starting in each bin of
	# b_bw seconds (smooth unique), areas through the bin centres.
	_b(x) = (floor(x / b_bw) + 0.5) * b_bw
	plot \
		_tp = 0, b_in using (_b(_x($1, $2))):(_y($2, $7, 1)) smooth unique \
			with filledcurves x1 lc rgb c_idle title "idle", \
		_tp = 0, b_in using (_b(_x($1, $2))):(_y($2, $7, $3 + $5)) smooth unique \
			with filledcurves x1 lc rgb c_iowait title "iowait", \
		_tp = 0, b_in using (_b(_x($1, $2))):(_y($2, $7, $3)) smooth unique \
			with filledcurves x1 lc rgb c_busy title "busy", \
		_tp = 0, b_in using (_b(_x($1, $2))):(_f($2, $7)) smooth unique axes x1y2 \
			with histeps lw 1.5 lc rgb c_freq title _ftitle
} else {
	# One bar per sample over its interval, exact.
	plot \
		_tp = 0, b_in using (_x($1, $2) + _dt / 2):(_y($2, $7, 1)):(_dt) \
			with boxes lc rgb c_idle title "idle", \
		_tp = 0, b_in using (_x($1, $2) + _dt / 2):(_y($2, $7, $3 + $5)):(_dt) \
			with boxes lc rgb c_iowait title "iowait", \
		_tp = 0, b_in using (_x($1, $2) + _dt / 2):(_y($2, $7, $3)):(_dt) \
			with boxes lc rgb c_busy title "busy", \
		b_in using 1:(_f($2, $7)) axes x1y2 with fsteps lw 1.5 lc rgb c_freq title _ftitle
}

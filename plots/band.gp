# SPDX-License-Identifier: GPL-2.0
#
# One panel of a time chart; loaded by timechart.gp and beforeafter.gp, not
# run alone. Draws, for CPU `b_cpu` of the sampler TSV `b_in`, one box per
# valid sample spanning its interval (time_s is the interval's END; the
# interval is time_s minus the previous row's time_s of that CPU, the first
# row's is time_s itself): busy from 0, iowait on top of it, idle up to 1;
# invalid rows (valid 0) leave a gap. The frequency (MHz, right axis) is a
# step line holding each sample's value over its interval. Expects the
# caller to have set xrange, y2range, b_hasfreq and margins; `b_label` is the y label,
# `b_title` (may be empty) the panel title, `b_key` 1 draws the key.

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
# x: the middle of the interval; updates _tp (previous time of this CPU).
_x(t, c) = (c == b_cpu) ? (_dt = t - _tp, _tp = t, t - _dt / 2) : NaN
_ok(c, v) = (c == b_cpu && v == 1)
plot \
	_tp = 0, b_in using (_x($1, $2)):(_ok($2, $7) ? 1 : NaN):(_dt) \
		with boxes lc rgb c_idle title "idle", \
	_tp = 0, b_in using (_x($1, $2)):(_ok($2, $7) ? $3 + $5 : NaN):(_dt) \
		with boxes lc rgb c_iowait title "iowait", \
	_tp = 0, b_in using (_x($1, $2)):(_ok($2, $7) ? $3 : NaN):(_dt) \
		with boxes lc rgb c_busy title "busy", \
	b_in using 1:((b_hasfreq && _ok($2, $7) && valid(6)) ? column(6) / 1000.0 : NaN) \
		axes x1y2 with fsteps lw 1.5 lc rgb c_freq title _ftitle

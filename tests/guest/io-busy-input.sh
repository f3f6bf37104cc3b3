#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In the guest: what io_is_busy of ondemand and conservative accepts. Each
# value is written with a single write(2) (python3), after the old value
# was set; the write's errno and the value read back are checked.
#
# Expected, by kernel ($IFM_VARIANT):
#   patched   both governors: "abc", "-1", "2", "\n" (echo of nothing),
#             "1x", "255", "4294967296" and "4294967297" fail with EINVAL
#             and keep the old value (0 and 1); "0", "1", "0\n", "1\n" are
#             accepted; the file's mode is sampling_rate's, 0644
#   baseline  ondemand (stock 6.1, sscanf("%u") and !!value): "abc", "-1"
#             and "\n" fail with EINVAL; any other leading number is taken,
#             truncated to 32 bits, and stored as 0 or 1: "2", "1x", "255",
#             "4294967297" give 1 and "4294967296" gives 0; mode 0644.
#             conservative has no io_is_busy
#   both      a write of zero bytes succeeds and changes nothing (sysfs
#             does not call the store handler for it)
#
# Usage: io-busy-input.sh
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

(($# == 0)) || fail "usage: io-busy-input.sh"
variant=${IFM_VARIANT:?IFM_VARIANT must name the kernel variant}
py=/usr/bin/python3
[[ -x $py ]] || fail "no $py"

# writes FILE DATA...: write each DATA in one write(2) call; print per DATA
# "<errno name or ok><TAB><value read back>".
writes() {
	"$py" -c '
import errno, os, sys
path = sys.argv[1]
for arg in sys.argv[2:]:
    data = os.fsencode(arg)
    fd = os.open(path, os.O_WRONLY)
    try:
        n = os.write(fd, data)
        res = "ok" if n == len(data) else "short"
    except OSError as e:
        res = errno.errorcode.get(e.errno, str(e.errno))
    finally:
        os.close(fd)
    with open(path) as f:
        print(res + "\t" + f.read().strip())
' "$@"
}

# Cases of one governor: parallel arrays of old value, data, result, value.
olds=() datas=() wres=() wvals=()
case_add() { # case_add OLD DATA WANT_RESULT WANT_VALUE
	olds+=("$1") datas+=("$2") wres+=("$3") wvals+=("$4")
}

# run_cases GOVERNOR: for each case set the old value, write the data (one
# python3 run for all), check the result and the value read back.
run_cases() {
	local file=/sys/devices/system/cpu/cpufreq/$1/io_is_busy shown got i
	local -a args=() lines
	for i in "${!olds[@]}"; do
		args+=("${olds[i]}" "${datas[i]}")
	done
	mapfile -t lines <<<"$(writes "$file" "${args[@]}")"
	((${#lines[@]} == 2 * ${#olds[@]})) || fail "$1: ${#lines[@]} results for $((2 * ${#olds[@]})) writes"
	for i in "${!olds[@]}"; do
		[[ ${lines[2 * i]} == "ok	${olds[i]}" ]] ||
			fail "$1: cannot set io_is_busy to ${olds[i]} (${lines[2 * i]})"
		shown=$(printf '%q' "${datas[i]}")
		got=${lines[2 * i + 1]}
		[[ $got == "${wres[i]}	${wvals[i]}" ]] ||
			fail "$1: writing $shown over ${olds[i]}: got '${got/	/, value }', want '${wres[i]}, value ${wvals[i]}'"
		pass "$1: $shown over ${olds[i]} -> ${wres[i]}, value ${wvals[i]}"
	done
	olds=() datas=() wres=() wvals=()
}

# mode GOVERNOR: io_is_busy has sampling_rate's mode, 644
mode() {
	local dir=/sys/devices/system/cpu/cpufreq/$1 m s
	m=$(stat -c %a "$dir/io_is_busy")
	s=$(stat -c %a "$dir/sampling_rate")
	[[ $m == 644 && $m == "$s" ]] || fail "$1: io_is_busy mode $m, sampling_rate $s, want both 644"
	pass "$1: io_is_busy mode $m, as sampling_rate"
}

nl=$'\n'
govs=(ondemand)
[[ $variant == patched ]] && govs+=(conservative)
for g in "${govs[@]}"; do
	cpupower -c 0 frequency-set -g "$g" >/dev/null || fail "cannot switch to $g"
	mode "$g"
	for old in 0 1; do
		case_add "$old" "" ok "$old"
		for v in 0 1 "0$nl" "1$nl"; do
			case_add "$old" "$v" ok "${v%"$nl"}"
		done
		case $variant in
		patched)
			for v in abc -1 2 "$nl" 1x 255 4294967296 4294967297; do
				case_add "$old" "$v" EINVAL "$old"
			done
			;;
		baseline)
			for v in abc -1 "$nl"; do
				case_add "$old" "$v" EINVAL "$old"
			done
			for v in 2 1x 255 4294967297; do
				case_add "$old" "$v" ok 1
			done
			case_add "$old" 4294967296 ok 0
			;;
		*) fail "unknown kernel variant '$variant'" ;;
		esac
	done
	run_cases "$g"
done
if [[ $variant == baseline ]]; then
	cpupower -c 0 frequency-set -g conservative >/dev/null || fail "cannot switch to conservative"
	[[ -d /sys/devices/system/cpu/cpufreq/conservative && ! -e /sys/devices/system/cpu/cpufreq/conservative/io_is_busy ]] ||
		fail "baseline conservative: want its tunables without io_is_busy"
	pass "baseline conservative: no io_is_busy"
fi

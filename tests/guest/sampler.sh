#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In the guest: iowait-freqmon measures what the guest really does. The
# sampler runs pinned to cpu0, the load on cpu1:
#   idle guest            cpu1 busy fraction below 0.10
#   CPU hog on cpu1       cpu1 busy fraction above 0.90
#   direct-I/O reader     cpu1 iowait fraction above 0.10 (a throttled disk)
#   cpupower -f on cpu1   the sampled frequency follows it
# Usage: sampler.sh DISK   (DISK: a block device to read, e.g. /dev/vda)
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

bin=${IFM_BIN_DIR:?IFM_BIN_DIR must name the folder with iowait-freqmon}
mon=$bin/iowait-freqmon
disk=${1:?usage: sampler.sh DISK}
[[ -x $mon && -x $bin/cpuloop ]] || fail "iowait-freqmon or cpuloop not built in $bin"
[[ -b $disk ]] || fail "$disk is not a block device"
out=$(mktemp -d)

# mean COLUMN TSV CPU: mean of a column over the valid rows of one CPU
mean() {
	awk -F'\t' -v col="$1" -v cpu="$3" '
		/^#/ { next }
		!hdr { for (i = 1; i <= NF; i++) ix[$i] = i; hdr = 1; next }
		$ix["cpu"] == cpu && $ix["valid"] == 1 { s += $ix[col]; n++ }
		END { if (n < 10) exit 1; printf "%.4f", s / n }' "$2"
}

# check NAME VALUE OP LIMIT
check() {
	if awk -v v="$2" -v l="$4" -v op="$3" 'BEGIN { exit !(op == "<" ? v < l : v > l) }'; then
		pass "$1: $2 $3 $4"
	else
		fail "$1: $2, want $3 $4"
	fi
}

cpupower -c all frequency-set -g performance >/dev/null
"$mon" -p 0 -c 1 -r 200 -d 3 -o "$out/idle.tsv" 2>"$out/idle.summary"
check "idle cpu1 busy" "$(mean busy "$out/idle.tsv" 1)" "<" 0.10

"$mon" -p 0 -c 1 -r 200 -o "$out/hog.tsv" -- "$bin/cpuloop" -c 1 -t 3 >/dev/null 2>"$out/hog.summary"
check "hogged cpu1 busy" "$(mean busy "$out/hog.tsv" 1)" ">" 0.90

"$mon" -p 0 -c 1 -r 200 -o "$out/io.tsv" -- \
	taskset -c 1 dd if="$disk" of=/dev/null bs=4k count=1500 iflag=direct 2>"$out/io.summary"
check "direct-I/O cpu1 iowait" "$(mean iowait "$out/io.tsv" 1)" ">" 0.10

set_freq 1 2400000
"$mon" -p 0 -c 1 -r 100 -o "$out/freq.tsv" -- bash -c '
	sleep 1; cpupower -c 1 frequency-set -f 800000 >/dev/null
	sleep 1; cpupower -c 1 frequency-set -f 1600000 >/dev/null; sleep 1' 2>/dev/null
seen=$(awk -F'\t' '/^#/ || $2 != 1 { next } { print $6 }' "$out/freq.tsv" | uniq | xargs)
[[ $seen == "2400000 800000 1600000" ]] || fail "sampled cpu1 frequencies '$seen', want '2400000 800000 1600000'"
pass "the sampled frequency follows cpupower frequency-set ($seen)"
grep -q '^# timer_list: ' "$out/freq.tsv" && grep '^# timer_list: ' "$out/freq.tsv"

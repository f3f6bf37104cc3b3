# shellcheck shell=bash
# Shared helpers for the lab scripts. Sourced, never run.

# The repository top and the ignored build folder.
IFM_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
IFM_BUILD=${IFM_BUILD:-$IFM_TOP/build}
IFM_PROG=$(basename "$0")

info() { printf '%s: %s\n' "$IFM_PROG" "$*" >&2; }
warn() { printf '%s: warning: %s\n' "$IFM_PROG" "$*" >&2; }
die() {
	printf '%s: error: %s\n' "$IFM_PROG" "$*" >&2
	exit 1
}

# need_cmd CMD PACKAGE: fail with a clear message if CMD is missing.
need_cmd() {
	command -v "$1" >/dev/null 2>&1 ||
		die "$1 not found (install the Debian package '$2', or run scripts/install-deps)"
}

# need_arg OPTION [VALUE...]: an option's value is there (call with "$@"
# from an option loop); otherwise exits 2 with a one-line usage error.
need_arg() {
	(($# >= 2)) && [[ -n $2 ]] && return 0
	printf "%s: %s needs a value (see '%s --help')\n" "$IFM_PROG" "$1" "$IFM_PROG" >&2
	exit 2
}

# bad TEXT: a usage error: TEXT, then the caller's usage function (which
# must take an exit status) on stderr, exit 2.
bad() {
	printf '%s: %s\n' "$IFM_PROG" "$*" >&2
	usage 2 >&2
}

# stage N TOTAL TEXT: one progress line per stage of a long job.
stage() {
	printf '%s: [%s/%s] %s\n' "$IFM_PROG" "$1" "$2" "$3" >&2
}

# human_secs SECONDS
human_secs() {
	local s=$1
	if ((s >= 60)); then
		printf '%dm%02ds' $((s / 60)) $((s % 60))
	else
		printf '%ds' "$s"
	fi
}

# read_series SERIES PATCHDIR: read kernel/series into the array series_patches
# (patch file names in order) and series_nbase (how many come before the
# @baseline marker, i.e. the lab patches). One patch per line, '#' starts a
# comment. Dies on a listed patch that does not exist or a missing marker.
read_series() {
	local e
	series_patches=()
	series_nbase=-1
	while IFS= read -r e; do
		if [[ $e == @baseline ]]; then
			series_nbase=${#series_patches[@]}
			continue
		fi
		[[ -f $2/$e ]] || die "kernel/series lists $e, but kernel/patches/$e does not exist"
		series_patches+=("$e")
	done < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1")
	((series_nbase >= 0)) || die "kernel/series has no @baseline marker"
}

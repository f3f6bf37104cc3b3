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

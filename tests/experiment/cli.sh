#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/experiment and scripts/experiment-guest on bad input: each must
# stop before building or booting anything, with a one-line reason and the
# documented status (2 bad usage, 1 refused).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# expect STATUS PATTERN CMD...: CMD exits with STATUS, its stderr matches PATTERN.
expect() {
	local want=$1 pat=$2 rc=0
	shift 2
	timeout 20 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
	if [[ $rc != "$want" ]] || ! grep -Eq -- "$pat" "$tmp/err"; then
		echo "FAIL: $* -> status $rc (want $want), stderr:" >&2
		sed 's/^/  /' "$tmp/err" >&2
		failures=$((failures + 1))
	else
		echo "ok: $* -> $rc: $(head -n 1 "$tmp/err")"
	fi
}

x=$top/scripts/experiment
expect 2 "unknown argument: --bogus" "$x" --bogus
expect 2 "--repeats wants a positive number" "$x" --repeats 0
expect 2 "--repeats wants a positive number" "$x" --repeats x
expect 2 "unknown workload 'foo'" "$x" --workload git-grep-t1,foo
expect 2 "user workload needs --command" "$x" --workload user
expect 2 "unknown governor 'turbo'" "$x" --governors ondemand,turbo
expect 2 "--rate wants a positive number" "$x" --rate -5
expect 2 "--tol wants a fraction below 1" "$x" --tol 2
expect 2 "--tol wants a fraction below 1" "$x" --tol 5%
expect 2 "--delay-ms wants a whole number" "$x" --delay-ms 1.5
expect 2 "--fio-runtime wants a positive number" "$x" --workload fio-psync-qd1 --fio-runtime 0
expect 2 "unknown workload 'fio-sync-qd1'" "$x" --workload fio-sync-qd1
expect 2 "unknown placement 'loose'" "$x" --placement loose
expect 2 "unknown policy 'package'" "$x" --policy package
expect 2 "--out needs a value" "$x" --out
mkdir -p "$tmp/old" && : >"$tmp/old/runs.tsv"
expect 1 "already holds an experiment" "$x" --quick --out "$tmp/old"
[[ ! -e $tmp/old/meta.json ]] || { echo "FAIL: a refused run wrote meta.json" >&2; failures=$((failures + 1)); }

g=$top/scripts/experiment-guest
expect 2 "Usage:" "$g" --kernel baseline
expect 2 "unknown argument" "$g" --frobnicate
expect 2 "unknown placement: loose" "$g" --kernel baseline --out "$tmp/g" --repeat 1 --placement loose -- performance
# its numbers go into a command line the guest evals: checked there too
expect 2 "--fio-runtime wants a positive number" "$g" --kernel baseline --out "$tmp/g" --repeat 1 --fio-runtime '5;id' -- performance
expect 2 "--rate wants a positive number" "$g" --kernel baseline --out "$tmp/g" --repeat 1 --rate 0 -- performance
expect 2 "--only: cannot read $tmp/none" "$g" --kernel baseline --out "$tmp/g" --repeat 1 --only "$tmp/none" -- performance
# On the host it refuses to touch anything (this host has a /dev/vda of its own).
expect 1 "runs only inside a lab guest" "$g" --kernel baseline --out "$tmp/g" --repeat 1 -- performance
expect 1 "runs only inside a lab guest" "$g" --probe "$tmp/probe.env"
[[ ! -e $tmp/probe.env && ! -e $tmp/g ]] || { echo "FAIL: experiment-guest wrote on the host" >&2; failures=$((failures + 1)); }

# --help of each documents the exit status, and prints nothing on stderr
# (an unquoted here-document once ran a command it quotes).
for s in "$x" "$g" "$top/scripts/workload-disk"; do
	"$s" --help 2>"$tmp/err" | grep -q '^Exit status' || { echo "FAIL: $s --help has no exit status" >&2; failures=$((failures + 1)); }
	[[ ! -s $tmp/err ]] || { echo "FAIL: $s --help wrote to stderr: $(head -n 1 "$tmp/err")" >&2; failures=$((failures + 1)); }
done

((failures == 0)) || { echo "$failures failure(s)" >&2; exit 1; }
echo "PASS: experiment CLI rejects bad input"

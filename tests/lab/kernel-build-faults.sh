#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kernel-build on bad input, with a tiny fake linux-source tarball
# and a fake series (no real kernel is unpacked or built): a missing or
# different source version and a patch that does not apply must each stop
# the build with a clear error naming the cause, and build nothing.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# fake_tarball SUBLEVEL: a linux-source-6.1 tarball holding a Makefile and one file
fake_tarball() {
	local d=$tmp/src-$1
	mkdir -p "$d/linux-source-6.1"
	printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = %s\nEXTRAVERSION =\n' "$1" >"$d/linux-source-6.1/Makefile"
	printf 'int answer = 42;\n' >"$d/linux-source-6.1/answer.c"
	tar -cJf "$d.tar.xz" -C "$d" linux-source-6.1
	echo "$d.tar.xz"
}

# a series with one lab patch against the fake tree
mkdir -p "$tmp/kernel/patches" "$tmp/kernel/config"
cp "$top/kernel/config/"*.config "$tmp/kernel/config/"
cat >"$tmp/kernel/patches/0001-change-the-answer.patch" <<'PATCH'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Test <test@example.invalid>
Date: Thu, 1 Jan 2026 00:00:00 +0000
Subject: [PATCH] change the answer

Signed-off-by: Test <test@example.invalid>
---
 answer.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/answer.c b/answer.c
--- a/answer.c
+++ b/answer.c
@@ -1 +1 @@
-int answer = 41;
+int answer = 43;
PATCH
printf '# pin: linux-source-6.1 6.1.192\n0001-change-the-answer.patch\n@baseline\n' >"$tmp/kernel/series"

# expect NAME PATTERN ARGS...: kernel-build ARGS fails (exit 1) with PATTERN
expect() {
	local name=$1 pattern=$2 got=0
	shift 2
	IFM_BUILD=$tmp/build IFM_KERNEL_DIR=$tmp/kernel "$top/scripts/kernel-build" "$@" \
		>"$tmp/out" 2>"$tmp/err" || got=$?
	if [[ $got == 1 ]] && grep -Eq -- "$pattern" "$tmp/err" && [[ ! -e $tmp/build/kernel ]]; then
		echo "ok: $name"
	else
		echo "FAIL: $name: exit $got (want 1, '$pattern', nothing built), stderr:" >&2
		sed 's/^/  /' "$tmp/err" >&2
		failures=$((failures + 1))
	fi
}

expect "missing tarball" 'not found: install the Debian package linux-source-6.1' \
	--source "$tmp/none.tar.xz"
expect "different version" 'is linux 6\.1\.191, kernel/series is pinned to 6\.1\.192' \
	--source "$(fake_tarball 191)"
: >"$tmp/empty.tar.xz"
expect "not a kernel tarball" 'holds no kernel Makefile' --source "$tmp/empty.tar.xz"
expect "patch does not apply" '0001-change-the-answer.patch does not apply' \
	--source "$(fake_tarball 192)"
got=0
IFM_BUILD=$tmp/build IFM_KERNEL_DIR=$tmp/kernel "$top/scripts/kernel-build" --bogus >/dev/null 2>&1 || got=$?
if [[ $got == 2 ]]; then echo "ok: bad usage exits 2"; else
	echo "FAIL: bad usage exited $got" >&2
	failures=$((failures + 1))
fi

((failures == 0)) || { echo "$failures kernel-build fault cases failed" >&2; exit 1; }
echo "all kernel-build fault cases behave"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In the guest: run several test scripts of this folder, without arguments,
# in one boot and in order; stop at the first that fails. A boot of the
# debug kernel takes about 100 s under TCG, so checks that need no fresh
# boot of their own share one.
#
# Usage: each.sh SCRIPT...
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

(($#)) || fail "usage: each.sh SCRIPT..."
for script; do
	[[ -f $(dirname "$0")/$script ]] || fail "no test script $script"
	echo "== $script"
	bash "$(dirname "$0")/$script" || fail "$script failed"
done

#!/usr/bin/env bash
# Wall time of CI on a fresh clone of this repository's HEAD: `CI=true .ci/run`, as CI runs it
# (its own build directories, no ccache from the working tree).
#
#   bench/ci_time.sh            # about 35-45 min on a 2-core machine
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d /tmp/ty-ci.XXXXXX)
trap 'rm -rf "$work"' EXIT
git clone -q "$repo" "$work/repo"
start=$(date +%s)
(cd "$work/repo" && CI=true CCACHE_DISABLE=1 bash .ci/run > "$work/ci.log" 2>&1) || {
  tail -40 "$work/ci.log"
  echo "CI failed"
  exit 1
}
end=$(date +%s)
grep '=== stage' "$work/ci.log" | grep took
echo "RESULT ci_fresh_clone_min $(python3 -c "print('%.1f' % (($end - $start) / 60))") min"

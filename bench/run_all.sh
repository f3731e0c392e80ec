#!/usr/bin/env bash
# Builds the benchmarks (build-bench, Release) and runs them all; prints figure, target, measured,
# pass/fail. Nothing here is a test: the figures go into notes, not into ctest.
#
#   bench/run_all.sh            # everything but CI (~10 min after the build; ~1.1 GB in /tmp)
#   SKIP_BUILD=1 IDLE_SECONDS=10 LOG_MB=256 bench/run_all.sh
#   RUN_CI=1 bench/run_all.sh   # and the fresh-clone CI's wall time (~40 min more)
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD_DIR:-$REPO/build-bench}
JOBS=${JOBS:-2}
PY=/usr/bin/python3
IDLE_SECONDS=${IDLE_SECONDS:-20}
LOG_MB=${LOG_MB:-1024}
BIN=$BUILD/app/trainyard

if [[ -z ${SKIP_BUILD:-} ]]; then
  cmake -S "$REPO" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTRAINYARD_BUILD_BENCH=ON \
    -DTRAINYARD_BUILD_TESTS=OFF >/dev/null
  ninja -C "$BUILD" -j"$JOBS" trainyard ty_seed ty_tui_bench ty_log_bench
fi

WORK=$(mktemp -d /tmp/ty-bench.XXXXXX)
IDLE_TASK=""
cleanup() {
  if [[ -n $IDLE_TASK ]]; then
    "$BIN" --data-dir "$WORK/idle" stop "$IDLE_TASK" >/dev/null 2>&1 || true
    "$BIN" --data-dir "$WORK/idle" wait "$IDLE_TASK" >/dev/null 2>&1 || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
RES=$WORK/results.txt
: >"$RES"

echo "== seeding the 100,000-task job"
"$BUILD/bench/ty_seed" "$WORK/big" --job big --tasks 100000 --metrics 2 --points 20

echo "== 1, 4: exec to first frame on a pty, RSS of the open Tasks pane (real binary)"
$PY "$REPO/bench/pty_bench.py" first-frame "$BIN" "$WORK/big" --job big --runs 9 | tee -a "$RES"

echo "== 2, 3: frame, refresh + frame, filter keystrokes (Google Benchmark, 200x60)"
"$BUILD/bench/ty_tui_bench" --data-dir "$WORK/big" --benchmark_repetitions=5 \
  --benchmark_report_aggregates_only=true --benchmark_out="$WORK/tui.json" \
  --benchmark_out_format=json
$PY - "$WORK/tui.json" >>"$RES" <<'EOF'
import json, sys
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if b.get("aggregate_name") != "median":
        continue
    name = b["run_name"].replace("/", ".")
    print(f"RESULT {name}_ms {b['real_time']:.3f} ms")
    if "rss_mib" in b:
        print(f"RESULT {name}_rss_mib {b['rss_mib']:.3f} MiB")
EOF

echo "== 5: log pane on a ${LOG_MB} MiB file"
"$BUILD/bench/ty_log_bench" --size-mb "$LOG_MB" --dir "$WORK" | tee -a "$RES"

echo "== 6: idle CPU following a running task's log (${IDLE_SECONDS} s)"
IDLE_TASK=$("$BIN" --data-dir "$WORK/idle" run -- \
  python3 "$REPO/examples/train_demo.py" --epochs 1000 --delay 0.1)
for _ in $(seq 50); do
  "$BIN" --data-dir "$WORK/idle" ls tasks --json | grep -q '"running"' && break
  sleep 0.2
done
$PY "$REPO/bench/pty_bench.py" idle "$BIN" "$WORK/idle" --job "${IDLE_TASK%/*}" --keys Enter \
  --seconds "$IDLE_SECONDS" --name idle_follow | tee -a "$RES"
$PY "$REPO/bench/pty_bench.py" idle "$BIN" "$WORK/big" --job big --seconds "$IDLE_SECONDS" \
  --name idle_tasks100k | tee -a "$RES"

echo "== 7: ls pools --account A against az batch pool list, paired (emulator)"
if command -v az >/dev/null 2>&1; then
  "$REPO/bench/small_commands_bench.sh" "$BIN" 9 4 | tee -a "$RES"
else
  echo "az (Debian's azure-cli) is not installed: figure 7 left out"
fi

if command -v az >/dev/null 2>&1; then
  echo "== 8: sync --job of 20,000 tasks against az batch task list, then 100 changed (emulator)"
  "$REPO/bench/sync_bench.sh" "$BIN" 20000 | tee -a "$RES"
fi

echo "== 9: full sync of the emulator's 100,000-task job: wall and peak RSS"
"$REPO/bench/sync_rss_bench.sh" "$BIN" 100000 3 | tee -a "$RES"

echo "== 10: logs -f of a Batch task writing 1 MB/s (and the TUI following an emulator account)"
"$REPO/bench/batch_follow_bench.sh" "$BIN" "$IDLE_SECONDS" | tee -a "$RES"

if command -v az >/dev/null 2>&1 && [[ -x $REPO/tests/tools/node_modules/.bin/azurite-blob ]]; then
  echo "== 11: a 1 GiB file to and from Azurite against az storage blob upload/download"
  "$REPO/bench/storage_bench.sh" "$BIN" 1024 3 | tee -a "$RES"
  echo "== 12: run --upload of a 512 MiB folder, first and unchanged, against az upload-batch"
  "$REPO/bench/upload_bench.sh" "$BIN" 512 8 3 | tee -a "$RES"
fi

if [[ -n ${RUN_CI:-} ]]; then
  echo "== 13: fresh-clone CI=true .ci/run"
  "$REPO/bench/ci_time.sh" | tee -a "$RES"
fi

echo
$PY "$REPO/bench/report.py" "$RES"

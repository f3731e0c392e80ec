#!/usr/bin/env bash
# Runs one libFuzzer target in WORKERS processes that share one corpus (each reloads what the
# others found), so a many-core machine reaches a run count in a fraction of the time. Prints
# the executions summed over the workers, their rate, the coverage of the merged corpus, and
# whether any worker found a crash (its log and input stay under LOGS).
#   bench/fuzz_parallel.sh BINARY WORKERS RUNS MAX_SECONDS CORPUS LOGS [SEED_DIR...]
# RUNS is the total over all workers; a worker also stops after MAX_SECONDS. CORPUS may hold
# the corpus of an earlier run, which then goes on from there. FUZZ_LAUNCHER, when set, goes in
# front of the binary (a loader and its library path, where the binary was built elsewhere).
set -euo pipefail
if (($# < 6)); then
  sed -n '2,9p' "$0" >&2
  exit 2
fi
binary=$1 workers=$2 runs=$3 seconds=$4 corpus=$5 logs=$6
shift 6
name=$(basename "$binary")
mkdir -p "$corpus" "$logs"
read -r -a launcher <<<"${FUZZ_LAUNCHER:-}"
pids=()
for ((i = 1; i <= workers; i++)); do
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} "${launcher[@]}" "$binary" -seed="$i" \
    -runs=$(((runs + workers - 1) / workers)) -max_total_time="$seconds" -max_len=16384 \
    -timeout=10 -rss_limit_mb=2048 -reload=5 -print_final_stats=1 \
    -artifact_prefix="$logs/$name-$i-" "$corpus" "$@" >"$logs/$name-$i.log" 2>&1 &
  pids+=($!)
done
failed=0
for p in "${pids[@]}"; do wait "$p" || failed=$((failed + 1)); done
execs=$(awk '/stat::number_of_executed_units:/ {s += $2} END {print s + 0}' "$logs/$name"-*.log)
rate=$(awk '/stat::average_exec_per_sec:/ {s += $2} END {print s + 0}' "$logs/$name"-*.log)
# Coverage of everything the workers kept, measured in one pass over the merged corpus.
"${launcher[@]}" "$binary" -runs=0 -max_len=16384 "$corpus" >"$logs/$name-coverage.log" 2>&1 || true
cov=$(grep -o 'cov: [0-9]*' "$logs/$name-coverage.log" | tail -1 | awk '{print $2}')
ft=$(grep -o 'ft: [0-9]*' "$logs/$name-coverage.log" | tail -1 | awk '{print $2}')
printf '%-18s %10s %9s %7s %7s %7s %s\n' target execs exec/s cov ft corpus result
result=ok
((failed == 0)) || result="FINDING in $failed of $workers workers (logs in $logs)"
printf '%-18s %10s %9s %7s %7s %7s %s\n' "$name" "$execs" "$rate" "${cov:-?}" "${ft:-?}" \
  "$(find "$corpus" -type f | wc -l)" "$result"
((failed == 0))

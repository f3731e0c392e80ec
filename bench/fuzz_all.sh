#!/usr/bin/env bash
# Runs every libFuzzer target for RUNS executions (default 1,000,000) from the test fixtures and
# prints executions, exec/s, coverage (cov: edges, ft: features), corpus size and findings.
#   bench/fuzz_all.sh [BUILD_DIR=build-asan] [RUNS=1000000] [TARGET...]
# BUILD_DIR must be configured with -DTRAINYARD_SANITIZE=address -DTRAINYARD_FUZZ=ON (clang).
set -euo pipefail
build=${1:-build-asan}
runs=${2:-1000000}
shift $(($# < 2 ? $# : 2))
only=("$@")
cd "$(dirname "$0")/.."
work=$(mktemp -d /tmp/trainyard-fuzz-XXXXXX)
trap 'rm -rf "$work"' EXIT
targets=()
for f in "$build"/tests/fuzz/fuzz_*; do
  [[ -x $f && -f $f ]] || continue
  if ((${#only[@]} == 0)) || [[ " ${only[*]} " == *" $(basename "$f") "* ]]; then
    targets+=("$(basename "$f")")
  fi
done
if ((${#targets[@]} == 0)); then
  echo "no fuzz targets in $build/tests/fuzz: configure with -DTRAINYARD_FUZZ=ON" >&2
  exit 2
fi
seeds_of() {
  case $1 in
    fuzz_sanitizer) echo "tests/fixtures/logs tests/fuzz/seeds/sanitizer" ;;
    fuzz_batch_json) echo "tests/azure/fixtures" ;;
    fuzz_task_page) echo "tests/azure/fixtures" ;;
    fuzz_blob_xml) echo "tests/azure/fixtures/blob" ;;
    fuzz_prices) echo "tests/fixtures/prices" ;;
    fuzz_spec) echo "$build/tests/fuzz/seeds/spec" ;;
    fuzz_shared_key) echo "tests/fuzz/seeds/shared_key" ;;
    fuzz_odata_filter) echo "tests/fuzz/seeds/odata_filter" ;;
    fuzz_emulator_http) echo "tests/fuzz/seeds/emulator_http" ;;
    fuzz_journal) echo "tests/fuzz/seeds/journal" ;;
  esac
}
printf '%-18s %10s %9s %7s %7s %7s %s\n' target execs exec/s cov ft corpus result
status=0
for t in "${targets[@]}"; do
  mkdir -p "$work/$t"
  log="$work/$t.log"
  # shellcheck disable=SC2046
  if ASAN_OPTIONS=detect_leaks=1 "$build/tests/fuzz/$t" -runs="$runs" -max_len=16384 -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/$t-" "$work/$t" \
      $(seeds_of "$t") >"$log" 2>&1; then
    result=ok
  else
    result="FINDING (log: kept in ${log%.log}.finding.log)"
    cp "$log" "/tmp/$t.finding.log"
    status=1
  fi
  execs=$(awk '/stat::number_of_executed_units:/ {print $2}' "$log")
  rate=$(awk '/stat::average_exec_per_sec:/ {print $2}' "$log")
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | awk '{print $2}')
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | awk '{print $2}')
  corpus=$(find "$work/$t" -type f | wc -l)
  printf '%-18s %10s %9s %7s %7s %7s %s\n' "$t" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" \
    "$corpus" "$result"
done
exit $status

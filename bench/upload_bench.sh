#!/usr/bin/env bash
# `run --account A --upload DIR` against the emulator and Azurite (tests/tools): DIR holds FILES
# random files of SIZE_MB in all. Timed, RUNS times each, in turns: the first send (hash and upload
# every file), the same folder again (hash, find every blob there, send nothing), and
# `az storage blob upload-batch` of the folder (which sends every file each time). Median wall
# time and the largest peak RSS (/usr/bin/time); every input blob is compared with its file.
#
#   bench/upload_bench.sh build-bench/app/trainyard [SIZE_MB=512] [FILES=8] [RUNS=3]
set -euo pipefail
exe=$(realpath "$1")
size_mb=${2:-512}
files=${3:-8}
runs=${4:-3}
# shellcheck source=bench/azurite.sh
. "$(dirname "$0")/azurite.sh"
command -v az >/dev/null || { echo "az (Debian's azure-cli) is missing"; exit 1; }
work=$(mktemp -d)
trap 'kill $az_pid $emu_pid 2>/dev/null; wait $az_pid $emu_pid 2>/dev/null; rm -rf "$work"' EXIT
start_azurite "$work"
key=$(openssl rand -base64 64 | tr -d '\n')
"$exe" emulator --port 0 --key "$key" > "$work/env" 2>/dev/null &
emu_pid=$!
export_azurite "$work"
for _ in $(seq 300); do
  grep -q ACCESS_KEY "$work/env" 2>/dev/null && break
  sleep 0.1
done
# shellcheck disable=SC1091
. "$work/env"
export BENCH_KEY=$AZURE_BATCH_ACCESS_KEY
endpoint=$AZURE_BATCH_ENDPOINT
unset AZURE_BATCH_ACCESS_KEY AZURE_BATCH_ACCOUNT AZURE_BATCH_ENDPOINT
mkdir -p "$work/cfg" "$work/data" "$work/inputs"
cat > "$work/cfg/config.json" <<JSON
{"accounts": [{"name": "emulator", "kind": "emulator", "endpoint": "$endpoint",
               "auth": {"keyEnv": "BENCH_KEY"}}]}
JSON
chmod 600 "$work/cfg/config.json"
export TRAINYARD_CONFIG=$work/cfg/config.json AZURE_CORE_COLLECT_TELEMETRY=no AZURE_CONFIG_DIR=$work/az
for i in $(seq "$files"); do
  head -c $(((size_mb << 20) / files)) /dev/urandom > "$work/inputs/part-$i.bin"
done
timed() {  # NAME then the command: appends "NAME wall_s rss_kib" to $work/times
  local name=$1; shift
  /usr/bin/time -f "$name %e %M" -a -o "$work/times" "$@" > /dev/null 2> "$work/err" ||
    { cat "$work/err"; exit 1; }
}
az storage container create --only-show-errors -n azc > /dev/null
for r in $(seq "$runs"); do
  # A new byte in each file makes every run's first send a real one.
  for f in "$work"/inputs/*.bin; do printf '%s' "$r" | dd of="$f" bs=1 seek=0 conv=notrunc 2>/dev/null; done
  timed ty_first "$exe" --data-dir "$work/data" run --account emulator --job "b$r" --pool p \
    --upload "$work/inputs" -- true
  timed ty_again "$exe" --data-dir "$work/data" run --account emulator --job "b$r" \
    --upload "$work/inputs" -- true
  timed az_batch az storage blob upload-batch --only-show-errors -d azc -s "$work/inputs" --overwrite
done
# Each input blob holds its file's bytes (the last run's).
for f in "$work"/inputs/*.bin; do
  sum=$(sha256sum "$f" | cut -d' ' -f1)
  "$exe" storage get "trainyard-inputs/sha256/$sum" "$work/back.bin" > /dev/null 2>&1
  cmp -s "$f" "$work/back.bin" || { echo "blob sha256/$sum differs from $f"; exit 1; }
  rm -f "$work/back.bin"
done
python3 - "$work/times" "$size_mb" "$files" <<'PY'
import collections, statistics, sys
path, size_mb, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = collections.defaultdict(list)
for line in open(path):
    parts = line.split()
    if len(parts) == 3:
        rows[parts[0]].append((float(parts[1]), int(parts[2]) / 1024))
med = {k: statistics.median(w for w, _ in v) for k, v in rows.items()}
for name, what in (("ty_first", "run --upload, first send"), ("ty_again", "run --upload, unchanged"),
                   ("az_batch", "az storage blob upload-batch")):
    print("RESULT upload_%s_s %.2f s (%s, %d MiB in %d files; runs: %s; peak RSS %.1f MiB)" % (
        name, med[name], what, size_mb, files, ", ".join("%.2f" % w for w, _ in rows[name]),
        max(r for _, r in rows[name])))
print("RESULT upload_unchanged_vs_first %.3f (wall of an unchanged folder / first send)" % (
    med["ty_again"] / med["ty_first"]))
print("RESULT upload_unchanged_vs_az %.1f x (az upload-batch wall / unchanged --upload wall)" % (
    med["az_batch"] / med["ty_again"]))
PY

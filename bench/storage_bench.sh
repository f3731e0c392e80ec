#!/usr/bin/env bash
# Upload and download of one file to Azurite (tests/tools) by `trainyard storage put/get` and by
# `az storage blob upload/download`, in turns, RUNS times each: median wall time, MB/s and the
# largest peak RSS (/usr/bin/time). Every download is compared with the file.
#
#   bench/storage_bench.sh build-bench/app/trainyard [SIZE_MB=1024] [RUNS=3]
set -euo pipefail
exe=$(realpath "$1")
size_mb=${2:-1024}
runs=${3:-3}
# shellcheck source=bench/azurite.sh
. "$(dirname "$0")/azurite.sh"
command -v az >/dev/null || { echo "az (Debian's azure-cli) is missing"; exit 1; }
work=$(mktemp -d)
trap 'kill $az_pid 2>/dev/null; wait $az_pid 2>/dev/null; rm -rf "$work"' EXIT
start_azurite "$work"
export_azurite "$work"
export TRAINYARD_CONFIG=$work/none.json AZURE_CORE_COLLECT_TELEMETRY=no AZURE_CONFIG_DIR=$work/az
head -c $((size_mb << 20)) /dev/urandom > "$work/file.bin"
timed() {  # NAME then the command: appends "NAME wall_s rss_kib" to $work/times
  local name=$1; shift
  /usr/bin/time -f "$name %e %M" -a -o "$work/times" "$@" > /dev/null 2> "$work/err" ||
    { cat "$work/err"; exit 1; }
}
for i in $(seq "$runs"); do
  timed ty_upload "$exe" storage put "$work/file.bin" "ty$i"
  az storage container create --only-show-errors -n "az$i" > /dev/null  # trainyard's put does this
  timed az_upload az storage blob upload --only-show-errors -c "az$i" -n file.bin \
    -f "$work/file.bin" --overwrite
  rm -f "$work/back.bin"
  timed ty_download "$exe" storage get "ty$i/file.bin" "$work/back.bin"
  cmp -s "$work/file.bin" "$work/back.bin" || { echo "trainyard's download differs"; exit 1; }
  rm -f "$work/back.bin"
  timed az_download az storage blob download --only-show-errors -c "az$i" -n file.bin \
    -f "$work/back.bin"
  cmp -s "$work/file.bin" "$work/back.bin" || { echo "az's download differs"; exit 1; }
done
python3 - "$work/times" "$size_mb" "$runs" <<'PY'
import collections, statistics, sys
path, size_mb, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = collections.defaultdict(list)
for line in open(path):
    parts = line.split()
    if len(parts) == 3 and parts[0].endswith(("_upload", "_download")):
        rows[parts[0]].append((float(parts[1]), int(parts[2]) / 1024))
for way in ("upload", "download"):
    ty, az = rows["ty_" + way], rows["az_" + way]
    ty_s, az_s = statistics.median(w for w, _ in ty), statistics.median(w for w, _ in az)
    print("RESULT storage_%s_ty_mb_s %.0f MB/s (%d MiB, median of %d: %s s)" % (
        way, size_mb * 1.048576 / ty_s, size_mb, len(ty), ", ".join("%.2f" % w for w, _ in ty)))
    print("RESULT storage_%s_az_mb_s %.0f MB/s (median of %d: %s s)" % (
        way, size_mb * 1.048576 / az_s, len(az), ", ".join("%.2f" % w for w, _ in az)))
    print("RESULT storage_%s_speedup %.2f x (az wall / trainyard wall)" % (way, az_s / ty_s))
    print("RESULT storage_%s_ty_rss_mib %.1f MiB (largest peak RSS of %d)" % (
        way, max(r for _, r in ty), len(ty)))
    print("RESULT storage_%s_az_rss_mib %.1f MiB (largest peak RSS of %d)" % (
        way, max(r for _, r in az), len(az)))
PY

#!/usr/bin/env bash
# A full `trainyard sync --job` of the emulator's 100,000-task job into an empty cache, RUNS times:
# median wall time and the largest peak RSS (/usr/bin/time's maximum resident set size).
#
#   bench/sync_rss_bench.sh build-bench/app/trainyard [TASKS] [RUNS]
set -euo pipefail
exe=$(realpath "$1")
tasks=${2:-100000}
runs=${3:-3}
work=$(mktemp -d)
trap 'kill $emu_pid 2>/dev/null; wait $emu_pid 2>/dev/null; rm -rf "$work"' EXIT
key=$(openssl rand -base64 64 | tr -d '\n')
"$exe" emulator --port 0 --key "$key" --seed-tasks "$tasks" > "$work/env" 2>/dev/null &
emu_pid=$!
for _ in $(seq 300); do grep -q ACCESS_KEY "$work/env" 2>/dev/null && break; sleep 0.1; done
# shellcheck disable=SC1091
. "$work/env"
for i in $(seq "$runs"); do
  export XDG_DATA_HOME=$work/data-$i XDG_CONFIG_HOME=$work/cfg
  /usr/bin/time -f "%e %M" -o "$work/time-$i" \
    "$exe" sync --account "$AZURE_BATCH_ACCOUNT" --job seed-sweep > "$work/out-$i"
  echo "run $i: $(tail -1 "$work/out-$i")"
done
python3 - "$work" "$runs" "$tasks" <<'PY'
import statistics, sys
work, runs, tasks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
walls, rss = [], []
for i in range(1, runs + 1):
    wall, kib = open("%s/time-%d" % (work, i)).read().split()[-2:]
    walls.append(float(wall)); rss.append(int(kib) / 1024)
print("RESULT sync100k_wall_s %.2f s (median of %d full syncs of %d tasks; each: %s)"
      % (statistics.median(walls), runs, tasks, ", ".join("%.2f" % w for w in walls)))
print("RESULT sync100k_peak_rss_mib %.1f MiB (the largest of %d)" % (max(rss), runs))
PY

#!/usr/bin/env bash
# Full sync of a 20,000-task job: `trainyard sync` into the cache versus `az batch task list`, measured
# against the same emulator in one run (wall-time ratio), plus the bytes each transferred (the
# emulator's counters). Then 100 of the tasks change (failed ones reactivated) and a second
# `trainyard sync --job` runs: its bytes against the first's, and whether the cache saw all 100.
#
#   bench/sync_bench.sh build-rel/app/trainyard [TASKS]
set -euo pipefail
exe=$(realpath "$1")
tasks=${2:-20000}
work=$(mktemp -d)
trap 'kill $emu_pid 2>/dev/null; wait $emu_pid 2>/dev/null; rm -rf "$work"' EXIT
key=$(openssl rand -base64 64 | tr -d '\n')
"$exe" emulator --port 0 --key "$key" --seed-tasks "$tasks" > "$work/env" 2>/dev/null &
emu_pid=$!
for _ in $(seq 100); do grep -q ACCESS_KEY "$work/env" 2>/dev/null && break; sleep 0.1; done
# shellcheck disable=SC1091
. "$work/env"
export XDG_CONFIG_HOME=$work/cfg XDG_DATA_HOME=$work/data AZURE_CONFIG_DIR=$work/az
export AZURE_CORE_COLLECT_TELEMETRY=false AZURE_CORE_NO_COLOR=1 AZURE_CORE_ONLY_SHOW_ERRORS=1
mkdir -p "$work/az" && echo '{"versionCheckTime": "2099-01-01 00:00:00.000000"}' > "$work/az/versionCheck.json"
counters() {
  python3 - "$AZURE_BATCH_ENDPOINT" "$AZURE_BATCH_ACCOUNT" "$AZURE_BATCH_ACCESS_KEY" <<'PY'
import base64, hashlib, hmac, json, sys, urllib.request
from email.utils import formatdate
ep, acct, key = sys.argv[1:]
path = "/__trainyard/counters?api-version=2025-06-01"
date = formatdate(usegmt=True)
sts = "GET\n" + "\n" * 11 + "ocp-date:%s\n/%s/__trainyard/counters\napi-version:2025-06-01" % (date, acct)
sig = base64.b64encode(hmac.new(base64.b64decode(key), sts.encode(), hashlib.sha256).digest()).decode()
req = urllib.request.Request(ep + path, headers={"ocp-date": date, "Authorization": "SharedKey %s:%s" % (acct, sig)})
c = json.load(urllib.request.urlopen(req))
p = c.get("paths", {}).get("GET /jobs/{}/tasks", {})
print(p.get("requests", 0), p.get("bytes", 0))
PY
}
now() { date +%s.%N; }
read -r r0 b0 < <(counters)
t0=$(now)
"$exe" sync --account "$AZURE_BATCH_ACCOUNT" --job seed-sweep | tail -1
t1=$(now)
read -r r1 b1 < <(counters)
az batch task list --job-id seed-sweep --query "length(@)" -o tsv > "$work/az_count"
t2=$(now)
read -r r2 b2 < <(counters)
python3 - "$t0" "$t1" "$t2" "$r0" "$b0" "$r1" "$b1" "$r2" "$b2" "$(cat "$work/az_count")" "$tasks" <<'PY'
import sys
t0, t1, t2 = map(float, sys.argv[1:4])
r0, b0, r1, b1, r2, b2 = map(int, sys.argv[4:10])
az_count, tasks = int(sys.argv[10]), int(sys.argv[11])
ty, az = t1 - t0, t2 - t1
print("tasks: %d (az counted %d)" % (tasks, az_count))
print("trainyard sync --job: %6.2f s, %d task-list requests, %.1f MB" % (ty, r1 - r0, (b1 - b0) / 1e6))
print("az batch task list:   %6.2f s, %d task-list requests, %.1f MB" % (az, r2 - r1, (b2 - b1) / 1e6))
print("RESULT sync_vs_az_ratio %.2f x (az batch task list / trainyard sync --job, %d tasks)"
      % (az / ty, tasks))
PY

# 100 tasks change: failed ones are reactivated (each a state transition the service records).
"$exe" ls tasks --account "$AZURE_BATCH_ACCOUNT" --job seed-sweep --json --offline > "$work/before.json"
python3 -c '
import json, sys
tasks = json.load(open(sys.argv[1]))
failed = [t["id"] for t in tasks if t.get("executionInfo", {}).get("result") == "failure"]
print("\n".join(failed[:100]))' "$work/before.json" > "$work/changed"
while read -r id; do
  "$exe" task reactivate --account "$AZURE_BATCH_ACCOUNT" "seed-sweep/$id" > /dev/null
done < "$work/changed"
read -r r3 b3 < <(counters)
"$exe" sync --account "$AZURE_BATCH_ACCOUNT" --job seed-sweep | tail -1
read -r r4 b4 < <(counters)
"$exe" ls tasks --account "$AZURE_BATCH_ACCOUNT" --job seed-sweep --json --offline > "$work/after.json"
python3 - "$work/changed" "$work/before.json" "$work/after.json" "$b0" "$b1" "$b3" "$b4" <<'PY'
import json, sys
changed = set(open(sys.argv[1]).read().split())
before = {t["id"]: t for t in json.load(open(sys.argv[2]))}
after = {t["id"]: t for t in json.load(open(sys.argv[3]))}
b0, b1, b3, b4 = map(int, sys.argv[4:8])
# A reactivated task has a later state transition (it may have run and failed again since).
seen = sum(1 for i in changed if i in after and
           after[i].get("stateTransitionTime") != before[i].get("stateTransitionTime"))
print("RESULT sync_second_bytes_pct %.2f %% (%d B after %d changed, first sync %d B)"
      % (100.0 * (b4 - b3) / (b1 - b0), b4 - b3, len(changed), b1 - b0))
print("RESULT sync_second_changes_seen %d of %d" % (seen, len(changed)))
PY

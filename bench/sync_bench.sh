#!/usr/bin/env bash
# Full sync of a 20,000-task job: `trainyard sync` into the cache versus `az batch task list`, measured
# against the same emulator in one run (wall-time ratio), plus the bytes each transferred (the
# emulator's counters).
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
print("ratio az/trainyard:   %6.1fx (target >= 20x)" % (az / ty))
PY

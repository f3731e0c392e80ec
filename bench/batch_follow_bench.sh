#!/usr/bin/env bash
# A Batch (emulator) account followed by the TUI and by `logs -f`, against one emulator:
#   - idle CPU of the TUI on the Tasks pane of a 20,000-task job, polling, and then following a
#     running task's log (target <= 2 % of a core);
#   - bytes the poller asks for per focus cycle on that quiet job, against one full listing of
#     it (target: an incremental poll <= 5 % of a full one);
#   - `logs --account -f` of a task writing 100 MB: seconds to the last byte, and that the copy
#     equals the node's file.
#
#   bench/batch_follow_bench.sh build-rel/app/trainyard [SECONDS]
set -euo pipefail
exe=$(realpath "$1")
seconds=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'kill $emu_pid 2>/dev/null; wait $emu_pid 2>/dev/null; rm -rf "$work"' EXIT
key=$(openssl rand -base64 64 | tr -d '\n')
"$exe" emulator --port 0 --key "$key" --seed-tasks 20000 > "$work/env" 2>/dev/null &
emu_pid=$!
for _ in $(seq 300); do grep -q ACCESS_KEY "$work/env" 2>/dev/null && break; sleep 0.1; done
# shellcheck disable=SC1091
. "$work/env"
export BENCH_KEY=$AZURE_BATCH_ACCESS_KEY
endpoint=$AZURE_BATCH_ENDPOINT
# Only the config account: the environment's would be a second name for the same account.
unset AZURE_BATCH_ACCESS_KEY AZURE_BATCH_ACCOUNT AZURE_BATCH_ENDPOINT
mkdir -p "$work/cfg" "$work/data"
cat > "$work/cfg/config.json" <<JSON
{"accounts": [{"name": "emulator", "kind": "emulator", "endpoint": "$endpoint",
               "auth": {"keyEnv": "BENCH_KEY"}}]}
JSON
chmod 600 "$work/cfg/config.json"
export TRAINYARD_CONFIG=$work/cfg/config.json
ty() { "$exe" --data-dir "$work/data" "$@"; }
counter_bytes() {  # response bytes the emulator sent so far, all operations
  python3 - "$endpoint" "$BENCH_KEY" <<'PY'
import base64, hashlib, hmac, json, sys, urllib.request
from email.utils import formatdate
ep, key = sys.argv[1:]
date = formatdate(usegmt=True)
sts = "GET\n" + "\n" * 11 + "ocp-date:%s\n/emulator/__trainyard/counters\napi-version:2025-06-01" % date
sig = base64.b64encode(hmac.new(base64.b64decode(key), sts.encode(), hashlib.sha256).digest()).decode()
req = urllib.request.Request(ep + "/__trainyard/counters?api-version=2025-06-01",
                             headers={"ocp-date": date, "Authorization": "SharedKey emulator:" + sig})
c = json.load(urllib.request.urlopen(req))
print(sum(v.get("bytes", 0) for v in c.get("paths", {}).values()))
PY
}

ty sync --account emulator > "$work/sync.txt"
full=$(grep -o '[0-9]* bytes' "$work/sync.txt" | tail -1 | cut -d' ' -f1)
echo "full sync: $(tail -1 "$work/sync.txt")"

# Idle on the quiet 20,000-task job: the poller refreshes it incrementally every 1.5 s.
b0=$(counter_bytes)
python3 "$here/pty_bench.py" idle "$exe" "$work/data" --account emulator --job seed-sweep \
  --seconds "$seconds" --name batch_tasks_idle
b1=$(counter_bytes)
python3 - "$full" "$b0" "$b1" "$seconds" <<'PY'
import sys
full, b0, b1, secs = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
# The pane is open for secs + ~4 s (start and settle); one focus cycle every 1.5 s.
cycles = (secs + 4) / 1.5
per = (b1 - b0) / cycles
print("RESULT batch_poll_bytes_per_cycle %.0f B (a full listing of the job: %d B, %.2f %%)"
      % (per, full, 100.0 * per / full))
PY

# A running task whose log the TUI follows.
ty job create --account emulator --id bench-live --pool seed-cpu > /dev/null
ty task add --account emulator bench-live --id t1 -- /bin/sh -c \
  'i=0; while [ $i -lt 600 ]; do echo "step $i loss=0.$i"; i=$((i+1)); sleep 0.1; done' > /dev/null
sleep 2
python3 "$here/pty_bench.py" idle "$exe" "$work/data" --account emulator --job bench-live \
  --seconds "$seconds" --keys "l" --name batch_log_follow

# 100 MB of output followed by logs -f to the last byte.
ty task add --account emulator bench-live --id big -- /bin/sh -c \
  'head -c 75000000 /dev/urandom | base64 -w 120' > /dev/null
t0=$(date +%s.%N)
ty logs --account emulator bench-live/big -f --raw > "$work/big.out"
t1=$(date +%s.%N)
copy=$(find "$work/data/remote" -path '*bench-live/big/stdout.txt' | head -1)
python3 - "$t0" "$t1" "$copy" "$work/big.out" <<'PY'
import os, sys
t0, t1, copy, out = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3], sys.argv[4]
size = os.path.getsize(copy)
same = open(copy, "rb").read() == open(out, "rb").read()
print("RESULT logs_follow_100mb_seconds %.2f s (%.1f MB copied, printed copy identical: %s)"
      % (t1 - t0, size / 1e6, same))
PY

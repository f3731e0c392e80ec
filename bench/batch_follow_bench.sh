#!/usr/bin/env bash
# A Batch (emulator) account followed by the TUI and by `logs -f`, against one emulator:
#   - idle CPU of the TUI on the Tasks pane of a 20,000-task job, polling, and then following a
#     running task's log (target <= 2 % of a core);
#   - bytes the poller asks for per focus cycle on that quiet job, against one full listing of
#     it (target: an incremental poll <= 5 % of a full one);
#   - `logs --account -f` of a task writing 100 MB at 1 MB/s: the delay of each line to the screen
#     (target: at most one poll interval) and the bytes fetched against the file's size.
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
{"poll": {"focusSeconds": 1},
 "accounts": [{"name": "emulator", "kind": "emulator", "endpoint": "$endpoint",
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

# 100 of the 20,000 tasks change (failed ones retried), then the TUI opens the job: its first
# incremental poll carries those 100; the rest of the window is quiet polls of it.
ty ls tasks --account emulator --job seed-sweep --json --offline | python3 -c '
import json, sys
tasks = json.load(sys.stdin)
tasks = tasks if isinstance(tasks, list) else tasks.get("value", [])
failed = [t["id"] for t in tasks if t.get("executionInfo", {}).get("result") == "failure"]
print("\n".join(failed[:100]))' > "$work/failed"
while read -r id; do ty task reactivate --account emulator "seed-sweep/$id" > /dev/null; done < "$work/failed"
echo "changed: $(wc -l < "$work/failed") tasks reactivated"
b0=$(counter_bytes)
python3 "$here/pty_bench.py" idle "$exe" "$work/data" --account emulator --job seed-sweep \
  --seconds 3 --name batch_tasks_first_poll
b1=$(counter_bytes)
python3 - "$full" "$b0" "$b1" <<'PY'
import sys
full, b0, b1 = map(int, sys.argv[1:])
print("RESULT batch_poll_after_100_changed %d B in the first 7 s (first poll, then quiet ones and "
      "one background pass): %.2f %% of a full listing (%d B)" % (b1 - b0, 100.0 * (b1 - b0) / full, full))
PY

# Idle on the 20,000-task job: the poller refreshes it incrementally every second.
b0=$(counter_bytes)
python3 "$here/pty_bench.py" idle "$exe" "$work/data" --account emulator --job seed-sweep \
  --seconds "$seconds" --name batch_tasks_idle
b1=$(counter_bytes)
python3 - "$full" "$b0" "$b1" "$seconds" <<'PY'
import sys
full, b0, b1, secs = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
# The pane is open for secs + ~4 s (start and settle); one focus cycle a second.
cycles = secs + 4
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

# 100 MB growing at 1 MB/s, followed by logs -f: each line carries the time it was written, so
# the delay to the screen is measured line by line; the emulator's counters say how many bytes
# were fetched for the file against its size.
cat > "$work/writer.py" <<'PY'
import sys, time
line_body = "x" * 100
for second in range(100):
    start = time.time()
    chunk = []
    for _ in range(1024 * 1024 // 128):
        chunk.append("%.6f %s\n" % (time.time(), line_body[: 128 - 19]))
    sys.stdout.write("".join(chunk))
    sys.stdout.flush()
    time.sleep(max(0.0, 1.0 - (time.time() - start)))
PY
file_bytes() {  # response bytes of task file reads so far
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
print(sum(v.get("bytes", 0) for k, v in c.get("paths", {}).items() if "/files/" in k))
PY
}
f0=$(file_bytes)
ty task add --account emulator bench-live --id big -- /bin/sh -c "python3 $work/writer.py" > /dev/null
ty logs --account emulator bench-live/big -f --raw | python3 -c '
import sys, time
delays = []
size = 0
for line in sys.stdin.buffer:
    now = time.time()
    size += len(line)
    try:
        delays.append(now - float(line.split(b" ", 1)[0]))
    except ValueError:
        pass
delays.sort()
print("RESULT logs_follow_delay_p50_s %.2f s over %d lines, %.1f MB"
      % (delays[len(delays) // 2], len(delays), size / 1e6))
print("RESULT logs_follow_delay_p99_s %.2f s" % delays[int(len(delays) * 0.99)])
print("RESULT logs_follow_delay_max_s %.2f s" % delays[-1])
' 
f1=$(file_bytes)
copy=$(find "$work/data/remote" -path '*bench-live/big/stdout.txt' | head -1)
python3 - "$f0" "$f1" "$copy" <<'PY'
import os, sys
f0, f1, copy = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
size = os.path.getsize(copy)
print("RESULT logs_follow_bytes_fetched_twice %d B (%d fetched for a %d-byte file, %.4f %%)"
      % (f1 - f0 - size, f1 - f0, size, 100.0 * (f1 - f0 - size) / size))
PY

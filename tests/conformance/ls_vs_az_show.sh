#!/usr/bin/env bash
# Conformance: what `trainyard ls tasks --account A --job J --json` prints for a Batch account
# against what Debian's `az batch task show` (a client nobody here wrote) reads from the same
# service, for a sample of 50 tasks: seeded ones and tasks that really ran (some failing with exit
# 3, some with environment settings, constraints and more slots). Usage:
#   bash ls_vs_az_show.sh <path-to-trainyard>
# Prints one line per mismatch (`MISMATCH job/task field: trainyard X, az Y`) and a summary; exits
# 1 on any mismatch, 77 (skipped) when az is missing outside CI.
set -u -o pipefail

TRAINYARD=${1:?usage: ls_vs_az_show.sh <path-to-trainyard>}
if ! command -v az >/dev/null 2>&1; then
  if [[ "${CI:-}" == "true" ]]; then
    echo "FAIL az: the azure-cli package is not installed (required in CI)"
    exit 1
  fi
  echo "SKIP az: the azure-cli package is not installed"
  exit 77
fi
for tool in python3 openssl; do
  command -v "$tool" >/dev/null 2>&1 || { echo "FAIL $tool is required"; exit 1; }
done
[[ -x "$TRAINYARD" ]] || { echo "FAIL not executable: $TRAINYARD"; exit 1; }

T0=$(date +%s.%N)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ls-vs-az.XXXXXX")
EMU_PID=""
cleanup() {
  if [[ -n "$EMU_PID" ]] && kill -0 "$EMU_PID" 2>/dev/null; then
    kill -TERM "$EMU_PID" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$EMU_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$EMU_PID" 2>/dev/null
    wait "$EMU_PID" 2>/dev/null
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- az offline and private (as az_conformance.sh sets it up) ---------------------------------
unset AZURE_BATCH_ENDPOINT AZURE_BATCH_ACCOUNT AZURE_BATCH_ACCESS_KEY AZURE_BATCH_AUTH_MODE
unset REQUESTS_CA_BUNDLE CURL_CA_BUNDLE SSL_CERT_FILE SSL_CERT_DIR
export TMPDIR="$WORK"
export AZURE_CONFIG_DIR="$WORK/azure"
export AZURE_CORE_COLLECT_TELEMETRY=false
export AZURE_CORE_NO_COLOR=1
export AZURE_CORE_OUTPUT=json
export AZURE_CORE_ONLY_SHOW_ERRORS=true
export AZURE_CORE_SURVEY_MESSAGE=false
export AZURE_CORE_DISABLE_CONFIRM_PROMPT=true
export AZURE_AUTO_UPGRADE_ENABLE=no
export AZURE_EXTENSION_USE_DYNAMIC_INSTALL=no
export AZURE_EXTENSION_RUN_AFTER_DYNAMIC_INSTALL=false
# Anything that is not loopback goes to a dead proxy and fails fast instead of leaving the box.
export HTTP_PROXY=http://127.0.0.1:9 HTTPS_PROXY=http://127.0.0.1:9
export http_proxy=$HTTP_PROXY https_proxy=$HTTPS_PROXY
export NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost
mkdir -p "$AZURE_CONFIG_DIR"
printf '[core]\ncollect_telemetry = no\nsurvey_message = no\n[auto-upgrade]\nenable = no\n' \
  >"$AZURE_CONFIG_DIR/config"
AZ_PYTHON=$(sed -n '1s/^#! *//p' "$(command -v az)" | awk '{print ($1 ~ /\/env$/) ? $2 : $1}')
"${AZ_PYTHON:-python3}" - "$AZURE_CONFIG_DIR/versionCheck.json" >/dev/null 2>&1 <<'PY' || true
import datetime, json, sys
from azure.cli.core import __version__ as core
from azure.cli.telemetry import __version__ as telemetry
versions = {"azure-cli": {"local": core}, "core": {"local": core}, "telemetry": {"local": telemetry}}
with open(sys.argv[1], "w") as f:
    json.dump({"versions": versions, "update_time": str(datetime.datetime.now())}, f)
PY

since() { echo "$T0 $(date +%s.%N)" | awk '{printf "%.1f", $2 - $1}'; }
die() { echo "FAIL $1${2:+ -- $(printf '%s' "$2" | tr -s ' \n\t' '   ' | cut -c1-400)}"; exit 1; }
# azq NAME AZ-ARGS...: one az call whose output goes to $WORK/NAME.out; fails the script.
azq() {
  local name=$1; shift
  az "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" || die "az $*" "$(cat "$WORK/$name.err")"
}

# --- the emulator -----------------------------------------------------------------------------
KEY=$(openssl rand -base64 64 | tr -d '\n')
"$TRAINYARD" emulator --port 0 --key "$KEY" --seed-tasks 300 --node-step-ms 100 \
  >"$WORK/emu.out" 2>"$WORK/emu.err" &
EMU_PID=$!
for _ in $(seq 100); do
  grep -q '^export AZURE_BATCH_ACCESS_KEY=' "$WORK/emu.out" 2>/dev/null && break
  kill -0 "$EMU_PID" 2>/dev/null || break
  sleep 0.1
done
grep -q '^export AZURE_BATCH_ACCESS_KEY=' "$WORK/emu.out" || die "emulator starts" "$(cat "$WORK/emu.err")"
export_value() { sed -n "s/^export $1=//p" "$WORK/emu.out" | head -1 | sed "s/^[\"']//; s/[\"']\$//"; }
AZURE_BATCH_ENDPOINT=$(export_value AZURE_BATCH_ENDPOINT)
AZURE_BATCH_ACCOUNT=$(export_value AZURE_BATCH_ACCOUNT)
AZURE_BATCH_ACCESS_KEY=$(export_value AZURE_BATCH_ACCESS_KEY)
export AZURE_BATCH_ENDPOINT AZURE_BATCH_ACCOUNT AZURE_BATCH_ACCESS_KEY

# --- a job whose tasks really ran -------------------------------------------------------------
POOL=lvz-pool
JOB=lvz-job
cat >"$WORK/pool.json" <<EOF
{"id": "$POOL", "vmSize": "standard_d2s_v3", "targetDedicatedNodes": 2, "taskSlotsPerNode": 4,
 "virtualMachineConfiguration": {
   "imageReference": {"publisher": "canonical", "offer": "0001-com-ubuntu-server-jammy",
                      "sku": "22_04-lts", "version": "latest"},
   "nodeAgentSKUId": "batch.node.ubuntu 22.04"}}
EOF
azq pool batch pool create --json-file "$WORK/pool.json"
azq job batch job create --id "$JOB" --pool-id "$POOL"
# 20 tasks: plain ones, failures with exit 3 (retried once, so retryCount and lastRetryTime are
# set), environment settings with constraints, and tasks that take 2 slots.
python3 - "$WORK/tasks.json" <<'PY'
import json, sys
tasks = []
for i in range(20):
    t = {"id": f"t-{i:02}", "commandLine": f"/bin/sh -c 'echo run {i}'"}
    if i % 4 == 1:
        t["commandLine"] = "/bin/sh -c 'echo failing >&2; exit 3'"
        t["constraints"] = {"maxTaskRetryCount": 1}
    if i % 4 == 2:
        t["displayName"] = f"with env {i}"
        t["environmentSettings"] = [{"name": "STEP", "value": str(i)},
                                    {"name": "MODE", "value": "conformance"}]
        t["constraints"] = {"maxWallClockTime": "PT10M", "maxTaskRetryCount": 2,
                            "retentionTime": "P1D"}
    if i % 4 == 3:
        t["requiredSlots"] = 2
        t["constraints"] = {"maxWallClockTime": "PT1H30M"}
    tasks.append(t)
json.dump(tasks, open(sys.argv[1], "w"))
PY
azq add batch task create --job-id "$JOB" --json-file "$WORK/tasks.json"
done_=""
for _ in $(seq 60); do
  az batch task list --job-id "$JOB" --query "[].state" >"$WORK/states.json" 2>/dev/null &&
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if len(d)==20 and set(d)=={"completed"} else 1)' \
      "$WORK/states.json" && { done_=1; break; }
  sleep 0.5
done
[[ -n "$done_" ]] || die "the tasks of $JOB complete" "$(cat "$WORK/states.json" 2>/dev/null)"
T_RAN=$(since)

# --- trainyard pointed at the emulator through its config -------------------------------------
export TRAINYARD_CONFIG="$WORK/config.json"
export TRAINYARD_DATA_DIR="$WORK/data"
( umask 077 && cat >"$TRAINYARD_CONFIG" <<EOF
{"version": 1,
 "accounts": [{"name": "$AZURE_BATCH_ACCOUNT", "kind": "emulator",
               "endpoint": "$AZURE_BATCH_ENDPOINT", "auth": {"keyEnv": "LVZ_EMU_KEY"}}]}
EOF
)
chmod 600 "$TRAINYARD_CONFIG"
# Only the config names the account: the az variables stay out of trainyard's environment.
ty() {
  env -u AZURE_BATCH_ENDPOINT -u AZURE_BATCH_ACCOUNT -u AZURE_BATCH_ACCESS_KEY \
    LVZ_EMU_KEY="$AZURE_BATCH_ACCESS_KEY" "$TRAINYARD" "$@"
}
for job in seed-sweep "$JOB"; do
  ty ls tasks --account "$AZURE_BATCH_ACCOUNT" --job "$job" --json >"$WORK/ty-$job.json" \
    2>"$WORK/ty-$job.err" || die "trainyard ls tasks --job $job" "$(cat "$WORK/ty-$job.err")"
  if [[ -s "$WORK/ty-$job.err" ]]; then die "trainyard ls tasks --job $job is quiet on stderr" "$(cat "$WORK/ty-$job.err")"; fi
done

T_LS=$(since)

# --- the sample: every task of the job that ran, the rest from the seeded job -----------------
python3 - "$WORK" "$JOB" >"$WORK/sample.txt" <<'PY' || die "trainyard's listings hold every task"
import json, random, sys
work, job = sys.argv[1], sys.argv[2]
seed = json.load(open(f"{work}/ty-seed-sweep.json"))
ran = json.load(open(f"{work}/ty-{job}.json"))
if len(seed) != 300 or len(ran) != 20:
    print(f"seed-sweep: {len(seed)} tasks (300 expected), {job}: {len(ran)} (20 expected)",
          file=sys.stderr)
    sys.exit(1)
rng = random.Random(7)
# 30 from the seeded job, 3 of them among its failed tasks (1 in 20 failed), then all 20 that ran.
failed = [t["id"] for t in seed if t.get("executionInfo", {}).get("result") == "failure"][:3]
others = [t["id"] for t in seed if t["id"] not in failed]
picked = [("seed-sweep", i) for i in failed + rng.sample(others, 30 - len(failed))]
picked += [(job, t["id"]) for t in ran]
for j, t in picked:
    print(j, t)
PY
[[ $(wc -l <"$WORK/sample.txt") == 50 ]] || die "a sample of 50 tasks" "$(wc -l <"$WORK/sample.txt")"

# az takes ~0.7 s a call, mostly its own start-up: run them 6 at a time.
mkdir -p "$WORK/az"
show_one() {
  az batch task show --job-id "$1" --task-id "$2" >"$WORK/az/$1@$2.json" 2>"$WORK/az/$1@$2.err" ||
    echo "az batch task show --job-id $1 --task-id $2 failed: $(tr '\n' ' ' <"$WORK/az/$1@$2.err" | cut -c1-300)"
}
export -f show_one
export WORK
xargs -P 6 -L 1 bash -c 'show_one "$0" "$1"' <"$WORK/sample.txt" >"$WORK/az-failures.txt"
[[ -s "$WORK/az-failures.txt" ]] && die "az batch task show" "$(head -3 "$WORK/az-failures.txt")"
T_AZ=$(since)

# --- compare ----------------------------------------------------------------------------------
python3 - "$WORK" "$JOB" <<'PY'
import datetime, json, re, sys

work, job = sys.argv[1], sys.argv[2]
listed = {}
for j in ("seed-sweep", job):
    for t in json.load(open(f"{work}/ty-{j}.json")):
        listed[(j, t["id"])] = t


def instant(v):
    """An ISO 8601 time as trainyard (7 fraction digits, Z) or az (isoformat, +00:00) prints it."""
    if v is None:
        return None
    m = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)?", v)
    if not m:
        return ("unparsable", v)
    base = datetime.datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S")
    frac = (m.group(2) or "").ljust(7, "0")[:7]  # 100 ns units, as Batch keeps them
    tz = m.group(3) or "Z"
    off = 0 if tz == "Z" else (1 if tz[0] == "+" else -1) * (int(tz[1:3]) * 60 + int(tz[4:6]))
    base -= datetime.timedelta(minutes=off)
    # az's datetime keeps microseconds: compare at that precision.
    return (base, int(frac) // 10)


def iso_duration(v):
    """trainyard's ISO 8601 duration (PT10M, P10675199DT2H48M5.4775807S) in microseconds."""
    m = re.fullmatch(r"P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.(\d+))?S)?)?", v)
    if not m:
        return ("unparsable", v)
    d, h, mi, s = (int(m.group(i) or 0) for i in range(1, 5))
    return (d * 86400 + h * 3600 + mi * 60 + s) * 10**6 + int((m.group(5) or "").ljust(6, "0")[:6])


def timedelta_text(v):
    """az's str(timedelta) ("0:10:00", "1 day, 2:03:04.5", "10675199 days, 2:48:05.477581")."""
    m = re.fullmatch(r"(?:(-?\d+) days?, )?(\d+):(\d\d):(\d\d)(?:\.(\d+))?", v)
    if not m:
        return ("unparsable", v)
    d, h, mi, s = int(m.group(1) or 0), int(m.group(2)), int(m.group(3)), int(m.group(4))
    return ((d * 86400 + h * 3600 + mi * 60 + s) * 10**6 + int((m.group(5) or "").ljust(6, "0")[:6]))


UNLIMITED_US = 10675199 * 86400 * 10**6  # Batch's "unlimited" is timedelta.max, about this


def wall(v, parse):
    if v is None:
        return "unlimited"
    us = parse(v)
    if isinstance(us, tuple):
        return us
    # Both spell "unlimited" as timedelta.max; trainyard rounds it to 100 ns, az to 1 µs.
    return "unlimited" if us >= UNLIMITED_US else us


def text(v):
    return "" if v is None else v


def get(d, *path):
    for p in path:
        if not isinstance(d, dict):
            return None
        d = d.get(p)
    return d


def env(v):
    return [(e.get("name"), text(e.get("value"))) for e in (v or [])]


fields = [
    ("id", lambda t: t.get("id"), lambda a: a.get("id")),
    ("displayName", lambda t: text(t.get("displayName")), lambda a: text(a.get("displayName"))),
    ("commandLine", lambda t: t.get("commandLine"), lambda a: a.get("commandLine")),
    ("state", lambda t: t.get("state"), lambda a: a.get("state")),
    ("creationTime", lambda t: instant(t.get("creationTime")), lambda a: instant(a.get("creationTime"))),
    ("stateTransitionTime", lambda t: instant(t.get("stateTransitionTime")),
     lambda a: instant(a.get("stateTransitionTime"))),
    ("previousState", lambda t: t.get("previousState"), lambda a: a.get("previousState")),
    ("environmentSettings", lambda t: env(t.get("environmentSettings")),
     lambda a: env(a.get("environmentSettings"))),
    ("constraints.maxWallClockTime",
     lambda t: wall(get(t, "constraints", "maxWallClockTime"), iso_duration),
     lambda a: wall(get(a, "constraints", "maxWallClockTime"), timedelta_text)),
    ("constraints.maxTaskRetryCount", lambda t: get(t, "constraints", "maxTaskRetryCount"),
     lambda a: get(a, "constraints", "maxTaskRetryCount")),
    ("requiredSlots", lambda t: t.get("requiredSlots"), lambda a: a.get("requiredSlots")),
]
for f in ("startTime", "endTime", "lastRetryTime"):
    fields.append((f"executionInfo.{f}", lambda t, f=f: instant(get(t, "executionInfo", f)),
                   lambda a, f=f: instant(get(a, "executionInfo", f))))
for f in ("exitCode", "result", "retryCount", "requeueCount"):
    fields.append((f"executionInfo.{f}", lambda t, f=f: get(t, "executionInfo", f),
                   lambda a, f=f: get(a, "executionInfo", f)))
for f in ("code", "category", "message"):
    fields.append((f"executionInfo.failureInfo.{f}",
                   lambda t, f=f: get(t, "executionInfo", "failureInfo", f),
                   lambda a, f=f: get(a, "executionInfo", "failureInfo", f)))
for f in ("poolId", "nodeId"):
    fields.append((f"nodeInfo.{f}", lambda t, f=f: get(t, "nodeInfo", f),
                   lambda a, f=f: get(a, "nodeInfo", f)))


def show(v):
    if isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], datetime.datetime):
        return v[0].strftime("%Y-%m-%dT%H:%M:%S") + f".{v[1]:06}Z"
    return json.dumps(v, default=str)


mismatches = 0
compared = 0
sample = [line.split() for line in open(f"{work}/sample.txt")]
for j, t in sample:
    az = json.load(open(f"{work}/az/{j}@{t}.json"))
    ty = listed[(j, t)]
    for name, from_ty, from_az in fields:
        a, b = from_ty(ty), from_az(az)
        compared += 1
        if a != b:
            mismatches += 1
            print(f"MISMATCH {j}/{t} {name}: trainyard {show(a)}, az {show(b)}")
# The sample must have exercised what it is meant to: failures, retries, env, slots, nodes.
kinds = {
    "exit 3": any(get(listed[(j, t)], "executionInfo", "exitCode") == 3 for j, t in sample),
    "a retry": any(get(listed[(j, t)], "executionInfo", "retryCount") for j, t in sample),
    "environment settings": any(listed[(j, t)].get("environmentSettings") for j, t in sample),
    "2 slots": any(listed[(j, t)].get("requiredSlots") == 2 for j, t in sample),
    "a failureInfo": any(get(listed[(j, t)], "executionInfo", "failureInfo") for j, t in sample),
    "a nodeInfo": any(listed[(j, t)].get("nodeInfo") for j, t in sample),
}
# A field both sides leave empty in every sampled task would compare equal without proving
# anything: each must have a value somewhere in the sample, on both sides.
for name, from_ty, from_az in fields:
    for side, get_side, docs in (("trainyard", from_ty, [listed[(j, t)] for j, t in sample]),
                                 ("az", from_az, [json.load(open(f"{work}/az/{j}@{t}.json"))
                                                  for j, t in sample])):
        if all(get_side(d) in (None, "", [], "unlimited") for d in docs):
            mismatches += 1
            print(f"MISMATCH sample: {side} gives no value of {name} in any sampled task")
for k, ok in kinds.items():
    if not ok:
        mismatches += 1
        print(f"MISMATCH sample: no task with {k}")
print(f"{len(sample)} tasks, {compared} fields compared, {mismatches} mismatches")
sys.exit(1 if mismatches else 0)
PY
RC=$?
echo "tasks ran by ${T_RAN} s, trainyard ls done by ${T_LS} s, 50 az task shows done by ${T_AZ} s;" \
  "total runtime $(since) s"
exit $RC

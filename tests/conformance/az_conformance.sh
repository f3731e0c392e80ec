#!/usr/bin/env bash
# Conformance: Debian's `az batch` (azure-cli 2.45, api-version 2022-10-01.16.0) against
# `trainyard emulator`. Usage: bash az_conformance.sh <path-to-trainyard>
# Prints one line per check and a final "N passed, M failed"; exits non-zero on any failure,
# 77 (skipped) when az is missing outside CI.
set -u -o pipefail

TRAINYARD=${1:?usage: az_conformance.sh <path-to-trainyard>}
if ! command -v az >/dev/null 2>&1; then
  if [[ "${CI:-}" == "true" ]]; then
    echo "FAIL az: the azure-cli package is not installed (required in CI)"
    echo "0 passed, 1 failed"
    exit 1
  fi
  echo "SKIP az: the azure-cli package is not installed"
  exit 77
fi
for tool in python3 openssl; do
  command -v "$tool" >/dev/null 2>&1 || { echo "FAIL $tool is required"; echo "0 passed, 1 failed"; exit 1; }
done
[[ -x "$TRAINYARD" ]] || { echo "FAIL not executable: $TRAINYARD"; echo "0 passed, 1 failed"; exit 1; }

T0=$(date +%s.%N)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/az-conformance.XXXXXX")
EMU_PID=""
TLS_PID=""
cleanup() {
  local pid
  for pid in "$EMU_PID" "$TLS_PID"; do
    if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -KILL "$pid" 2>/dev/null
      wait "$pid" 2>/dev/null
    fi
  done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- az offline and private -------------------------------------------------------------------
unset AZURE_BATCH_ENDPOINT AZURE_BATCH_ACCOUNT AZURE_BATCH_ACCESS_KEY AZURE_BATCH_AUTH_MODE
unset REQUESTS_CA_BUNDLE CURL_CA_BUNDLE SSL_CERT_FILE SSL_CERT_DIR
export TMPDIR="$WORK"                    # the emulator's work dir and az's temp files land here
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
# A fresh config dir makes az's first run probe the network for newer versions; seed that cache
# (best effort: the dead proxy above stops the probe anyway).
AZ_PYTHON=$(sed -n '1s/^#! *//p' "$(command -v az)" | awk '{print ($1 ~ /\/env$/) ? $2 : $1}')
"${AZ_PYTHON:-python3}" - "$AZURE_CONFIG_DIR/versionCheck.json" >/dev/null 2>&1 <<'PY' || true
import datetime, json, sys
from azure.cli.core import __version__ as core
from azure.cli.telemetry import __version__ as telemetry
versions = {"azure-cli": {"local": core}, "core": {"local": core}, "telemetry": {"local": telemetry}}
with open(sys.argv[1], "w") as f:
    json.dump({"versions": versions, "update_time": str(datetime.datetime.now())}, f)
PY

# --- reporting --------------------------------------------------------------------------------
PASSED=0
FAILED=0
pass() { PASSED=$((PASSED + 1)); echo "PASS $1"; }
fail() {
  FAILED=$((FAILED + 1)); echo "FAIL $1${2:+ -- $(printf '%s' "$2" | tr -s ' \n\t' '   ')}"
}
check() {  # check NAME CONDITION-COMMAND... (detail printed on failure from $DETAIL)
  local name=$1; shift
  DETAIL=""
  if "$@"; then pass "$name"; else fail "$name" "$DETAIL"; fi
}
snip() { tr '\n' ' ' <"$1" | cut -c1-300; }

# azc ARGS...: one timed az call; stdout in $WORK/out, stderr in $WORK/err, status in $RC.
CALLS=0
azc() {
  local t1 t2
  t1=$(date +%s.%N)
  az "$@" >"$WORK/out" 2>"$WORK/err"
  RC=$?
  t2=$(date +%s.%N)
  CALLS=$((CALLS + 1))
  echo "$t1 $t2" | awk '{printf "%.3f\n", $2 - $1}' >>"$WORK/times"
  return 0
}
out() { cat "$WORK/out"; }
# pyq EXPR: evaluate a Python expression over the JSON in $WORK/out (bound to `d`); prints it.
pyq() {
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval("(" + sys.argv[2] + ")"))' \
    "$WORK/out" "$1" 2>/dev/null
}
# ok_json EXPR: true when the Python boolean expression over the output holds.
ok_json() {
  local v
  v=$(pyq "$1")
  [[ "$RC" == 0 && "$v" == "True" ]] && return 0
  DETAIL="rc=$RC; expected: $1; got: $(snip "$WORK/out") $(snip "$WORK/err")"
  return 1
}
ok_rc() {
  [[ "$RC" == 0 ]] && return 0
  DETAIL="rc=$RC: $(snip "$WORK/err")"
  return 1
}
# expect_error NAME CODE STATUS AZ-ARGS...: the call fails, the SDK parsed CODE from the body and
# the HTTP status was STATUS (both visible with --debug).
expect_error() {
  local name=$1 code=$2 status=$3; shift 3
  azc "$@" --debug
  if [[ "$RC" != 0 ]] && grep -q "Code: $code\$" "$WORK/err" &&
    grep -Eq "HTTP/1\.1\" $status " "$WORK/err"; then
    pass "$name"
  else
    fail "$name" "rc=$RC; want $code/$status; got: $(grep -E '^Code: |HTTP/1\.1" [0-9]+' "$WORK/err" | head -3 | tr '\n' ' ')"
  fi
}

# start_emulator VAR-PREFIX ARGS...: starts trainyard emulator, reads its export lines.
start_emulator() {
  local prefix=$1; shift
  local key
  key=$(openssl rand -base64 64 | tr -d '\n')
  "$TRAINYARD" emulator --port 0 --key "$key" "$@" >"$WORK/$prefix.out" 2>"$WORK/$prefix.err" &
  local pid=$!
  if [[ "$prefix" == tls ]]; then TLS_PID=$pid; else EMU_PID=$pid; fi
  for _ in $(seq 100); do
    grep -q '^export AZURE_BATCH_ACCESS_KEY=' "$WORK/$prefix.out" 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  grep -q '^export AZURE_BATCH_ACCESS_KEY=' "$WORK/$prefix.out" 2>/dev/null
}
export_value() {  # export_value FILE NAME
  sed -n "s/^export $2=//p" "$1" | head -1 | sed "s/^[\"']//; s/[\"']\$//"
}

# --- emulator ---------------------------------------------------------------------------------
if ! start_emulator emu --node-step-ms 100; then
  fail "emulator starts" "$(snip "$WORK/emu.err")"
  echo "$PASSED passed, $FAILED failed"
  exit 1
fi
AZURE_BATCH_ENDPOINT=$(export_value "$WORK/emu.out" AZURE_BATCH_ENDPOINT)
AZURE_BATCH_ACCOUNT=$(export_value "$WORK/emu.out" AZURE_BATCH_ACCOUNT)
AZURE_BATCH_ACCESS_KEY=$(export_value "$WORK/emu.out" AZURE_BATCH_ACCESS_KEY)
export AZURE_BATCH_ENDPOINT AZURE_BATCH_ACCOUNT AZURE_BATCH_ACCESS_KEY
pass "emulator starts ($AZURE_BATCH_ENDPOINT)"

TOKEN=$(openssl rand -hex 6)
POOL=azc-pool-cli
POOL_JSON=azc-pool-json
JOB=azc-job
IMAGE=canonical:0001-com-ubuntu-server-jammy:22_04-lts
SKU="batch.node.ubuntu 22.04"

# --- pools ------------------------------------------------------------------------------------
azc batch pool create --id "$POOL" --vm-size standard_d2s_v3 --image "$IMAGE" \
  --node-agent-sku-id "$SKU" --target-dedicated-nodes 0
check "pool create --image --node-agent-sku-id" ok_rc

cat >"$WORK/pool.json" <<EOF
{"id": "$POOL_JSON", "vmSize": "standard_d2s_v3",
 "virtualMachineConfiguration": {
   "imageReference": {"publisher": "canonical", "offer": "0001-com-ubuntu-server-jammy",
                      "sku": "22_04-lts", "version": "latest"},
   "nodeAgentSKUId": "$SKU"},
 "targetDedicatedNodes": 1, "taskSlotsPerNode": 2, "resizeTimeout": "PT20M",
 "metadata": [{"name": "owner", "value": "conformance-$TOKEN"}]}
EOF
azc batch pool create --json-file "$WORK/pool.json"
check "pool create --json-file" ok_rc

azc batch pool show --pool-id "$POOL"
check "pool show (id, vmSize, image, agent sku, state, resizeTimeout default)" ok_json \
  "d['id']=='$POOL' and d['vmSize']=='standard_d2s_v3' and d['state']=='active'
   and d['virtualMachineConfiguration']['imageReference']['offer']=='0001-com-ubuntu-server-jammy'
   and d['virtualMachineConfiguration']['imageReference']['sku']=='22_04-lts'
   and d['virtualMachineConfiguration']['nodeAgentSkuId']=='$SKU'
   and d['enableAutoScale']==False and d['targetDedicatedNodes']==0
   and d['resizeTimeout']=='0:15:00' and d['url'].endswith('/pools/$POOL')"

azc batch pool show --pool-id "$POOL_JSON" --query \
  "{slots:taskSlotsPerNode,meta:metadata,target:targetDedicatedNodes,rt:resizeTimeout,ver:virtualMachineConfiguration.imageReference.version}"
check "pool show of the --json-file pool (slots, metadata, target, resizeTimeout)" ok_json \
  "d['slots']==2 and d['meta']==[{'name':'owner','value':'conformance-$TOKEN'}]
   and d['target']==1 and d['rt']=='0:20:00' and d['ver']=='latest'"

azc batch pool list --query "[].id"
check "pool list holds both pools" ok_json "set(d)>={'$POOL','$POOL_JSON'}"

azc batch pool resize --pool-id "$POOL" --target-dedicated-nodes 2
check "pool resize" ok_rc

steady=""
for _ in $(seq 12); do
  azc batch pool show --pool-id "$POOL" --query "[allocationState,currentDedicatedNodes]" -o tsv
  [[ "$RC" == 0 && "$(out | tr '\t\n' '  ' | xargs)" == "steady 2" ]] && { steady=1; break; }
  sleep 0.5
done
if [[ -n "$steady" ]]; then pass "pool resize reaches steady with currentDedicatedNodes 2"
else fail "pool resize reaches steady with currentDedicatedNodes 2" "last: $(snip "$WORK/out") $(snip "$WORK/err")"; fi

idle=""
for _ in $(seq 8); do
  azc batch node list --pool-id "$POOL" --query "[].state"
  [[ "$(pyq "d==['idle','idle']")" == True ]] && { idle=1; break; }
  sleep 0.5
done
if [[ -n "$idle" ]]; then pass "node list: 2 nodes, all idle"
else fail "node list: 2 nodes, all idle" "last: $(snip "$WORK/out") $(snip "$WORK/err")"; fi

# --- jobs -------------------------------------------------------------------------------------
azc batch job create --id "$JOB" --pool-id "$POOL"
check "job create" ok_rc

azc batch job show --job-id "$JOB"
check "job show (poolInfo, state, defaults)" ok_json \
  "d['id']=='$JOB' and d['poolInfo']['poolId']=='$POOL' and d['state']=='active'
   and d['priority']==0 and d['onAllTasksComplete']=='noaction' and d['url'].endswith('/jobs/$JOB')"

azc batch job list --query "[?id=='$JOB'].state"
check "job list holds the job" ok_json "d==['active']"

expect_error "job create of an existing job gives JobExists (409)" JobExists 409 \
  batch job create --id "$JOB" --pool-id "$POOL"

# --- tasks ------------------------------------------------------------------------------------
azc batch task create --job-id "$JOB" --task-id t-cli \
  --command-line "/bin/sh -c 'echo conformance-$TOKEN'"
check "task create --command-line" ok_rc

cat >"$WORK/tasks.json" <<EOF
[
 {"id": "t-env", "commandLine": "/bin/sh -c 'echo \"GREETING=\$GREETING\"'",
  "environmentSettings": [{"name": "GREETING", "value": "hello-$TOKEN"}],
  "constraints": {"maxWallClockTime": "PT10M", "maxTaskRetryCount": 2, "retentionTime": "P1D"}},
 {"id": "t-fail", "commandLine": "/bin/sh -c 'echo failing >&2; exit 3'",
  "constraints": {"maxTaskRetryCount": 0}}
]
EOF
azc batch task create --job-id "$JOB" --json-file "$WORK/tasks.json"
check "task create --json-file (array of tasks, addtaskcollection)" ok_json \
  "sorted((r['taskId'],r['status']) for r in d)==[('t-env','success'),('t-fail','success')]"

done_=""
for _ in $(seq 12); do
  azc batch task list --job-id "$JOB" --query "[].{id:id,state:state}"
  [[ "$(pyq "sorted(t['id'] for t in d)==['t-cli','t-env','t-fail'] and all(t['state']=='completed' for t in d)")" == True ]] &&
    { done_=1; break; }
  sleep 0.5
done
if [[ -n "$done_" ]]; then pass "task list: all three tasks, completed"
else fail "task list: all three tasks, completed" "last: $(snip "$WORK/out") $(snip "$WORK/err")"; fi

azc batch task show --job-id "$JOB" --task-id t-cli
check "task show: completed, exitCode 0, result success, nodeInfo" ok_json \
  "d['state']=='completed' and d['executionInfo']['exitCode']==0
   and d['executionInfo']['result']=='success' and d['executionInfo']['failureInfo'] is None
   and d['nodeInfo']['poolId']=='$POOL' and d['commandLine'].endswith(\"echo conformance-$TOKEN'\")"

azc batch task show --job-id "$JOB" --task-id t-env
check "task show: environmentSettings and constraints from --json-file" ok_json \
  "d['environmentSettings']==[{'name':'GREETING','value':'hello-$TOKEN'}]
   and d['constraints']['maxWallClockTime']=='0:10:00' and d['constraints']['maxTaskRetryCount']==2
   and d['constraints']['retentionTime']=='1 day, 0:00:00' and d['executionInfo']['exitCode']==0"

azc batch task show --job-id "$JOB" --task-id t-fail --query executionInfo
check "task show: nonzero exit gives exitCode 3, result failure, FailureExitCode" ok_json \
  "d['exitCode']==3 and d['result']=='failure' and d['failureInfo']['code']=='FailureExitCode'
   and d['failureInfo']['category']=='usererror'"

azc batch task file list --job-id "$JOB" --task-id t-cli
check "task file list: stdout.txt and stderr.txt with sizes" ok_json \
  "{f['name']:f['properties']['contentLength'] for f in d if not f['isDirectory']}.get('stdout.txt')==len('conformance-$TOKEN\n')
   and any(f['name']=='stderr.txt' for f in d)"

azc batch task file download --job-id "$JOB" --task-id t-cli --file-path stdout.txt \
  --destination "$WORK/t-cli.stdout"
if [[ "$RC" == 0 && "$(cat "$WORK/t-cli.stdout" 2>/dev/null)" == "conformance-$TOKEN" ]]; then
  pass "task file download: stdout.txt equals what the command echoed"
else
  fail "task file download: stdout.txt equals what the command echoed" \
    "rc=$RC; got '$(head -c 200 "$WORK/t-cli.stdout" 2>/dev/null)' $(snip "$WORK/err")"
fi

azc batch task file download --job-id "$JOB" --task-id t-env --file-path stdout.txt \
  --destination "$WORK/t-env.stdout"
if [[ "$RC" == 0 && "$(cat "$WORK/t-env.stdout" 2>/dev/null)" == "GREETING=hello-$TOKEN" ]]; then
  pass "task file download: the environment setting reached the task"
else
  fail "task file download: the environment setting reached the task" \
    "rc=$RC; got '$(head -c 200 "$WORK/t-env.stdout" 2>/dev/null)' $(snip "$WORK/err")"
fi

# --- error paths ------------------------------------------------------------------------------
expect_error "pool show of a missing pool gives PoolNotFound (404)" PoolNotFound 404 \
  batch pool show --pool-id "no-such-pool-$TOKEN"
expect_error "job show of a missing job gives JobNotFound (404)" JobNotFound 404 \
  batch job show --job-id "no-such-job-$TOKEN"
expect_error "task show of a missing task gives TaskNotFound (404)" TaskNotFound 404 \
  batch task show --job-id "$JOB" --task-id "no-such-task-$TOKEN"
WRONG_KEY=$(openssl rand -base64 64 | tr -d '\n')
AZURE_BATCH_ACCESS_KEY=$WRONG_KEY expect_error \
  "a wrong account key gives AuthenticationFailed (403)" AuthenticationFailed 403 batch pool list

# --- deletes ----------------------------------------------------------------------------------
azc batch job delete --job-id "$JOB" --yes
check "job delete" ok_rc
gone=""
for _ in $(seq 8); do
  azc batch job show --job-id "$JOB" --query state -o tsv --debug
  if [[ "$RC" != 0 ]]; then
    grep -q '^Code: JobNotFound$' "$WORK/err" && gone=1
    break
  fi
  [[ "$(out)" == deleting ]] || break
  sleep 0.5
done
if [[ -n "$gone" ]]; then pass "deleted job goes (deleting, then JobNotFound)"
else fail "deleted job goes (deleting, then JobNotFound)" "rc=$RC; $(snip "$WORK/out") $(grep '^Code:' "$WORK/err")"; fi

azc batch pool delete --pool-id "$POOL_JSON" --yes
check "pool delete" ok_rc
gone=""
for _ in $(seq 8); do
  azc batch pool show --pool-id "$POOL_JSON" --query state -o tsv --debug
  if [[ "$RC" != 0 ]]; then
    grep -q '^Code: PoolNotFound$' "$WORK/err" && gone=1
    break
  fi
  [[ "$(out)" == deleting ]] || break
  sleep 0.5
done
if [[ -n "$gone" ]]; then pass "deleted pool goes (deleting, then PoolNotFound)"
else fail "deleted pool goes (deleting, then PoolNotFound)" "rc=$RC; $(snip "$WORK/out") $(grep '^Code:' "$WORK/err")"; fi

# --- TLS --------------------------------------------------------------------------------------
if start_emulator tls --tls --node-step-ms 100; then
  CA=$(export_value "$WORK/tls.out" REQUESTS_CA_BUNDLE)
  TLS_ENDPOINT=$(export_value "$WORK/tls.out" AZURE_BATCH_ENDPOINT)
  TLS_KEY=$(export_value "$WORK/tls.out" AZURE_BATCH_ACCESS_KEY)
  if [[ "$TLS_ENDPOINT" == https://* && -s "$CA" ]]; then
    pass "--tls prints an https endpoint and REQUESTS_CA_BUNDLE"
  else
    fail "--tls prints an https endpoint and REQUESTS_CA_BUNDLE" "$(snip "$WORK/tls.out")"
  fi
  AZURE_BATCH_ENDPOINT=$TLS_ENDPOINT AZURE_BATCH_ACCESS_KEY=$TLS_KEY REQUESTS_CA_BUNDLE=$CA \
    azc batch pool list
  check "TLS: pool list succeeds when az trusts the printed CA" ok_json "d==[]"
  AZURE_BATCH_ENDPOINT=$TLS_ENDPOINT AZURE_BATCH_ACCESS_KEY=$TLS_KEY azc batch pool list
  if [[ "$RC" != 0 ]] && grep -Eqi 'CERTIFICATE_VERIFY_FAILED|certificate verify failed' "$WORK/err"; then
    pass "TLS: without the CA the request fails with a certificate error"
  else
    fail "TLS: without the CA the request fails with a certificate error" "rc=$RC; $(snip "$WORK/err")"
  fi
else
  fail "--tls emulator starts" "$(snip "$WORK/tls.err")"
fi

# --- summary ----------------------------------------------------------------------------------
T1=$(date +%s.%N)
python3 - "$WORK/times" "$T0" "$T1" <<'EOF'
import statistics, sys
times = [float(x) for x in open(sys.argv[1]) if x.strip()]
print(f"az calls: {len(times)}, median {statistics.median(times):.2f} s, "
      f"max {max(times):.2f} s; total runtime {float(sys.argv[3]) - float(sys.argv[2]):.1f} s")
EOF
echo "$PASSED passed, $FAILED failed"
[[ "$FAILED" == 0 ]]

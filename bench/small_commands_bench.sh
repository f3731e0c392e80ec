#!/usr/bin/env bash
# A small command against the emulator: `trainyard ls pools --account A` versus
# `az batch pool list`, run alternately (paired) RUNS times against one emulator with POOLS pools
# of 2 nodes each; prints each one's median wall time and the median of the paired ratios
# (target <= 0.1x).
#
#   bench/small_commands_bench.sh build-rel/app/trainyard [RUNS] [POOLS]
set -euo pipefail
exe=$(realpath "$1")
runs=${2:-9}
pools=${3:-4}
work=$(mktemp -d)
trap 'kill $emu_pid 2>/dev/null; wait $emu_pid 2>/dev/null; rm -rf "$work"' EXIT
key=$(openssl rand -base64 64 | tr -d '\n')
"$exe" emulator --port 0 --key "$key" --node-step-ms 100 > "$work/env" 2>/dev/null &
emu_pid=$!
for _ in $(seq 100); do grep -q ACCESS_KEY "$work/env" 2>/dev/null && break; sleep 0.1; done
# shellcheck disable=SC1091
. "$work/env"
export XDG_CONFIG_HOME=$work/cfg XDG_DATA_HOME=$work/data AZURE_CONFIG_DIR=$work/az
export AZURE_CORE_COLLECT_TELEMETRY=false AZURE_CORE_NO_COLOR=1 AZURE_CORE_ONLY_SHOW_ERRORS=1
mkdir -p "$work/az" && echo '{"versionCheckTime": "2099-01-01 00:00:00.000000"}' > "$work/az/versionCheck.json"
for i in $(seq "$pools"); do
  az batch pool create --id "pool-$i" --vm-size standard_d2s_v3 --target-dedicated-nodes 2 \
    --image canonical:0001-com-ubuntu-server-jammy:22_04-lts \
    --node-agent-sku-id "batch.node.ubuntu 22.04" > /dev/null
done
"$exe" ls pools --account "$AZURE_BATCH_ACCOUNT" > /dev/null  # the cache exists before timing
python3 - "$exe" "$AZURE_BATCH_ACCOUNT" "$runs" <<'PY'
import statistics, subprocess, sys, time
exe, account, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
def wall(cmd):
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0
ty, az, ratio = [], [], []
for _ in range(runs):
    t = wall([exe, "ls", "pools", "--account", account])
    a = wall(["az", "batch", "pool", "list", "-o", "json"])
    ty.append(t); az.append(a); ratio.append(t / a)
print("trainyard ls pools --account A: median %.1f ms (min %.1f)" % (1e3 * statistics.median(ty), 1e3 * min(ty)))
print("az batch pool list:             median %.1f ms (min %.1f)" % (1e3 * statistics.median(az), 1e3 * min(az)))
print("RESULT ls_pools_vs_az_ratio %.3f x (median of %d paired runs; target <= 0.1x)"
      % (statistics.median(ratio), runs))
PY

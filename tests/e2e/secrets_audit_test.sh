#!/usr/bin/env bash
# End to end: no secret of a Batch account reaches the disk, a command line or the screen.
#
#   secrets_audit_test.sh path/to/trainyard
#
# Three `trainyard emulator`s on 127.0.0.1, each with its own generated 64-byte key:
#   A  account tya, key on its command line (--key: test only; exactly its ps line is exempt);
#      reached through config.json with the key inline (auth.key, mode 0600): SharedKey.
#   B  account tyb, key from --key-file; reached through AZURE_BATCH_ACCOUNT/_ENDPOINT/_ACCESS_KEY.
#   C  account tyc, key from TRAINYARD_EMULATOR_KEY, with --identity; its key is the client
#      secret of a service principal (the emulator's token endpoint takes the account key as the
#      secret), configured with clientSecretEnv and with clientSecretCommand; an azureCli account
#      whose `az` (a stub) gets a real token from C and notes it; a managedIdentity account on C's
#      IMDS endpoint.
# trainyard then lists and tests the accounts, creates pools, runs tasks, tails their logs with
# `logs -f`, syncs every account and browses two of them in the TUI under tmux, while `ps` and the
# tmux screens are sampled. Finally every file under the sandbox (the data directory with its
# SQLite cache, -wal and -shm, HOME and XDG directories, trainyard's stdout and stderr), the ps
# samples and the screens are searched for each secret: raw, base64-decoded, base64-encoded, hex
# (lower and upper, of the text and of the decoded bytes), URL- and JSON-escaped, and any piece of
# 23 characters (15 decoded bytes) of those; plus anything shaped like an emulator token. A
# self-check first proves that the searcher finds planted secrets. Every wait is bounded.
set -uo pipefail

BIN=${1:?usage: secrets_audit_test.sh path/to/trainyard}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
SELF=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")

# Start from an empty environment: nothing of the user's, and no secret on any command line
# (secrets are exported from here on, never passed as `env VAR=...` arguments).
if [[ -z ${TY_AUDIT_CLEAN:-} ]]; then
  exec env -i TY_AUDIT_CLEAN=1 "PATH=/usr/local/bin:/usr/bin:/bin" "LANG=C.UTF-8" \
    "LC_ALL=C.UTF-8" bash "$SELF" "$BIN"
fi

TMP=$(mktemp -d /tmp/ty-secrets.XXXXXX)
chmod 700 "$TMP"
SEC=$TMP/secrets   # the test's own copies of the secrets: never searched
EMU=$TMP/emu       # the emulators' output (their export lines hold keys) and sandboxes: the service's
DATA=$TMP/data     # trainyard's data directory
OUT=$TMP/out       # trainyard's stdout and stderr, per command
PS_DIR=$TMP/ps     # ps samples
SCR=$TMP/screens   # tmux captures
CFG=$TMP/config/trainyard/config.json
SOCK=ty-sec-$$
STEP="setup"
EMU_PIDS=()
BG_PIDS=()
declare -A EMU_PID EP
T0=$SECONDS

mkdir -p "$SEC" "$EMU/tmp" "$DATA" "$OUT" "$PS_DIR" "$SCR" "$TMP/config/trainyard" "$TMP/home" \
  "$TMP/xdg" "$TMP/state" "$TMP/cache" "$TMP/tmp" "$TMP/bin"
export HOME=$TMP/home XDG_CONFIG_HOME=$TMP/config XDG_DATA_HOME=$TMP/xdg XDG_STATE_HOME=$TMP/state
export XDG_CACHE_HOME=$TMP/cache TMPDIR=$TMP/tmp TERM=xterm-256color TRAINYARD_CPU_SLOTS=2
export NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost

tm() { tmux -L "$SOCK" -f /dev/null "$@"; }

cleanup() {
  local p
  tm kill-server 2>/dev/null
  for p in "${BG_PIDS[@]}" "${EMU_PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
  for p in "${EMU_PIDS[@]}"; do
    for _ in $(seq 30); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$p" 2>/dev/null
  done
  # Anything else of ours still running (supervisors of emulator tasks, a stray trainyard).
  for p in /proc/[0-9]*; do
    [[ ${p#/proc/} == "$$" ]] && continue
    tr '\0' ' ' 2>/dev/null <"$p/cmdline" | grep -q -- "$TMP" && kill -TERM "${p#/proc/}" 2>/dev/null
  done
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fail() {
  echo "FAIL [$STEP] ($((SECONDS - T0)) s): $*" >&2
  exit 1
}
pass() { echo "ok   [$STEP] ($((SECONDS - T0)) s) $*"; }

# ty NAME ARGS...: trainyard with ARGS, 30 s at most; output in $OUT/NAME.{out,err}.
ty() {
  local name=$1
  shift
  timeout 30 "$BIN" --data-dir "$DATA" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err" </dev/null
}
# must NAME ARGS...: ty, failing the test when it fails.
must() {
  ty "$@" || fail "trainyard ${*:2} exited $?: $(tail -c 600 "$OUT/$1.err") $(tail -c 300 "$OUT/$1.out")"
}

# A 64-byte key, base64, generated without any argument naming it.
new_key() { python3 -c 'import base64, os; print(base64.b64encode(os.urandom(64)).decode())'; }

# --- the searcher -------------------------------------------------------------------------------
# search.py SECRETS_DIR EXEMPT_PID ROOT...: prints one line per finding (never the secret itself),
# then "searched F files, B bytes"; exits 1 when something was found.
write_searcher() {
  cat >"$TMP/search.py" <<'PY'
import base64, binascii, json, os, re, sys, urllib.parse

secrets_dir, exempt_pid, roots = sys.argv[1], sys.argv[2], sys.argv[3:]
secrets = {}
for name in sorted(os.listdir(secrets_dir)):
    path = os.path.join(secrets_dir, name)
    if name.endswith(".secret"):
        secrets[name[:-7]] = open(path).read().strip()
    elif name == "tokens":  # one a line: what the az stub was given
        for i, line in enumerate(open(path).read().split()):
            secrets[f"az-token-{i}"] = line

def forms(s):
    raw = s.encode()
    out = {
        "raw": raw, "hex": raw.hex().encode(), "HEX": raw.hex().upper().encode(),
        "base64": base64.b64encode(raw), "url": urllib.parse.quote(s, safe="").encode(),
        "json": json.dumps(s)[1:-1].encode(),
    }
    try:
        dec = base64.b64decode(s, validate=True)
        if len(dec) >= 16:
            out.update({"decoded": dec, "decoded-hex": dec.hex().encode(),
                        "decoded-HEX": dec.hex().upper().encode(),
                        "decoded-base64url": base64.urlsafe_b64encode(dec).rstrip(b"=")})
    except binascii.Error:
        pass
    return out

# Every piece of 2L-1 bytes of a form holds one of its pieces of L bytes that start at a multiple
# of L: looking for those finds any leak of 23 characters (15 decoded bytes) or more.
needles = []
for name, s in secrets.items():
    for form, b in forms(s).items():
        size = 8 if form == "decoded" else 12
        for at in range(0, max(1, len(b) - size + 1), size):
            needles.append((b[at:at + size], name, form))
        needles.append((b, name, form))
token_shape = re.compile(rb"ty\.[0-9a-f]{64}")

findings, files, total = [], 0, 0
def scan(path, data, where=""):
    global files, total
    files += 1
    total += len(data)
    seen = set()
    for needle, name, form in needles:
        at = data.find(needle)
        if at >= 0 and (name, form) not in seen:
            seen.add((name, form))
            findings.append(f"{path}{where}: {name} ({form}) at byte {at}")
    m = token_shape.search(data)
    if m:
        findings.append(f"{path}{where}: an emulator bearer token at byte {m.start()}")

for root in roots:
    paths = [root] if os.path.isfile(root) else [
        os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs]
    for path in sorted(paths):
        if not os.path.isfile(path) or os.path.islink(path):
            continue
        try:
            data = open(path, "rb").read()
        except OSError as e:
            findings.append(f"{path}: unreadable ({e})")
            continue
        if "/ps/" in path:  # "PID ARGS" lines; the emulator's own --key line alone is exempt
            kept = [l for l in data.split(b"\n") if l.split(b" ", 1)[0] != exempt_pid.encode()]
            data = b"\n".join(kept)
        scan(path, data)
for f in findings:
    print("FOUND " + f)
print(f"searched {files} files, {total} bytes for {len(secrets)} secrets in {len(needles)} pieces")
sys.exit(1 if findings else 0)
PY
}

self_check() {
  STEP="self-check"
  local d=$TMP/selfcheck
  mkdir -p "$d/plain" "$d/ps" "$d/clean/ps"
  python3 - "$SEC" "$d" <<'PY'
import base64, os, sys
sec, d = sys.argv[1], sys.argv[2]
ka = open(os.path.join(sec, "key-a.secret")).read().strip()
kc = open(os.path.join(sec, "key-c.secret")).read().strip()
dec = base64.b64decode(ka)
open(f"{d}/plain/cache.db-wal", "wb").write(os.urandom(500) + ka[10:40].encode() + os.urandom(500))
open(f"{d}/plain/blob", "wb").write(b"x" * 100 + dec[20:40] + b"y")
open(f"{d}/plain/hex.log", "wb").write(b"key=" + dec.hex().upper().encode()[:40] + b"\n")
open(f"{d}/plain/form.txt", "wb").write(b"client_secret=" + base64.b64encode(kc.encode()) + b"\n")
open(f"{d}/plain/token.txt", "wb").write(b"Bearer ty." + b"ab" * 32 + b"\n")
ps = f"4242 trainyard emulator --key {ka}\n4243 trainyard emulator --key {ka}\n"
open(f"{d}/ps/sample", "w").write(ps)
open(f"{d}/clean/ps/sample", "w").write("4242 trainyard emulator --key " + ka + "\n1 init\n")
PY
  local out
  out=$(python3 "$TMP/search.py" "$SEC" 4242 "$d/plain" "$d/ps")
  local want
  for want in "cache.db-wal: key-a (raw)" "blob: key-a (decoded)" "hex.log: key-a (decoded-HEX)" \
    "form.txt: key-c (base64)" "token.txt: an emulator bearer token" "ps/sample: key-a (raw)"; do
    grep -qF -- "$want" <<<"$out" || fail "the searcher missed a planted secret ($want): $out"
  done
  out=$(python3 "$TMP/search.py" "$SEC" 4242 "$d/clean") ||
    fail "the searcher did not exempt exactly the emulator's ps line: $out"
  rm -rf "$d"
  pass "the searcher finds planted secrets (raw, decoded, HEX, base64, token, ps) and exempts only the emulator's line"
}

# --- emulators and configuration -----------------------------------------------------------------

# start_emulator LETTER ACCOUNT ARGS...: sets EMU_PID[LETTER]; wait_emulator sets EP[LETTER].
start_emulator() {
  local letter=$1 account=$2
  shift 2
  TMPDIR=$EMU/tmp "$BIN" emulator --port 0 --account "$account" --node-step-ms 50 "$@" \
    >"$EMU/$letter.out" 2>"$EMU/$letter.err" </dev/null &
  EMU_PIDS+=($!)
  EMU_PID[$letter]=$!
}
wait_emulator() {
  local letter=$1 deadline=$((SECONDS + 15)) ep
  while ((SECONDS < deadline)); do
    ep=$(sed -n 's/^export AZURE_BATCH_ENDPOINT=//p' "$EMU/$letter.out" 2>/dev/null | tr -d "\"'")
    [[ -n $ep ]] && break
    kill -0 "${EMU_PID[$letter]}" 2>/dev/null || fail "emulator $letter exited: $(cat "$EMU/$letter.err")"
    sleep 0.1
  done
  [[ -n $ep ]] || fail "emulator $letter printed no endpoint within 15 s"
  EP[$letter]=$ep
}

setup() {
  STEP="setup"
  command -v tmux >/dev/null || fail "tmux is not installed"
  command -v python3 >/dev/null || fail "python3 is not installed"
  [[ -x $BIN ]] || fail "no executable at $BIN"
  umask 077
  new_key >"$SEC/key-a.secret"
  new_key >"$SEC/key-b.secret"
  new_key >"$SEC/key-c.secret"
  cp "$SEC/key-b.secret" "$EMU/key-b"
  KA=$(<"$SEC/key-a.secret")
  KB=$(<"$SEC/key-b.secret")
  KC=$(<"$SEC/key-c.secret")
  write_searcher
  self_check

  STEP="emulators"
  start_emulator A tya --key "$KA"
  start_emulator B tyb --key-file "$EMU/key-b"
  TRAINYARD_EMULATOR_KEY=$KC start_emulator C tyc --identity
  wait_emulator A
  wait_emulator B
  wait_emulator C
  pass "emulators: A ${EP[A]} (--key), B ${EP[B]} (--key-file), C ${EP[C]} (TRAINYARD_EMULATOR_KEY)"

  STEP="config"
  # The az stub: a token from C's endpoint with C's key as client secret, noted for the searcher.
  cat >"$TMP/bin/az" <<EOF
#!/usr/bin/env python3
import json, sys, time, urllib.parse, urllib.request
secret = open("$SEC/key-c.secret").read().strip()
body = urllib.parse.urlencode({"grant_type": "client_credentials", "client_id": "ty-cli",
                               "client_secret": secret, "scope": "https://batch.core.windows.net/.default"})
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
reply = json.load(opener.open("${EP[C]}/ty-tenant/oauth2/v2.0/token", body.encode(), timeout=10))
token = reply["access_token"]
with open("$SEC/tokens", "a") as f:
    f.write(token + "\n")
expires = int(time.time()) + 3600
print(json.dumps({"accessToken": token, "expiresOn": time.strftime("%Y-%m-%d %H:%M:%S.000000",
                  time.localtime(expires)), "expires_on": expires, "tokenType": "Bearer",
                  "subscription": "00000000-0000-0000-0000-000000000000", "tenant": "ty-tenant"}))
EOF
  chmod 700 "$TMP/bin/az"
  python3 - "$SEC" "$CFG" "${EP[A]}" "${EP[C]}" "$TMP/bin/az" <<'PY'
import json, os, sys
sec, cfg, ep_a, ep_c, az = sys.argv[1:]
ka = open(os.path.join(sec, "key-a.secret")).read().strip()
sp = lambda: {"type": "servicePrincipal", "tenantId": "ty-tenant", "clientId": "ty-client",
              "authority": ep_c}
accounts = [
    {"name": "tya", "kind": "emulator", "endpoint": ep_a, "auth": {"type": "sharedKey", "key": ka}},
    {"name": "tyc-sp", "kind": "emulator", "endpoint": ep_c,
     "auth": dict(sp(), clientSecretEnv="TY_SP_SECRET")},
    {"name": "tyc-spcmd", "kind": "emulator", "endpoint": ep_c,
     "auth": dict(sp(), clientSecretCommand="cat " + os.path.join(sec, "key-c.secret"))},
    {"name": "tyc-cli", "kind": "emulator", "endpoint": ep_c, "auth": {"type": "azureCli", "azPath": az}},
    {"name": "tyc-mi", "kind": "emulator", "endpoint": ep_c,
     "auth": {"type": "managedIdentity", "imdsEndpoint": ep_c + "/metadata/identity/oauth2/token"}},
]
fd = os.open(cfg, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
with os.fdopen(fd, "w") as f:
    json.dump({"version": 1, "poll": {"focusSeconds": 0.5, "backgroundSeconds": 5},
               "accounts": accounts}, f, indent=2)
PY
  [[ -f $CFG ]] || fail "could not write $CFG"
  export AZURE_BATCH_ACCOUNT=tyb AZURE_BATCH_ENDPOINT=${EP[B]} AZURE_BATCH_ACCESS_KEY=$KB
  export TY_SP_SECRET=$KC AZURE_CLIENT_SECRET=$KC AZURE_TENANT_ID=ty-tenant AZURE_CLIENT_ID=ty-client
  pass "config.json (0600): tya inline key, tyc-sp clientSecretEnv, tyc-spcmd clientSecretCommand, tyc-cli az, tyc-mi; env: tyb"
}

# --- samplers ---------------------------------------------------------------------------------------

# Every 0.1 s: `ps` of every process, and each tmux pane's screen.
start_samplers() {
  (
    i=0
    while :; do
      ps -eww -o pid=,args= 2>/dev/null | sed 's/^ *//' >"$PS_DIR/$i"
      i=$((i + 1))
      sleep 0.1
    done
  ) &
  BG_PIDS+=($!)
  (
    i=0
    while :; do
      tm capture-pane -p -t "=tui:" >"$SCR/$i" 2>/dev/null || rm -f "$SCR/$i"
      i=$((i + 1))
      sleep 0.3
    done
  ) &
  BG_PIDS+=($!)
}

# --- what a user does ---------------------------------------------------------------------------

work() {
  STEP="accounts"
  must accounts-ls accounts ls --json
  local a
  for a in tya tyb tyc-sp tyc-spcmd tyc-cli tyc-mi; do
    grep -q "\"$a\"" "$OUT/accounts-ls.out" || fail "accounts ls --json does not list $a: $(cat "$OUT/accounts-ls.out")"
  done
  must accounts-test accounts test
  pass "accounts ls and test: all six accounts authenticate"

  STEP="pools"
  local pool='{"id": "POOL", "vmSize": "standard_d2s_v3", "targetDedicatedNodes": 1, "taskSlotsPerNode": 4,
  "virtualMachineConfiguration": {"imageReference": {"publisher": "canonical",
  "offer": "0001-com-ubuntu-server-jammy", "sku": "22_04-lts", "version": "latest"},
  "nodeAgentSKUId": "batch.node.ubuntu 22.04"}}'
  for a in tya tyb tyc-sp tyc-cli; do
    printf '%s\n' "${pool/POOL/p-$a}" >"$TMP/pool-$a.json"
    must "pool-$a" pool create --account "$a" --json "$TMP/pool-$a.json"
  done
  pass "pools created on tya (SharedKey, config), tyb (SharedKey, env), tyc (service principal, az token)"

  STEP="run"
  # shellcheck disable=SC2016 # expanded by the task's shell
  local task='for i in 1 2 3 4 5 6 7 8 9 10; do echo "step $i loss=0.$((9 - i / 2))"; sleep 0.4; done; echo done'
  for a in tya tyb tyc-sp tyc-cli; do
    must "run-$a" run --account "$a" --pool "p-$a" --job "j-$a" --id t1 -- sh -c "$task"
  done
  pass "a task runs on each"

  STEP="tui"
  tm new-session -d -s tui -x 160 -y 48 \
    "$(printf '%q ' "$BIN" --data-dir "$DATA" --account tya); exec sleep 300" ||
    fail "tmux new-session failed"

  STEP="logs -f"
  local pids=()
  for a in tya tyb tyc-sp tyc-cli; do
    ty "logs-$a" logs --account "$a" -f "j-$a/t1" &
    pids+=($!)
  done
  local p rc=0
  for p in "${pids[@]}"; do wait "$p" || rc=$?; done
  ((rc == 0)) || fail "a logs -f exited $rc: $(tail -c 400 "$OUT"/logs-*.err)"
  for a in tya tyb tyc-sp tyc-cli; do
    grep -q '^done$' "$OUT/logs-$a.out" || fail "logs -f on $a did not show the whole log: $(cat "$OUT/logs-$a.out")"
  done
  pass "logs --account A -f followed each task to its end"

  STEP="tui"
  local deadline=$((SECONDS + 15))
  until tm capture-pane -p -t =tui: 2>/dev/null | grep -q 'j-tya'; do
    ((SECONDS < deadline)) || fail "the TUI on tya shows no job j-tya in 15 s: $(tm capture-pane -p -t =tui:)"
    sleep 0.2
  done
  tm send-keys -t =tui: Enter
  sleep 1.5
  tm send-keys -t =tui: Enter
  sleep 1.5
  tm send-keys -t =tui: Escape Escape : a c c o u n t s Enter
  sleep 1.5
  tm send-keys -t =tui: / t y c - s p Enter
  sleep 0.5
  tm send-keys -t =tui: Enter
  sleep 2
  tm capture-pane -p -t =tui: >"$SCR/last"
  tm send-keys -t =tui: : q Enter
  pass "TUI browsed tya (jobs, tasks, log) and tyc-sp for a few seconds"

  STEP="sync"
  for a in tya tyb tyc-sp tyc-spcmd tyc-cli tyc-mi; do
    must "sync-$a" sync --account "$a"
    grep -q "synced $a" "$OUT/sync-$a.out" || fail "sync --account $a printed: $(cat "$OUT/sync-$a.out")"
  done
  must ls-tasks ls tasks --account tya --job j-tya --offline --json
  pass "sync of every account; ls tasks --offline"
}

# --- the audit ---------------------------------------------------------------------------------

audit() {
  STEP="audit"
  local p
  for p in "${BG_PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  BG_PIDS=()
  tm kill-server 2>/dev/null
  # What was sampled must cover what ran, or a clean result means nothing.
  local samples screens
  samples=$(find "$PS_DIR" -type f | wc -l)
  screens=$(find "$SCR" -type f -size +0 | wc -l)
  ((samples >= 20)) || fail "only $samples ps samples"
  ((screens >= 5)) || fail "only $screens tmux screens"
  grep -lq -- "logs --account tya -f" "$PS_DIR"/* || fail "no ps sample shows a logs -f process"
  grep -lq -- "--data-dir $DATA --account tya" "$PS_DIR"/* || fail "no ps sample shows the TUI"
  grep -lq -- "$BIN emulator" "$PS_DIR"/* || fail "no ps sample shows an emulator"
  grep -q 'j-tya' "$SCR"/* || fail "no screen shows the TUI's jobs"
  [[ -s $DATA/cache.db ]] || fail "no cache.db in the data directory"
  [[ -s $SEC/tokens ]] || fail "the az stub was never asked for a token"
  # Everything in the sandbox but the test's own secrets, the emulators (the service side) and
  # config.json (where the user put the inline key).
  local roots=() r
  for r in "$TMP"/*; do
    case $r in "$SEC" | "$EMU" | "$TMP/config" | "$TMP/search.py" | "$TMP/bin") continue ;; esac
    roots+=("$r")
  done
  find "$TMP/config" -type f ! -path "$CFG" -print0 | while IFS= read -r -d '' f; do echo "$f"; done >"$TMP/config-others"
  while IFS= read -r r; do roots+=("$r"); done <"$TMP/config-others"
  rm -f "$TMP/config-others"
  local out
  out=$(python3 "$TMP/search.py" "$SEC" "${EMU_PID[A]}" "${roots[@]}")
  local rc=$?
  echo "  $(tail -n1 <<<"$out"); $samples ps samples, $screens screens; data dir: $(cd "$DATA" && find . -type f | sort | tr '\n' ' ')"
  ((rc == 0)) || fail "secrets found:"$'\n'"$(grep '^FOUND' <<<"$out" | sed "s|$TMP|\$TMP|g")"
  pass "no key, client secret or token in the data directory, files, ps samples or screens"
}

setup
start_samplers
work
audit
echo "PASS: e2e_secrets_audit ($((SECONDS - T0)) s)"

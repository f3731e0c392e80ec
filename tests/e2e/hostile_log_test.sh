#!/usr/bin/env bash
# End to end: a local task whose output is hostile to terminals, viewed in trainyard under tmux.
#
#   hostile_log_test.sh path/to/trainyard
#
# The task writes window-title OSCs (0 and 2, ended by BEL and by ST), OSC 52 clipboard sets,
# OSC 8 links, cursor movement, screen clears and resets, DCS/APC/PM/SOS strings, terminal
# queries, 8-bit and UTF-8-encoded C1 controls, bidi overrides and invalid UTF-8.
#
# 1. Control: a plain `cat` of those bytes in a tmux pane (set-clipboard on, allow-rename on,
#    set-titles on) must change the pane title, the window name, the screen, and create a paste
#    buffer holding the marker. If tmux here cannot show that, the test fails: passing would prove
#    nothing.
# 2. On a fresh tmux server with the same options, the same log in trainyard's TUI (Tasks pane,
#    task detail, the log view of stdout and stderr) and `trainyard logs` printed to a pane: every
#    line shows up, in order, with inert placeholders where the escapes were; the pane title, the
#    window name, the paste buffers and the TUI frame (crumbs, pane title, hint and status lines)
#    stay as they were. Every wait is bounded.
set -uo pipefail

BIN=${1:?usage: hostile_log_test.sh path/to/trainyard}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

TMP=$(mktemp -d /tmp/ty-hostile.XXXXXX)
DATA=$TMP/data
CONF=$TMP/tmux.conf
LOG=$TMP/hostile.log
SOCK=""
STEP="setup"
TARGET=""
JOB=hx
TASK=hostile
COLS=200
ROWS=50

# Everything trainyard sees: no variable, config or data of the user's.
TY_ENV=(env -i "PATH=/usr/local/bin:/usr/bin:/bin" "HOME=$TMP/home" "XDG_CONFIG_HOME=$TMP/config"
  "XDG_DATA_HOME=$TMP/xdg" "XDG_STATE_HOME=$TMP/state" "XDG_CACHE_HOME=$TMP/cache"
  "TMPDIR=$TMP" "LANG=C.UTF-8" "LC_ALL=C.UTF-8" "TERM=xterm-256color" "TRAINYARD_CPU_SLOTS=1")
ty() { timeout 30 "${TY_ENV[@]}" "$BIN" --data-dir "$DATA" "$@"; }
# A shell command line running trainyard with ARGS in that environment.
ty_cmd() {
  local out
  printf -v out '%q ' "${TY_ENV[@]}" "$BIN" --data-dir "$DATA" "$@"
  printf '%s' "$out"
}

tm() { tmux -L "$SOCK" -f "$CONF" "$@"; }

# The current screen of the target pane as text ('' once it is gone).
screen() { tm capture-pane -p -t "$TARGET" 2>/dev/null; }

# Pids of processes whose command line names our data directory (the TUI, supervisors).
our_pids() {
  local p cmd
  for p in /proc/[0-9]*; do
    cmd=$(tr '\0' ' ' 2>/dev/null <"$p/cmdline") || continue
    [[ $cmd == *"$TMP"* && ${p#/proc/} != "$$" && ${p#/proc/} != "$BASHPID" ]] && echo "${p#/proc/}"
  done
}

cleanup() {
  local s p
  for s in ty-hx-ctl-$$ ty-hx-$$; do tmux -L "$s" -f /dev/null kill-server 2>/dev/null; done
  for p in $(our_pids); do kill -TERM "$p" 2>/dev/null; done
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fail() {
  echo "FAIL [$STEP]: $*" >&2
  if [[ -n $SOCK && -n $TARGET ]]; then
    echo "----- last screen ($TARGET) -----" >&2
    screen | cat -v >&2 || true
    echo "-----------------------" >&2
  fi
  exit 1
}
pass() { echo "ok   [$STEP] $*"; }

# wait_for REGEX SECONDS: polls the target pane until a line matches (extended regex).
wait_for() {
  local re=$1 deadline=$((SECONDS + $2))
  while ((SECONDS < deadline)); do
    screen | grep -Eq -- "$re" && return 0
    sleep 0.2
  done
  fail "timed out after $2 s waiting for /$re/"
}

# wait_file PATH SECONDS
wait_file() {
  local deadline=$((SECONDS + $2))
  while [[ ! -e $1 ]] && ((SECONDS < deadline)); do sleep 0.1; done
  [[ -e $1 ]]
}

pane_title() { tm display-message -p -t "$TARGET" '#{pane_title}'; }
window_name() { tm display-message -p -t "$TARGET" '#{window_name}'; }
buffers() { tm list-buffers -F '#{buffer_name}' 2>/dev/null; }

# --- the hostile log ---------------------------------------------------------------------------
# One vector a line: "hxNN-what: <bytes> hxNN-end". The markers only ever travel base64-encoded.
M1=HXCLIPBEL$$
M2=HXCLIPST$$
M3=HXCLIPDCS$$
b64() { printf '%s' "$1" | base64 | tr -d '\n'; }
VEC=()
vec() { VEC+=("$1"); }
vec $'hx01-osc0-bel: \e]0;HX-T-OSC0-BEL\a hx01-end'
vec $'hx02-osc2-st: \e]2;HX-T-OSC2-ST\e\\ hx02-end'
vec $'hx03-osc0-st: \e]0;HX-T-OSC0-ST\e\\ hx03-end'
vec $'hx04-osc2-bel: \e]2;HX-T-OSC2-BEL\a hx04-end'
vec $'hx05-osc52-bel: \e]52;c;'"$(b64 "$M1")"$'\a hx05-end'
vec $'hx06-osc52-st: \e]52;c;'"$(b64 "$M2")"$'\e\\ hx06-end'
vec $'hx07-osc8: \e]8;;http://hx.invalid/x\e\\click\e]8;;\e\\ hx07-end'
vec $'hx08-cup: \e[1;1HHX-CUP\e[20;30H\e[H hx08-end'
vec $'hx09-cuu-cud-cuf-cub: \e[5A\e[3B\e[7C\e[9D\e[2F\e[G hx09-end'
vec $'hx10-clear: \e[2J\e[3J\e[J\e[1J hx10-end'
vec $'hx11-ris: \ec hx11-end'
vec $'hx12-altscreen: \e7\e[?1049h\e[?25l\e[?1000h\e8 hx12-end'
vec $'hx13-dcs: \eP1$r0m\e\\ \ePtmux;\e\e]52;c;'"$(b64 "$M3")"$'\a\e\\ hx13-end'
vec $'hx14-apc-pm-sos: \e_apc\e\\ \e^pm\e\\ \eXsos\e\\ hx14-end'
vec $'hx15-queries: \e[6n\e[c\e[>c\e]10;?\a\e[21t hx15-end'
vec $'hx16-c1-8bit: \x9b2J \x9d0;HX-T-C1\x07 \x90q\x9c \x9c hx16-end'
vec $'hx17-c1-utf8: \xc2\x9b2J \xc2\x9d2;HX-T-C1U\xc2\x9c \xc2\x85 hx17-end'
vec $'hx18-bidi: a\xe2\x80\xaeRLO b\xe2\x81\xa6LRI c\xe2\x80\xabRLE d\xe2\x81\xa9PDI e\xe2\x80\x8fRLM hx18-end'
vec $'hx19-bad-utf8: \xff\xfe \xc0\xaf \xed\xa0\x80 \xf4\x90\x80\x80 \xe2\x80 hx19-end'
vec $'hx20-osc-bidi: \e]2;\xe2\x80\xaeHX-T-BIDI\a hx20-end'
vec $'hx21-tmux-rename: \ekHX-WIN\e\\ hx21-end'
vec $'hx22-unterminated: \e]2;HX-T-UNTERMINATED hx22-end'
N=${#VEC[@]}
write_log() {
  local v
  printf 'hx00-begin: plain text\n'
  for v in "${VEC[@]}"; do printf '%s\n' "$v"; done
  printf 'hx99-last: plain text\n'
}

# Pane options: what makes a terminal's escapes reach tmux's own state.
write_conf() {
  cat >"$CONF" <<'EOF'
set -g set-clipboard on
set -g allow-rename on
set -g set-titles on
set -g automatic-rename off
set -g history-limit 5000
set -g escape-time 10
EOF
  # Newer tmux: ask for nothing before accepting a clipboard set; no passthrough either way.
  if tmux -L "ty-hx-probe-$$" -f /dev/null start-server \; set -g allow-passthrough off 2>/dev/null; then
    echo 'set -g allow-passthrough off' >>"$CONF"
  fi
  tmux -L "ty-hx-probe-$$" -f /dev/null kill-server 2>/dev/null
}

setup() {
  STEP="setup"
  command -v tmux >/dev/null || fail "tmux is not installed"
  [[ -x $BIN ]] || fail "no executable at $BIN"
  mkdir -p "$DATA" "$TMP/home" "$TMP/config" "$TMP/xdg" "$TMP/vec"
  write_conf
  write_log >"$LOG"
  local i
  for i in "${!VEC[@]}"; do printf '%s\n' "${VEC[$i]}" >"$TMP/vec/$((i + 1))"; done
  pass "$N hostile vectors, $(wc -c <"$LOG") bytes; $(tmux -V)"
}

# --- 1. control: raw bytes do reach tmux -------------------------------------------------------

# raw_window NAME FILE: a window that cats FILE once go.NAME exists, then touches done.NAME.
raw_window() {
  local cmd
  printf -v cmd 'while [ ! -e %q ]; do sleep 0.05; done; cat %q; : >%q; exec sleep 120' \
    "$TMP/go.$1" "$2" "$TMP/done.$1"
  TARGET=$(tm new-window -d -P -F '#{pane_id}' -n "w$1" "$cmd") || fail "tmux new-window failed"
  tm select-pane -t "$TARGET" -T HX-ORIG-TITLE
  : >"$TMP/go.$1"
  wait_file "$TMP/done.$1" 10 || fail "cat did not finish in 10 s"
  sleep 0.3
}

control() {
  STEP="control"
  SOCK=ty-hx-ctl-$$
  tm new-session -d -s ctl -n base -x "$COLS" -y "$ROWS" "exec sleep 300" || fail "tmux new-session failed"
  local why=()
  raw_window 1 "$TMP/vec/1"
  [[ $(pane_title) == HX-T-OSC0-BEL ]] || why+=("OSC 0 + BEL left the pane title '$(pane_title)'")
  raw_window 2 "$TMP/vec/2"
  [[ $(pane_title) == HX-T-OSC2-ST ]] || why+=("OSC 2 + ST left the pane title '$(pane_title)'")
  raw_window 3 "$TMP/vec/5"
  tm show-buffer 2>/dev/null | grep -q "$M1" || why+=("OSC 52 + BEL made no paste buffer with the marker")
  raw_window 4 "$TMP/vec/6"
  tm show-buffer 2>/dev/null | grep -q "$M2" || why+=("OSC 52 + ST made no paste buffer with the marker")
  raw_window 5 "$TMP/vec/21"
  [[ $(window_name) == HX-WIN ]] || why+=("ESC k left the window name '$(window_name)'")
  printf 'HX-ROW-A\n\e[2J\e[1;1HZZ\n' >"$TMP/cup"
  raw_window 6 "$TMP/cup"
  local top
  top=$(screen | head -1)
  if [[ $top != ZZ* ]] || screen | grep -q HX-ROW-A; then
    why+=("CUP/ED did not move the cursor and clear (top line '$top')")
  fi
  local before
  before=$(buffers | wc -l)
  raw_window 7 "$LOG"
  [[ $(pane_title) != HX-ORIG-TITLE ]] || why+=("the whole log left the pane title alone")
  (($(buffers | wc -l) > before)) || why+=("the whole log made no paste buffer")
  if ((${#why[@]})); then
    printf '  %s\n' "${why[@]}" >&2
    fail "$(tmux -V) here cannot demonstrate terminal escape effects; this test cannot prove anything"
  fi
  pass "raw cat: OSC 0/2 (BEL, ST) set the pane title, OSC 52 (BEL, ST) fills a paste buffer, ESC k renames, CUP/ED move and clear"
  tm kill-server 2>/dev/null
  SOCK=""
  TARGET=""
}

# --- 2. trainyard ------------------------------------------------------------------------------

run_task() {
  STEP="run"
  # The command line carries a title OSC too: it is shown in the Tasks and detail panes.
  local out
  # shellcheck disable=SC2016 # $0 is for sh -c
  out=$(ty run --job "$JOB" --id "$TASK" -- sh -c 'cat "$0"; cat "$0" >&2' "$LOG" $'\e]2;HX-T-ARGV\a' 2>&1) ||
    fail "trainyard run failed: $out"
  [[ $(tail -n1 <<<"$out") == "$JOB/$TASK" ]] || fail "run printed '$out', not $JOB/$TASK"
  ty wait "$JOB/$TASK" >/dev/null 2>&1 || fail "task $JOB/$TASK did not complete with 0 in 30 s"
  cmp -s "$LOG" "$DATA/runs/$JOB/$TASK/stdout.txt" ||
    fail "the task's stdout.txt is not the hostile log byte for byte"
  pass "task $JOB/$TASK completed; its stdout.txt is the hostile log"
}

# check_untouched WHAT: the pane title, window name and paste buffers are as set up.
check_untouched() {
  local t w b
  t=$(pane_title)
  w=$(window_name)
  b=$(buffers)
  [[ $t == HX-ORIG-TITLE ]] || fail "$1: the pane title became '$t'"
  [[ $w == hxwin ]] || fail "$1: the window name became '$w'"
  [[ -z $b ]] || fail "$1: a paste buffer appeared: $(tm show-buffer | head -c 200 | cat -v)"
}

# check_screen MODE FILE [HEADER_RE...]: the analysis of one capture, in python3.
#   MODE tui: the log rows are consecutive between the frame's two header rows and its two footer
#             rows; each HEADER_RE must match the row it is given for (top 2, then bottom 2).
#   MODE cli: the log rows are the first rows of the pane, followed by HX-LOGS-DONE.
#   MODE inert: only that no control, format or bidi character and no decoded marker is on screen.
check_screen() {
  python3 - "$N" "$@" <<'PY'
import re, sys
n = int(sys.argv[1]); mode = sys.argv[2]; path = sys.argv[3]; frame = sys.argv[4:]
rows = open(path, encoding="utf-8", errors="surrogateescape").read().split("\n")
if rows and rows[-1] == "":
    rows.pop()
problems = []
bad = re.compile("[\x00-\x08\x0b-\x1f\x7f\x80-\x9f\u200b-\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069\ufeff]|[\udc80-\udcff]")
for i, r in enumerate(rows):
    m = bad.search(r)
    if m:
        problems.append(f"row {i}: control/format character U+{ord(m.group()):04X} on screen: {r!r}")
    if "HXCLIP" in r:  # the clipboard markers only ever travel base64-encoded
        problems.append(f"row {i}: a decoded OSC 52 marker on screen: {r!r}")
if mode == "inert":
    for p in problems:
        print("  " + p)
    sys.exit(1 if problems else 0)
labels = ["hx00-begin"] + [f"hx{k:02d}-" for k in range(1, n + 1)] + ["hx99-last"]
where = []
for lab in labels:
    hits = [i for i, r in enumerate(rows) if lab in r]
    if len(hits) != 1:
        problems.append(f"{lab}: on {len(hits)} rows (want exactly 1)")
        where.append(None)
        continue
    i = hits[0]
    where.append(i)
    r = rows[i]
    k = lab[2:4]
    if lab not in ("hx00-begin", "hx99-last"):
        if not re.search(r"\^\[|\^[@-_?]|<U\+[0-9A-F]{4}>|\ufffd", r):
            problems.append(f"row {i}: no placeholder for {lab}: {r!r}")
        if k != "22" and not re.search(f"hx{k}-end\\s*(│\\s*)?$", r):
            problems.append(f"row {i}: {lab} does not end with hx{k}-end: {r!r}")
    if r.index(lab) > 2:
        problems.append(f"row {i}: {lab} does not start the row: {r!r}")
found = [w for w in where if w is not None]
if len(found) == len(labels) and found != list(range(found[0], found[0] + len(labels))):
    problems.append(f"log rows are not consecutive and in order: {found}")
if mode == "tui":
    top, bottom = frame[:2], frame[2:]
    for j, rx in enumerate(top):
        if j >= len(rows) or not re.search(rx, rows[j]):
            problems.append(f"frame row {j} does not match /{rx}/: {rows[j] if j < len(rows) else None!r}")
    for j, rx in enumerate(bottom):
        idx = len(rows) - len(bottom) + j
        if idx < 0 or not re.search(rx, rows[idx]):
            problems.append(f"frame row {idx} does not match /{rx}/: {rows[idx] if idx >= 0 else None!r}")
    if found and found[0] < len(top):
        problems.append("log rows overwrite the header rows")
    if found and found[-1] >= len(rows) - len(bottom) - 1:
        problems.append("log rows overwrite the footer rows")
    extra = [i for i, r in enumerate(rows)
             if i not in found and ("HX" in r or re.search(r"hx[0-9]", r))]
    if extra:
        problems.append(f"stray log text outside its rows: {[rows[i] for i in extra]}")
else:
    if found and found[0] != 0:
        problems.append(f"the first log row is row {found[0]}, not 0 (was the screen cleared or the cursor moved?)")
    done = [i for i, r in enumerate(rows) if r.strip() == "HX-LOGS-DONE"]
    if not found or done != [found[-1] + 1]:
        problems.append(f"HX-LOGS-DONE on rows {done}, want right after the last log row")
for p in problems:
    print("  " + p)
sys.exit(1 if problems else 0)
PY
}

tui() {
  STEP="tui"
  SOCK=ty-hx-$$
  # trainyard starts once the pane has its title: the terminal saves the title when the TUI
  # starts and restores it at exit, so a title set after the start would be undone at exit.
  TARGET=$(tm new-session -d -P -F '#{pane_id}' -s tui -n hxwin -x "$COLS" -y "$ROWS" \
    "while [ ! -e $(printf '%q' "$TMP/go.tui") ]; do sleep 0.05; done; $(ty_cmd --open tasks --job "$JOB"); echo \$? >$(printf '%q' "$TMP/tui.exit"); exec sleep 300") ||
    fail "tmux new-session failed"
  tm select-pane -t "$TARGET" -T HX-ORIG-TITLE
  : >"$TMP/go.tui"
  wait_for "Tasks · $JOB" 15
  wait_for "$TASK" 10
  wait_for 'completed' 10
  sleep 0.5
  check_untouched "Tasks pane"
  screen >"$TMP/tasks.txt"
  if ! grep -q 'HX-T-ARGV' "$TMP/tasks.txt" || grep -q $'\e' "$TMP/tasks.txt"; then
    fail "the Tasks pane does not show the command line's title OSC as text"
  fi
  pass "Tasks pane: the command line's OSC shows as text; title, window name, buffers untouched"

  STEP="tui detail"
  tm send-keys -t "$TARGET" d
  wait_for "Task · $JOB/$TASK" 5
  sleep 0.5
  check_untouched "detail pane"
  tm send-keys -t "$TARGET" q
  wait_for "Tasks · $JOB" 5
  pass "detail pane: title, window name, buffers untouched"

  local stream
  for stream in stdout stderr; do
    STEP="tui $stream"
    if [[ $stream == stdout ]]; then
      tm send-keys -t "$TARGET" Enter
      wait_for "Logs · $JOB/$TASK" 5
    else
      tm send-keys -t "$TARGET" e
      wait_for "$JOB.*$TASK.*stderr" 5
    fi
    wait_for 'hx99-last' 10
    sleep 1  # anything a raw escape would do to tmux is done by now
    check_untouched "log view ($stream)"
    screen >"$TMP/tui-$stream.txt"
    check_screen tui "$TMP/tui-$stream.txt" \
      "local.*jobs.*$JOB.*$TASK.*$stream" "Logs · $JOB/$TASK" '<f> follow.*<q>' 'data .*old' ||
      fail "the log view ($stream) is not intact"
    pass "log view of $stream: $((N + 2)) rows in order with placeholders; frame, title, window name, buffers untouched"
  done
  STEP="tui wrap"
  tm send-keys -t "$TARGET" w
  tm resize-window -t "$TARGET" -x 50 -y "$ROWS"
  wait_for 'hx99-last' 5
  sleep 1
  check_untouched "wrapped log view at 50 columns"
  screen >"$TMP/tui-wrap.txt"
  check_screen inert "$TMP/tui-wrap.txt" || fail "the wrapped log view is not inert"
  tm resize-window -t "$TARGET" -x "$COLS" -y "$ROWS"
  tm send-keys -t "$TARGET" w
  pass "wrapped at 50 columns: inert; title, window name, buffers untouched"
  STEP="tui quit"
  tm send-keys -t "$TARGET" q
  wait_for "Tasks · $JOB" 5
  tm send-keys -t "$TARGET" q
  wait_for "Jobs · local" 5
  tm send-keys -t "$TARGET" q
  wait_file "$TMP/tui.exit" 10 || fail "trainyard did not exit within 10 s of q"
  [[ $(cat "$TMP/tui.exit") == 0 ]] || fail "trainyard exited with status $(cat "$TMP/tui.exit")"
  check_untouched "after quitting"
  pass "quits with 0; title, window name, buffers untouched"
}

# go_window NAME CMD: a window of session tui that runs CMD once go.NAME exists, then prints
# HX-LOGS-DONE; its pane title is HX-ORIG-TITLE before CMD starts.
go_window() {
  local cmd
  printf -v cmd 'while [ ! -e %q ]; do sleep 0.05; done; %s; echo HX-LOGS-DONE; exec sleep 300' \
    "$TMP/go.$1" "$2"
  TARGET=$(tm new-window -d -P -F '#{pane_id}' -n "$1" "$cmd") || fail "tmux new-window failed"
  tm select-pane -t "$TARGET" -T HX-ORIG-TITLE
  : >"$TMP/go.$1"
}

cli_logs() {
  local stream
  for stream in stdout stderr; do
    STEP="logs $stream"
    local flag=() name="logs-$stream"
    [[ $stream == stderr ]] && flag=(--stderr)
    go_window "$name" "$(ty_cmd logs "${flag[@]}" "$JOB/$TASK")"
    wait_for '^HX-LOGS-DONE$' 15
    sleep 0.5
    screen >"$TMP/logs-$stream.txt"
    check_screen cli "$TMP/logs-$stream.txt" || fail "trainyard logs ($stream) output is not inert"
    [[ $(pane_title) == HX-ORIG-TITLE ]] || fail "the pane title became '$(pane_title)'"
    [[ $(window_name) == "$name" ]] || fail "the window name became '$(window_name)'"
    [[ -z $(buffers) ]] || fail "a paste buffer appeared: $(tm show-buffer | head -c 200 | cat -v)"
    pass "trainyard logs ${flag[*]:-}: $((N + 2)) rows in order from row 0 with placeholders; title, window name, buffers untouched"
  done
}

setup
control
run_task
tui
cli_logs
echo "PASS: e2e_hostile_log"

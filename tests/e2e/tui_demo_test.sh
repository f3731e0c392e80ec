#!/usr/bin/env bash
# End to end: the real trainyard binary in tmux, driven as a person would drive it.
#
#   tui_demo_test.sh path/to/trainyard
#
# Starts the TUI on a private tmux server with an empty data directory, starts the demo run from
# the "Start a run" form, watches it complete in the Tasks pane, reads its log, opens its detail
# charts, tries wrong keys and a tiny window, quits, and checks that nothing is left running.
set -uo pipefail

BIN=${1:?usage: tui_demo_test.sh path/to/trainyard}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DEMO="python3 $REPO/examples/train_demo.py --epochs 3 --delay 0.05"

# shellcheck source=tests/e2e/tmux_session.sh
source "$(dirname "${BASH_SOURCE[0]}")/tmux_session.sh" e2e

start_tui() {
  STEP="start"
  command -v tmux >/dev/null || fail "tmux is not installed"
  [[ -x $BIN ]] || fail "no executable at $BIN"
  mkdir -p "$DATA"
  local cmd
  cmd=$(printf 'cd %q && env TERM=xterm-256color TRAINYARD_CPU_SLOTS=1 %q --data-dir %q; echo $? >%q' \
    "$TMP" "$BIN" "$DATA" "$EXIT_FILE")
  tm new-session -d -s "$SESSION" -x 160 -y 48 "$cmd" || fail "tmux new-session failed"
  wait_for 'Jobs · local' 15
  wait_for 'no runs yet' 5
  pass "TUI opened on the Jobs pane"
}

submit_demo_run() {
  STEP="run form"
  keys r
  wait_for 'Start a run' 5
  wait_for 'train_demo\.py' 5
  keys C-e C-u
  keys -l "$DEMO"
  wait_for 'epochs 3 --delay 0\.05' 5
  keys Enter
  wait_for 'queued default/' 5
  pass "demo run submitted: $DEMO"
}

watch_task_complete() {
  STEP="tasks"
  wait_for '│ *default ' 10
  keys Enter
  wait_for 'Tasks · default' 5
  wait_for 'train_demo\.py' 10
  pass "task listed in the Tasks pane"
  wait_for 'completed +0( |│)' 120
  pass "task completed with exit code 0"
}

check_logs() {
  STEP="logs"
  keys Enter
  wait_for 'Logs · default/' 5
  wait_for 'val_accuracy' 10
  wait_for 'done in [0-9.]+s' 10
  pass "log pane shows val_accuracy and 'done in'"
  keys q
  wait_for 'Tasks · default' 5
}

check_detail() {
  STEP="detail"
  keys d
  wait_for 'Task · default/' 5
  wait_for 'state +completed' 5
  local deadline=$((SECONDS + 10))
  while ((SECONDS < deadline)); do
    screen | grep -qE 'loss · std(out|err) \(' && break
    sleep 0.2
  done
  if ! screen | grep -qE 'loss · std(out|err) \('; then
    screen | grep -q 'no metrics yet' &&
      fail "detail says 'no metrics yet': metric points are not parsed from stdout into the store"
    fail "no chart titled 'loss · stdout (…)' (or stderr) in the detail pane"
  fi
  pass "detail pane draws a 'loss · <stream> (…)' chart"
  keys q
  wait_for 'Tasks · default' 5
}

check_wrong_keys() {
  STEP="wrong keys"
  keys Z
  wait_for 'Z does nothing here' 5
  keys F12
  wait_for 'F12 does nothing here' 5
  keys : b o g u s Enter
  wait_for "unknown command ':bogus'" 5
  keys / z z z q q q
  wait_for 'no rows match the filter' 5
  keys Escape
  wait_for 'train_demo\.py' 5
  alive || fail "trainyard died on wrong keys"
  pass "wrong keys are refused with a message; filter with no match shows an empty table"
}

check_tiny_window() {
  STEP="tiny window"
  local size
  for size in 40x10 20x5 1x1 160x48; do
    tm resize-window -t "$SESSION" -x "${size%x*}" -y "${size#*x}" || fail "resize to $size failed"
    sleep 0.5
    keys j k '?' Escape
    sleep 0.3
    alive || fail "trainyard exited after resizing to $size"
  done
  tm resize-window -t "$SESSION" -x 40 -y 10
  wait_for 'Tasks' 5
  [[ $(screen | grep -c .) -ge 5 ]] || fail "at 40x10 fewer than 5 lines were drawn"
  pass "40x10 still draws: $(screen | head -2 | tail -1 | tr -s ' ')"
  tm resize-window -t "$SESSION" -x 160 -y 48
  wait_for 'Tasks · default' 5
  wait_for 'completed +0( |│)' 5
  pass "survives 40x10, 20x5 and 1x1 and redraws at 160x48"
}

quit_and_check() {
  STEP="quit"
  keys q  # in Tasks, a sub-pane, q goes back to Jobs
  wait_for 'Jobs · local' 5
  keys q
  local deadline=$((SECONDS + 10))
  while [[ ! -f $EXIT_FILE ]] && ((SECONDS < deadline)); do sleep 0.1; done
  [[ -f $EXIT_FILE ]] || fail "trainyard did not exit within 10 s of q"
  local rc
  rc=$(cat "$EXIT_FILE")
  [[ $rc == 0 ]] || fail "trainyard exited with status $rc"
  deadline=$((SECONDS + 5))
  while tm has-session -t "$SESSION" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.1; done
  tm has-session -t "$SESSION" 2>/dev/null && fail "the tmux pane is still open after quitting"
  deadline=$((SECONDS + 5))
  while [[ -n $(our_pids) ]] && ((SECONDS < deadline)); do sleep 0.2; done
  local left
  left=$(our_pids)
  [[ -z $left ]] || fail "processes of $DATA remain: $(for p in $left; do tr '\0' ' ' <"/proc/$p/cmdline"; echo; done)"
  pass "q exits with status 0; no trainyard process of the data dir remains"
}

# CLI cross-check: the store agrees with what the screen showed.
check_cli() {
  STEP="cli"
  local json
  json=$("$BIN" --data-dir "$DATA" ls tasks --json 2>&1) || fail "ls tasks failed: $json"
  grep -q '"completed"' <<<"$json" || fail "ls tasks --json has no completed task: $json"
  pass "trainyard ls tasks --json agrees"
}

start_tui
submit_demo_run
watch_task_complete
check_logs
check_detail
check_wrong_keys
check_tiny_window
quit_and_check
check_cli
echo "PASS: e2e_tui_demo"

#!/usr/bin/env bash
# End to end: the terminal floor in the real binary under tmux.
#
#   tui_terminal_floor_test.sh path/to/trainyard
#
# 1. LANG=C: the TUI draws in ASCII (borders `+-`, crumbs `>`), and no byte of a UTF-8 sequence
#    reaches the terminal. At 80 columns a long id is whole; a 50,000-character log line is cut
#    with `>`, `$` shows its end, and with wrap `G` reaches the lines after it.
# 2. Two windows on one data directory: the first polls the emulator's account; the second (its
#    status line says `polled by pid N`) opens a running task's log, and the log's line shows
#    there within a few poll intervals (the first follows it for the second).
# 3. A stopped endpoint (kill -STOP on the emulator): within poll.noAnswerSeconds (2 s here) and
#    a poll, the status line says `no answer from ENDPOINT for N s`; `R` says `refreshing…`;
#    after kill -CONT and `R`, it says `refreshed`.
set -uo pipefail

BIN=${1:?usage: tui_terminal_floor_test.sh path/to/trainyard}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

# shellcheck source=tests/e2e/tmux_session.sh
source "$(dirname "${BASH_SOURCE[0]}")/tmux_session.sh" floor

screen2() { tm capture-pane -p -t win2 2>/dev/null; }
keys2() { tm send-keys -t win2 "$@"; }
# wait_for2 REGEX SECONDS: the second window's screen matches within the time.
wait_for2() {
  local deadline=$((SECONDS + $2))
  while ((SECONDS < deadline)); do
    screen2 | grep -Eq "$1" && return 0
    sleep 0.2
  done
  echo "--- second window:"
  screen2
  fail "the second window never showed /$1/"
}

check_ascii() {
  STEP="LANG=C"
  mkdir -p "$DATA"
  local cmd
  cmd=$(printf 'env -u LANGUAGE LANG=C LC_ALL=C TERM=xterm %q --data-dir %q; echo $? >%q' \
    "$BIN" "$DATA" "$EXIT_FILE")
  tm new-session -d -s "$SESSION" -x 80 -y 24 "$cmd" || fail "tmux new-session failed"
  wait_for 'local > jobs' 15
  wait_for '\+ Jobs \| local -' 5
  LC_ALL=C grep -q '[^[:print:][:space:]]' <(tm capture-pane -p -e -t "$SESSION" |
    sed 's/\x1b\[[0-9;]*m//g') && fail "a byte that is not ASCII reached the terminal"
  pass "LANG=C draws borders and crumbs in ASCII, and nothing but ASCII"
  keys q
  tm kill-session -t "$SESSION" 2>/dev/null
  rm -f "$EXIT_FILE"
}

# A local run whose id is long and whose first line is 50,000 characters: at 80 columns the id is
# whole; in its log, wrap reaches the lines after the long one, and without wrap `$` shows its end.
check_long_line_and_id() {
  STEP="long line, long id"
  # shellcheck disable=SC2016  # the run's own shell expands them
  TRAINYARD_CPU_SLOTS=1 "$BIN" --data-dir "$DATA" run --job floor-local --id experiment-resnet-0002 \
    -- sh -c 'i=0; while [ $i -lt 5000 ]; do printf "abcdefghi "; i=$((i+1)); done; echo END1; echo line-two; echo last-line' \
    >/dev/null || fail "trainyard run failed"
  TRAINYARD_CPU_SLOTS=1 "$BIN" --data-dir "$DATA" wait floor-local/experiment-resnet-0002 >/dev/null ||
    fail "the run did not succeed"
  local cmd
  cmd=$(printf 'env TERM=xterm-256color TRAINYARD_CPU_SLOTS=1 %q --data-dir %q --open tasks --job floor-local; echo $? >%q' \
    "$BIN" "$DATA" "$EXIT_FILE")
  tm new-session -d -s "$SESSION" -x 80 -y 24 "$cmd" || fail "tmux new-session failed"
  wait_for '│experiment-resnet-0002 ' 15
  pass "at 80 columns the long id is whole"
  keys Enter
  wait_for 'abcdefghi abcdefghi.*>│' 10
  pass "a cut line ends in >"
  keys '$'
  wait_for '│<.*END1' 5
  pass "\$ scrolls to the end of the long line"
  keys 0 w G
  wait_for 'last-line' 5
  wait_for 'line-two' 5
  pass "with wrap, G reaches the lines after the 50,000-character one"
  keys q q q
  tm kill-session -t "$SESSION" 2>/dev/null
  rm -f "$EXIT_FILE"
}

start_talker() {
  start_emulator --seed-tasks 1 --node-step-ms 100
  printf '{ "poll": { "focusSeconds": 0.5, "noAnswerSeconds": 2 } }\n' >"$TMP/config.json"
  export TRAINYARD_CONFIG=$TMP/config.json
  "$BIN" --data-dir "$DATA" run --account emulator --pool seed-gpu --job floor --id talker \
    -- sh -c 'echo second-window-line; sleep 300' >/dev/null || fail "run on the emulator failed"
  pass "emulator serving, a task that prints one line and keeps running"
}

window() {  # window NAME ARGS...: a TUI on the account in a session of its own
  local name=$1 cmd
  shift
  cmd=$(printf 'env TERM=xterm-256color TRAINYARD_CONFIG=%q %q --data-dir %q --account emulator %s' \
    "$TMP/config.json" "$BIN" "$DATA" "$*")
  tm new-session -d -s "$name" -x 140 -y 30 "$cmd" || fail "tmux new-session $name failed"
}

check_second_window() {
  STEP="two windows"
  window "$SESSION" --open jobs
  wait_for 'Jobs · emulator' 15
  wait_for 'floor' 15
  window win2 --open tasks --job floor
  wait_for2 'Tasks · floor' 15
  wait_for2 'polled by pid [0-9]+' 15
  wait_for2 'talker +run' 90  # once the emulator's pool has a node for it
  keys2 Enter
  wait_for2 'second-window-line' 20
  pass "the second window shows the log that the first window's poller follows for it"
  keys2 Escape
}

check_stopped_endpoint() {
  STEP="stopped endpoint"
  kill -STOP "$EMU_PID"
  wait_for "no answer from http://127\.0\.0\.1:[0-9]+ for [0-9]+ s" 20
  wait_for '\(stale\)' 5
  pass "a stopped endpoint is named in the status line within the no-answer time"
  keys R
  wait_for 'refreshing' 5
  pass "R says refreshing"
  kill -CONT "$EMU_PID"
  keys R
  wait_for 'refreshed' 30
  pass "once it answers again, R says refreshed"
}

command -v tmux >/dev/null || fail "tmux is not installed"
check_ascii
check_long_line_and_id
start_talker
check_second_window
check_stopped_endpoint
echo "ok: terminal floor"

#!/usr/bin/env bash
# End to end: marks with a bulk stop, and `y` (an entity as JSON), in the real TUI under tmux.
#
#   tui_tables_test.sh path/to/trainyard
#
# Queues four long local runs, opens their Tasks pane, marks three with Space, stops them with
# one `s` and one Yes (one status line counts them; the fourth keeps running), then opens the
# fourth's JSON with `y`, scrolls it to its run record and back, and quits.
set -uo pipefail

BIN=${1:?usage: tui_tables_test.sh path/to/trainyard}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

# shellcheck source=tests/e2e/tmux_session.sh
source "$(dirname "${BASH_SOURCE[0]}")/tmux_session.sh" tables

# The runs' own processes (sleep with our marker argument), ended by pid: their command lines
# do not name DATA.
extra_cleanup() { pkill_ours; }

pkill_ours() {
  local p
  for p in $(run_pids); do kill -KILL "$p" 2>/dev/null; done
}

# Pids of the runs' `sleep` processes (their command line carries the marker).
run_pids() {
  local p cmd
  for p in /proc/[0-9]*; do
    cmd=$(tr '\0' ' ' 2>/dev/null <"$p/cmdline") || continue
    [[ $cmd == "sleep 300.$$ "* ]] && echo "${p#/proc/}"
  done
}
# wait_gone REGEX SECONDS: polls until no line matches.
wait_gone() {
  local re=$1 deadline=$((SECONDS + $2))
  while ((SECONDS < deadline)); do
    screen | grep -Eq -- "$re" || return 0
    sleep 0.2
  done
  fail "timed out after $2 s waiting for /$re/ to go"
}

queue_runs() {
  STEP="queue"
  mkdir -p "$DATA"
  for id in run-a run-b run-c run-d; do
    "$BIN" --data-dir "$DATA" run --job bulk --id "$id" -- sleep "300.$$" >/dev/null ||
      fail "trainyard run $id failed"
  done
  pass "four runs queued"
}

start_tui() {
  STEP="start"
  command -v tmux >/dev/null || fail "tmux is not installed"
  local cmd
  cmd=$(printf 'cd %q && env TERM=xterm-256color TRAINYARD_CPU_SLOTS=4 %q --data-dir %q --open tasks --job bulk; echo $? >%q' \
    "$TMP" "$BIN" "$DATA" "$EXIT_FILE")
  tm new-session -d -s "$SESSION" -x 160 -y 40 "$cmd" || fail "tmux new-session failed"
  wait_for 'Tasks · bulk' 15
  for id in run-a run-b run-c run-d; do wait_for "$id +running" 20; done
  pass "the four runs are running"
}

bulk_stop() {
  STEP="marks"
  keys g Space j Space j Space
  wait_for '● run-a' 5
  wait_for '● run-b' 5
  wait_for '● run-c' 5
  wait_for '3 marked' 5
  pass "three rows marked, counted in the status line"
  STEP="bulk stop"
  keys s
  wait_for 'Stop 3 runs \(run-a, run-b, run-c\)\?' 5
  keys y
  wait_for 'stop 3 runs: 3 done' 15
  wait_gone 'run-a +running' 30
  wait_gone 'run-b +running' 30
  wait_gone 'run-c +running' 30
  wait_for 'run-d +running' 5
  screen | grep -q '3 marked' && fail "the marks stayed after the action"
  local left
  left=$(run_pids | wc -l)
  [[ $left == 1 ]] || fail "$left of the runs' processes remain; 1 (run-d) was expected"
  pass "one Yes stopped the three marked runs; run-d still runs"
}

show_json() {
  STEP="y"
  # The stopped runs may now sort elsewhere: the filter picks run-d whatever its row.
  keys /
  keys -l run-d
  keys Enter
  wait_for '/run-d' 5
  keys y
  wait_for 'JSON · task run-d' 5
  wait_for '"id": "run-d"' 5
  wait_for '"commandLine": "sleep 300' 5
  keys G
  wait_for '"localRun"|"waitingReason"' 5
  keys g
  wait_for '"commandLine"' 5
  keys q
  wait_for 'Tasks · bulk' 5
  pass "y shows the task's JSON with its run record, scrolls, q returns"
}

quit() {
  STEP="quit"
  keys q q
  local deadline=$((SECONDS + 10))
  while tm has-session -t "$SESSION" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.1; done
  [[ -f $EXIT_FILE && $(cat "$EXIT_FILE") == 0 ]] || fail "trainyard did not exit with 0"
  pass "q exits with status 0"
}

queue_runs
start_tui
bulk_stop
show_json
quit
echo "PASS: e2e_tui_tables"

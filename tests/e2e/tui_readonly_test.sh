#!/usr/bin/env bash
# End to end: a read-only Batch account refuses every change in the real TUI under tmux.
#
#   tui_readonly_test.sh path/to/trainyard
#
# Starts `trainyard emulator` on 127.0.0.1 with five finished tasks, opens their Tasks pane with
# --readonly, and presses the keys that would change the account: `x` (delete the task), Space
# on two rows then `x` (a bulk delete), and `s` (terminate). Each is refused in one status line
# before any question opens, and the service still lists all five tasks afterwards.
set -uo pipefail

BIN=${1:?usage: tui_readonly_test.sh path/to/trainyard}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

# shellcheck source=tests/e2e/tmux_session.sh
source "$(dirname "${BASH_SOURCE[0]}")/tmux_session.sh" ro

REFUSED='account emulator is read-only \(--readonly\)'

task_count() {
  "$BIN" --data-dir "$DATA" ls tasks --account emulator --job seed-sweep 2>/dev/null |
    grep -c '^seed-sweep/'
}

start_tui() {
  STEP="start"
  local cmd
  cmd=$(printf 'env TERM=xterm-256color %q --data-dir %q --readonly --account emulator --open tasks --job seed-sweep; echo $? >%q' \
    "$BIN" "$DATA" "$EXIT_FILE")
  tm new-session -d -s "$SESSION" -x 140 -y 30 "$cmd" || fail "tmux new-session failed"
  wait_for 'Tasks · seed-sweep' 15
  wait_for '/5' 15
  pass "the Tasks pane lists the five tasks"
}

# refused KEY...: the keys, then the refusal in the status line and no question on screen.
refused() {
  keys C-l  # bound to nothing: the status line says so, so the refusal below is a new one
  wait_for 'C-l does nothing here' 5
  keys "$@"
  wait_for "$REFUSED" 5
  screen | grep -Eq '(Delete|Terminate) [0-9]* ?tasks?' && fail "a question opened after: $*"
  return 0
}

check_refusals() {
  STEP="refuse"
  refused x
  pass "x (delete) is refused before any question"
  refused Space j Space x
  pass "x on two marked rows is refused"
  refused s
  pass "s (terminate) is refused"
  [[ $(task_count) == 5 ]] || fail "the service lists $(task_count) tasks, expected 5"
  pass "the service still lists the five tasks"
}

command -v tmux >/dev/null || fail "tmux is not installed"
start_emulator --seed-tasks 5
pass "emulator serving account emulator"
start_tui
check_refusals
quit
echo "PASS"

#!/usr/bin/env bash
# End to end: filtering and sorting the Tasks pane of the real trainyard binary in tmux.
#
#   tui_sort_filter_test.sh path/to/trainyard
#
# Runs four short tasks (exit codes 0, 3, 0, 1) with the CLI, opens their job in the TUI, filters
# them with the filter language (exit:!=0, !state:failed, a regex, a bad regex), sorts them with
# :sort and o/O, and checks the rows on screen and their order. Then the mouse on the same table:
# a click selects a row, a second click opens it, and a wheel notch moves three rows.
set -uo pipefail

BIN=${1:?usage: tui_sort_filter_test.sh path/to/trainyard}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

# shellcheck source=tests/e2e/tmux_session.sh
source "$(dirname "${BASH_SOURCE[0]}")/tmux_session.sh" sf

# The task ids in the table, top to bottom.
rows() { screen | grep -oE '^│(ok|bad)-[a-z]' | cut -c4-; }

# expect_rows "id id …" SECONDS: waits until the table lists exactly these rows in this order.
expect_rows() {
  local want=$1 deadline=$((SECONDS + $2)) got
  while ((SECONDS < deadline)); do
    got=$(rows | tr '\n' ' ' | sed 's/ $//')
    [[ $got == "$want" ]] && return 0
    sleep 0.2
  done
  fail "rows are '$got', expected '$want'"
}

# filter TEXT: a new filter (C-u clears the old one first).
filter() {
  keys / C-u
  keys -l "$1"
  keys Enter
}

command_line() {
  keys :
  keys -l "$1"
  keys Enter
}

seed_runs() {
  STEP="runs"
  mkdir -p "$DATA"
  local id code
  for pair in ok-a:0 bad-b:3 ok-c:0 bad-d:1; do
    id=${pair%:*} code=${pair#*:}
    "$BIN" --data-dir "$DATA" run --job sf --id "$id" -- sh -c "exit $code" >/dev/null ||
      fail "trainyard run $id failed"
  done
  for id in ok-a bad-b ok-c bad-d; do
    timeout 60 "$BIN" --data-dir "$DATA" wait "sf/$id" >/dev/null 2>&1
  done
  pass "four runs finished (exit 0, 3, 0, 1)"
}

start_tui() {
  STEP="start"
  local cmd
  cmd=$(printf 'env TERM=xterm-256color %q --data-dir %q --open tasks --job sf; echo $? >%q' \
    "$BIN" "$DATA" "$EXIT_FILE")
  tm new-session -d -s "$SESSION" -x 120 -y 30 "$cmd" || fail "tmux new-session failed"
  wait_for 'Tasks · sf' 15
  expect_rows "ok-a bad-b ok-c bad-d" 10
  pass "the Tasks pane lists the four runs"
}

check_filters() {
  STEP="filter"
  filter 'exit:!=0'
  expect_rows "bad-b bad-d" 5
  pass "exit:!=0 keeps the two failures"
  filter '!state:failed'
  expect_rows "ok-a ok-c" 5
  pass "!state:failed keeps the two successes"
  filter '/^ok-[c-z]/'
  expect_rows "ok-c" 5
  pass "a regex keeps ok-c"
  filter 'exit:>1 /(/'
  wait_for 'bad filter: regex /\(/' 5
  expect_rows "" 5
  pass "a bad regex is an error in the status line and matches nothing"
  keys / C-u Enter
  expect_rows "ok-a bad-b ok-c bad-d" 5
}

check_sort() {
  STEP="sort"
  command_line 'sort exit desc'
  wait_for 'EXIT▼' 5
  expect_rows "bad-b bad-d ok-c ok-a" 5
  pass ":sort exit desc: 3, 1, then the two zeros by id descending"
  keys O
  wait_for 'EXIT▲' 5
  expect_rows "ok-a ok-c bad-d bad-b" 5
  pass "O reverses the sort"
  command_line 'sort nosuch'
  wait_for "no column 'nosuch' here" 5
  pass "an unknown column lists the sortable ones"
  keys o
  wait_for 'TR▲' 5  # a 3-wide column gives up its title's last letter for the arrow
  pass "o moves the sort to the next column"
}

# mouse BUTTON X Y [m]: an SGR (1006) mouse report at column X, row Y (from 0), as xterm sends
# it (its terminfo names that encoding); `m` makes it a release. A click is a press and a release.
mouse() {
  local report
  report=$(printf '\e[<%d;%d;%d%s' "$1" $(($2 + 1)) $(($3 + 1)) "${4:-M}")
  # shellcheck disable=SC2046  # one hex byte per word
  tm send-keys -t "$SESSION" -H $(printf '%s' "$report" | od -An -tx1)
}
click() {
  mouse 0 "$1" "$2"
  mouse 0 "$1" "$2" m
}

# The rows are on screen rows 3 to 6 (under the crumbs, the border and the header).
check_mouse() {
  STEP="mouse"
  expect_rows "ok-a bad-b ok-c bad-d" 5
  click 10 5
  sleep 0.5
  screen | head -1 | grep -q 'ok-c' && fail "one click opened the row"
  click 10 5
  wait_for '^local › jobs › sf › ok-c' 5
  pass "a click selects ok-c, a second one opens it"
  keys Escape
  wait_for 'Tasks · sf' 5
  mouse 65 10 10  # wheel down: from ok-c (row 2) three rows on, clamped at bad-d (row 3)
  sleep 0.3
  mouse 64 10 10  # wheel up: row 0
  sleep 0.3
  keys Enter
  wait_for '^local › jobs › sf › ok-a' 5
  keys Escape
  wait_for 'Tasks · sf' 5
  pass "the wheel moves the selection"
}

command -v tmux >/dev/null || fail "tmux is not installed"
seed_runs
start_tui
check_filters
check_mouse
check_sort
quit
echo "PASS"

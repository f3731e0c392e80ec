#!/usr/bin/env bash
# End to end: comparing runs of two jobs in the real TUI under tmux.
#
#   tui_compare_test.sh path/to/trainyard
#
# Runs three short local jobs that print loss lines (two in one job, one in another), opens the
# TUI, marks one run in each job with `v`, opens the Compare pane with `V` and checks the final
# and best values worked out from the printed losses, then takes a run out with `v`.
set -uo pipefail

BIN=${1:?usage: tui_compare_test.sh path/to/trainyard}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

# shellcheck source=tests/e2e/tmux_session.sh
source "$(dirname "${BASH_SOURCE[0]}")/tmux_session.sh" cmp

# run_losses JOB ID LOSS...: a local run that prints one `loss=` line per value, waited for.
run_losses() {
  local job=$1 id=$2
  shift 2
  env TRAINYARD_CPU_SLOTS=4 "$BIN" --data-dir "$DATA" run --job "$job" --id "$id" \
    -- python3 "$TMP/train.py" "$@" >/dev/null || fail "trainyard run $job/$id failed"
  "$BIN" --data-dir "$DATA" wait "$job/$id" >/dev/null || fail "$job/$id did not succeed"
}

STEP="runs"
mkdir -p "$DATA"
printf '%s\n' 'import sys' \
  'for i, v in enumerate(sys.argv[1:]): print(f"epoch {i + 1} loss={v}", flush=True)' >"$TMP/train.py"
command -v tmux >/dev/null || fail "tmux is not installed"
# alpha/a1: final 0.7, best 0.5; alpha/a2: final = best = 0.3; beta/b1: final 0.45, best 0.4.
run_losses alpha a1 0.9 0.5 0.7
run_losses alpha a2 0.8 0.3
run_losses beta b1 0.8 0.6 0.4 0.45
pass "three runs in two jobs finished"

STEP="start"
cmd=$(printf 'cd %q && env TERM=xterm-256color %q --data-dir %q --open tasks --job alpha; echo $? >%q' \
  "$TMP" "$BIN" "$DATA" "$EXIT_FILE")
tm new-session -d -s "$SESSION" -x 160 -y 40 "$cmd" || fail "tmux new-session failed"
wait_for 'Tasks · alpha' 15
wait_for '│a1 ' 10
pass "Tasks pane of alpha"

STEP="mark"
keys /
keys -l a1
keys Enter
keys v
wait_for 'alpha/a1 added to the comparison \(1 run' 5
keys Escape
wait_for 'filter cleared' 5   # as in k9s: the first Escape clears the filter
keys Escape
wait_for 'Jobs · local' 5
keys /
keys -l beta
keys Enter
keys Enter
wait_for 'Tasks · beta' 5
keys v
wait_for 'beta/b1 added to the comparison \(2 run' 5
pass "a1 of alpha and b1 of beta marked with v"

STEP="compare"
keys V
wait_for 'Compare runs' 5
wait_for 'alpha/a1 .* 0\.7 +0\.5 +3' 5
wait_for 'beta/b1 .* 0\.45 +0\.4 +4' 5
wait_for 'loss +━ alpha/a1 +━ beta/b1' 5
pass "final and best side by side, both curves in the legend"

STEP="remove"
keys v
wait_for 'no longer compared \(1 left\)' 5
screen | grep -q '● .*alpha/a1' && fail "alpha/a1 still listed after v"
wait_for '★ b1 ' 5
pass "v in the Compare pane takes the selected run out"

STEP="quit"
keys q
keys q
keys q
for _ in $(seq 50); do [[ -f $EXIT_FILE ]] && break; sleep 0.1; done
[[ -f $EXIT_FILE ]] || keys C-c
pass "done"

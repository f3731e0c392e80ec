#!/usr/bin/env bash
# End to end: config.json's `keys` and `plugins` in the real binary under tmux.
#
#   tui_keys_test.sh path/to/trainyard
#
# With `stop` rebound to K and a plugin on H for the Tasks pane: `s` no longer stops and K does
# (the confirmation opens); H runs the plugin with the selected task in its environment (and no
# secret) and shows its output; the help lists every binding of the keymap, the rebound key and
# the plugin, scrolling through them.
set -uo pipefail

BIN=${1:?usage: tui_keys_test.sh path/to/trainyard}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# shellcheck source=tests/e2e/tmux_session.sh
source "$(dirname "${BASH_SOURCE[0]}")/tmux_session.sh" keys

write_config() {
  cat >"$TMP/config.json" <<'JSON'
{
  "keys": { "stop": "K" },
  "plugins": [ { "name": "show-row", "key": "H", "panes": ["tasks"], "timeoutSeconds": 10,
                 "command": "echo \"plugin-ran job=$JOB task=$TASK state=$COL_STATE\"; echo \"secrets=$(env | grep -c e2e-sekrit)\"" } ]
}
JSON
}

start_tui() {
  STEP="start"
  command -v tmux >/dev/null || fail "tmux is not installed"
  mkdir -p "$DATA"
  write_config
  # A run that stays running while the keys are tried.
  (cd "$TMP" && TRAINYARD_CONFIG="$TMP/config.json" TRAINYARD_CPU_SLOTS=1 \
    "$BIN" --data-dir "$DATA" run --job keys -- sleep 60 >/dev/null) || fail "trainyard run failed"
  local cmd
  cmd=$(printf 'cd %q && env TERM=xterm-256color AZURE_BATCH_ACCESS_KEY=e2e-sekrit TRAINYARD_CONFIG=%q %q --data-dir %q --open tasks --job keys; echo $? >%q' \
    "$TMP" "$TMP/config.json" "$BIN" "$DATA" "$EXIT_FILE")
  tm new-session -d -s "$SESSION" -x 160 -y 48 "$cmd" || fail "tmux new-session failed"
  wait_for 'Tasks · keys' 15
  wait_for 'running' 15
  pass "TUI opened on the running task"
}

check_rebound_key() {
  STEP="rebound key"
  keys s
  wait_for 's does nothing here' 5
  keys K
  wait_for 'Stop task' 5
  pass "s no longer stops; K asks to stop"
  keys Escape
  wait_for 'Tasks · keys' 5
}

check_plugin() {
  STEP="plugin"
  keys H
  wait_for 'show-row · exit 0' 10
  wait_for 'plugin-ran job=keys task=[^ ]+ state=running' 5
  wait_for 'secrets=0' 5
  pass "H ran the plugin with the row in its environment and no secret"
  keys Escape
  wait_for 'Tasks · keys' 5
}

# Every binding's description (its first 20 characters: a long one is cut with …) must show up
# somewhere in the help as it scrolls, and the rebound key and the plugin too.
check_help_lists_everything() {
  STEP="help"
  keys '?'
  wait_for 'Help' 5
  local seen="" page prev=""
  for _ in $(seq 1 40); do
    page=$(screen)
    seen+=$page$'\n'
    [[ $page == "$prev" ]] && break
    prev=$page
    keys NPage
    sleep 0.3
  done
  local missing=0 desc
  while IFS= read -r desc; do
    if ! grep -qF -- "${desc:0:20}" <<<"$seen"; then
      echo "missing from the help: $desc" >&2
      missing=1
    fi
  done < <(grep -oE '^ *\{"[^"]+", A::[A-Za-z]+, "[^"]+' "$REPO/app/src/tui/keymap.cpp" | sed -E 's/.*, "//')
  ((missing == 0)) || fail "the help does not list every binding"
  grep -Eq 'K +stop +stop the task' <<<"$seen" || fail "the help does not show stop on K"
  grep -Eq 'H +show-row +runs show-row \(tasks\)' <<<"$seen" || fail "the help does not list the plugin"
  pass "the help lists every binding, stop on K and the plugin"
  keys q
  wait_for 'Tasks · keys' 5
}

start_tui
check_rebound_key
check_plugin
check_help_lists_everything
keys C-c
echo "PASS"

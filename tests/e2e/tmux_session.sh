# The set-up every TUI scenario under tmux shares (sourced, never run on its own):
#
#   source "$(dirname "${BASH_SOURCE[0]}")/tmux_session.sh" NAME
#
# gives a private tmux server and session named after NAME (a word), a scratch directory TMP with the data
# directory DATA and the TUI's exit-status file EXIT_FILE, and the helpers below. On exit the
# server is killed, every process whose command line names DATA (the TUI, supervisors) gets
# SIGTERM, a scenario's own extra_cleanup (when it defines one) runs, and TMP is removed.
# shellcheck shell=bash

NAME=${1:?usage: source tmux_session.sh NAME}
SOCK=ty-$NAME-$$
SESSION=$NAME
TMP=$(mktemp -d "/tmp/ty-$NAME.XXXXXX")
DATA=$TMP/data
EXIT_FILE=$TMP/exit
STEP="start"

tm() { tmux -L "$SOCK" -f /dev/null "$@"; }

# The current screen of the pane as text ('' once the session is gone).
screen() { tm capture-pane -p -t "$SESSION" 2>/dev/null; }

keys() { tm send-keys -t "$SESSION" "$@"; }

# True while the TUI still runs in the pane.
alive() { [[ ! -f $EXIT_FILE ]] && tm has-session -t "$SESSION" 2>/dev/null; }

# Pids of processes whose command line names our data directory (the TUI, supervisors).
our_pids() {
  local p cmd
  for p in /proc/[0-9]*; do
    cmd=$(tr '\0' ' ' 2>/dev/null <"$p/cmdline") || continue
    [[ $cmd == *"$DATA"* && ${p#/proc/} != "$$" ]] && echo "${p#/proc/}"
  done
}

cleanup() {
  tm kill-server 2>/dev/null
  local p
  for p in $(our_pids); do kill -TERM "$p" 2>/dev/null; done
  if declare -F extra_cleanup >/dev/null; then extra_cleanup; fi
  # An emulator a scenario stopped (kill -STOP) must run again to end.
  [[ -n $EMU_PID ]] && kill -CONT "$EMU_PID" 2>/dev/null && kill -TERM "$EMU_PID" 2>/dev/null
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fail() {
  echo "FAIL [$STEP]: $*" >&2
  echo "----- last screen -----" >&2
  screen >&2 || echo "(no screen: the tmux session is gone)" >&2
  echo "-----------------------" >&2
  if [[ -f $EXIT_FILE ]]; then echo "trainyard exited with status $(cat "$EXIT_FILE")" >&2; fi
  exit 1
}

pass() { echo "ok   [$STEP] $*"; }

# start_emulator ARGS...: `$BIN emulator` on 127.0.0.1 with a fresh key and ARGS; its variables
# (AZURE_BATCH_*) exported, its pid in EMU_PID (the cleanup stops it).
EMU_PID=""
start_emulator() {
  STEP="emulator"
  mkdir -p "$DATA"
  head -c 64 /dev/urandom | base64 -w0 >"$TMP/key"
  "$BIN" emulator --key-file "$TMP/key" --env-file "$TMP/env" "$@" >"$TMP/emu.out" 2>&1 &
  EMU_PID=$!
  local deadline=$((SECONDS + 15))
  until [[ -s $TMP/env ]]; do
    ((SECONDS < deadline)) || fail "the emulator did not start: $(cat "$TMP/emu.out")"
    sleep 0.1
  done
  set -a
  # shellcheck disable=SC1091  # written by the emulator just now
  . "$TMP/env"
  set +a
}

# wait_for REGEX SECONDS: polls the screen until a line matches (extended regex).
wait_for() {
  local re=$1 deadline=$((SECONDS + $2))
  while ((SECONDS < deadline)); do
    screen | grep -Eq -- "$re" && return 0
    alive || fail "trainyard exited while waiting for /$re/"
    sleep 0.2
  done
  fail "timed out after $2 s waiting for /$re/"
}

# quit: C-c, then the TUI must have exited with status 0 within 10 s.
quit() {
  STEP="quit"
  keys C-c
  local deadline=$((SECONDS + 10))
  while [[ ! -f $EXIT_FILE ]] && ((SECONDS < deadline)); do sleep 0.1; done
  [[ -f $EXIT_FILE && $(cat "$EXIT_FILE") == 0 ]] || fail "trainyard did not exit with 0"
  pass "quit"
}

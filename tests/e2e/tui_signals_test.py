#!/usr/bin/python3
"""The TUI gives the terminal back however it is told to stop.

    tui_signals_test.py path/to/trainyard

Starts the TUI on a pty (a terminal in canonical mode with echo, as a shell leaves it) with an
empty data directory, sends SIGTERM, SIGHUP or SIGINT once the first frame is drawn, and checks
that it then leaves the alternate screen (rmcup), shows the cursor again, restores canonical mode
and echo, and ends by that signal within a few seconds. Stdlib only.
"""
import fcntl
import os
import select
import shutil
import signal
import struct
import sys
import tempfile
import termios
import time

SMCUP = b"\x1b[?1049h"
RMCUP = b"\x1b[?1049l"
CURSOR_VISIBLE = b"\x1b[?25h"


def spawn(argv, env):
    """Forks argv on a new pty; returns (pid, master fd, slave fd kept open to read its modes)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    attrs = termios.tcgetattr(slave)
    attrs[3] |= termios.ICANON | termios.ECHO
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    pid = os.fork()
    if pid == 0:
        os.close(master)
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
        for fd in (0, 1, 2):
            os.dup2(slave, fd)
        try:
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    return pid, master, slave


def drain(master, buf, seconds):
    """Reads what the pty has for up to `seconds`; returns the bytes appended to buf."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        r, _, _ = select.select([master], [], [], 0.05)
        if not r:
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:
            return buf
        if not chunk:
            return buf
        buf += chunk
    return buf


def wait_exit(pid, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.05)
    return None


def check(binary, sig, root):
    data = os.path.join(root, "data-" + sig.name)
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8",
               XDG_CONFIG_HOME=os.path.join(root, "config"))
    pid, master, slave = spawn([binary, "--data-dir", data], env)
    failures = []
    try:
        out = b""
        end = time.monotonic() + 20
        while SMCUP not in out and time.monotonic() < end:
            out = drain(master, out, 0.2)
        if SMCUP not in out:
            return [f"{sig.name}: the TUI never entered the alternate screen"]
        out = drain(master, out, 1.0)  # the first frame
        drawn = len(out)
        os.kill(pid, sig)
        status = None
        end = time.monotonic() + 10
        while status is None and time.monotonic() < end:
            out = drain(master, out, 0.1)
            status = wait_exit(pid, 0.05)
        if status is None:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return [f"{sig.name}: the TUI did not end within 10 s"]
        out = drain(master, out, 0.3)
        after = out[drawn:]
        if RMCUP not in after:
            failures.append(f"{sig.name}: the alternate screen was not left (no rmcup)")
        if CURSOR_VISIBLE not in after:
            failures.append(f"{sig.name}: the cursor was not shown again")
        lflag = termios.tcgetattr(slave)[3]
        if not lflag & termios.ICANON:
            failures.append(f"{sig.name}: the terminal was left without icanon")
        if not lflag & termios.ECHO:
            failures.append(f"{sig.name}: the terminal was left without echo")
        ended_by = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
        if ended_by != sig:
            code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
            failures.append(f"{sig.name}: ended by signal {ended_by}, exit {code}")
        return failures
    finally:
        os.close(master)
        os.close(slave)


def main():
    binary = os.path.abspath(sys.argv[1])
    root = tempfile.mkdtemp(prefix="ty-signals.")
    failures = []
    try:
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            failures += check(binary, sig, root)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    for f in failures:
        print("FAIL:", f)
    if failures:
        sys.exit(1)
    print("ok: SIGTERM, SIGHUP and SIGINT each gave the terminal back")


if __name__ == "__main__":
    main()

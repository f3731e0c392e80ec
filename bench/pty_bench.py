#!/usr/bin/python3
"""The real trainyard binary on a pty: time to first frame, RSS, idle CPU.

    pty_bench.py first-frame BIN DATA_DIR --job big [--runs 7] [--size 200x60]
    pty_bench.py idle BIN DATA_DIR --job J [--seconds 20] [--keys Enter] [--account A]

Prints `RESULT name value unit` lines (stdlib only: pty, os, select).
"""
import argparse
import fcntl
import os
import select
import signal
import statistics
import struct
import sys
import termios
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")


def result(name, value, unit):
    print(f"RESULT {name} {value:.3f} {unit}", flush=True)


def spawn(argv, cols, rows):
    """Forks argv on a new pty of cols x rows; returns (pid, master fd, t0 before fork)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    env = dict(os.environ, TERM="xterm-256color", LANG=os.environ.get("LANG", "C.UTF-8"))
    env.setdefault("LC_ALL", "C.UTF-8")
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.close(master)
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
        for fd in (0, 1, 2):
            os.dup2(slave, fd)
        os.close(slave)
        try:
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    os.close(slave)
    return pid, master, t0


def read_until(master, needles, deadline):
    """Reads output until every needle was seen; returns (bytes, time of the read that did it)."""
    buf = b""
    while time.perf_counter() < deadline:
        r, _, _ = select.select([master], [], [], max(0.0, deadline - time.perf_counter()))
        if not r:
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        buf += chunk
        if all(n in buf for n in needles):
            return buf, time.perf_counter()
    return buf, None


def drain(master, seconds):
    """Keeps reading (as a terminal would) for `seconds`; returns the bytes read."""
    n, end = 0, time.perf_counter() + seconds
    while time.perf_counter() < end:
        r, _, _ = select.select([master], [], [], max(0.0, end - time.perf_counter()))
        if r:
            try:
                n += len(os.read(master, 65536))
            except OSError:
                break
    return n


def status_mib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024.0
    return -1.0


def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15)


def quit_child(pid, master, keys=b"\x03"):
    """Sends the quit keys, waits up to 5 s, then SIGKILLs the child we started."""
    try:
        os.write(master, keys)
    except OSError:
        pass
    end = time.perf_counter() + 5
    while time.perf_counter() < end:
        drain(master, 0.05)
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    os.close(master)


def first_frame(args):
    cols, rows = map(int, args.size.split("x"))
    argv = [args.bin, "--data-dir", args.data_dir, "--open", "tasks", "--job", args.job]
    needles = [f"Tasks \u00b7 {args.job}".encode(), args.expect.encode()]
    times, rss, hwm = [], [], []
    for _ in range(args.runs):
        pid, master, t0 = spawn(argv, cols, rows)
        buf, t = read_until(master, needles, time.perf_counter() + 10)
        if t is None:
            quit_child(pid, master)
            sys.exit(f"first-frame: no frame with {needles} in 10 s; got {buf[-2000:]!r}")
        times.append((t - t0) * 1000)
        drain(master, 1.5)  # past the first 1 s tick: the steady state of the open view
        rss.append(status_mib(pid, "VmRSS"))
        hwm.append(status_mib(pid, "VmHWM"))
        quit_child(pid, master)
    print("first frame runs (ms): " + " ".join(f"{x:.1f}" for x in times), file=sys.stderr)
    result("first_frame_median_ms", statistics.median(times), "ms")
    result("first_frame_min_ms", min(times), "ms")
    result("tasks_view_rss_mib", max(rss), "MiB")
    result("tasks_view_hwm_mib", max(hwm), "MiB")


def idle(args):
    cols, rows = map(int, args.size.split("x"))
    argv = [args.bin, "--data-dir", args.data_dir, "--open", "tasks", "--job", args.job]
    if args.account:
        argv += ["--account", args.account]
    pid, master, _ = spawn(argv, cols, rows)
    _, t = read_until(master, [f"Tasks \u00b7 {args.job}".encode()], time.perf_counter() + 10)
    if t is None:
        quit_child(pid, master)
        sys.exit("idle: the TUI did not draw")
    for k in args.keys.split():
        os.write(master, {"Enter": b"\r"}.get(k, k.encode()))
        drain(master, 0.3)
    drain(master, 3)  # settle: the log pane opened and indexed
    c0, w0 = cpu_ticks(pid), time.perf_counter()
    out = drain(master, args.seconds)
    c1, w1 = cpu_ticks(pid), time.perf_counter()
    quit_child(pid, master)
    pct = 100.0 * (c1 - c0) / CLK_TCK / (w1 - w0)
    result(f"{args.name}_cpu_pct", pct, "%core")
    result(f"{args.name}_terminal_bytes_per_s", out / (w1 - w0), "B/s")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("mode", choices=["first-frame", "idle"])
    p.add_argument("bin")
    p.add_argument("data_dir")
    p.add_argument("--job", default="big")
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--size", default="200x60")
    p.add_argument("--expect", default="task-000000", help="text the first frame must show")
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument("--keys", default="", help="keys to press before measuring idle CPU")
    p.add_argument("--name", default="idle")
    p.add_argument("--account", default="", help="the account to open (default: local)")
    args = p.parse_args()
    args.bin = os.path.abspath(args.bin)
    first_frame(args) if args.mode == "first-frame" else idle(args)


if __name__ == "__main__":
    main()

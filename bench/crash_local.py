#!/usr/bin/env python3
"""Local runs under crashes: RUNS runs, each with one disruption at a random moment, picked at
random among none, killing the TUI, killing the run's supervisor, killing the task's leader,
killing the task's whole process group, and `trainyard stop` (half of the stopped tasks ignore
SIGTERM, so the grace period's SIGKILL ends them).

    bench/crash_local.py build-rel/app/trainyard [--runs 100] [--parallel 4] [--json]

Every task prints a few lines, leaves two background children in its process group and exits
with a code of its own. The TUI runs on a pseudo-terminal the whole time (killed with SIGKILL and
started again when a disruption says so). Checks:
- every run ends recorded: completed, with its own exit code when nothing killed it, 128+9 when
  its task was killed, TaskTerminated when stopped, or a failure code that names what happened
  (ExitCodeUnknown, SupervisorLost) when its supervisor was killed;
- when a run has ended, no process of its process group is left (stop and a leader's exit end
  the whole group);
- no zombie whose parent is a trainyard process lasts a second, and when everything has ended no
  process of the bench's own (marked by an environment token) is left: an orphan.
This script stands in for init as a child subreaper: orphans are re-parented to it and reaped.
Exit 0 only when every check held.
"""
import argparse
import collections
import ctypes
import fcntl
import json
import os
import pty
import random
import shutil
import signal
import sqlite3
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
import uuid

PR_SET_CHILD_SUBREAPER = 36
ACTIONS = ["none", "tui", "supervisor", "task", "group", "stop"]


def proc_stat(pid):
    """(state, ppid, pgrp) from /proc/PID/stat, or None when it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            text = f.read()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return fields[0], int(fields[1]), int(fields[2])


def all_pids():
    return [int(p) for p in os.listdir("/proc") if p.isdigit()]


def has_token(pid, token):
    try:
        with open("/proc/%d/environ" % pid, "rb") as f:
            return token in f.read()
    except OSError:
        return False


class Reaper:
    """Child subreaper: reaps the orphans re-parented to this process (what init would do)."""

    def __init__(self):
        if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            raise OSError("prctl(PR_SET_CHILD_SUBREAPER) failed")
        self.lock = threading.Lock()
        self.own = set()  # children this script started with Popen: Popen reaps those
        self.stop = False
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def popen(self, *args, **kw):
        with self.lock:
            p = subprocess.Popen(*args, **kw)
            self.own.add(p.pid)
            return p

    def loop(self):
        me = os.getpid()
        while not self.stop:
            with self.lock:
                for pid in all_pids():
                    s = proc_stat(pid)
                    if s and s[0] == "Z" and s[1] == me and pid not in self.own:
                        try:
                            os.waitpid(pid, os.WNOHANG)
                        except ChildProcessError:
                            pass
            time.sleep(0.05)


class Bench:
    def __init__(self, exe, workdir, seed):
        self.exe, self.dir = exe, workdir
        self.rng = random.Random(seed)
        self.token = "CRASH_TOKEN=" + uuid.uuid4().hex
        self.env = dict(os.environ, TRAINYARD_DATA_DIR=os.path.join(workdir, "data"),
                        XDG_CONFIG_HOME=os.path.join(workdir, "config"),
                        HOME=os.path.join(workdir, "home"), TRAINYARD_CPU_SLOTS="4",
                        TRAINYARD_NVML_LIB=os.path.join(workdir, "no-nvml.so"),
                        TERM="xterm-256color", CRASH_TOKEN=self.token.split("=")[1])
        for k in ("AZURE_BATCH_ACCOUNT", "AZURE_BATCH_ENDPOINT", "AZURE_BATCH_ACCESS_KEY",
                  "TRAINYARD_ACCOUNT"):
            self.env.pop(k, None)
        self.db = os.path.join(workdir, "data", "cache.db")
        self.reaper = Reaper()
        self.tui = None
        self.tui_lock = threading.Lock()
        self.tui_kills = 0
        self.zombies = collections.Counter()  # pid -> consecutive sightings
        self.lasting_zombies = set()

    # ---- the TUI on a pseudo-terminal ----
    def start_tui(self):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 140, 0, 0))
        self.tui = self.reaper.popen([self.exe, "--open", "tasks"], env=self.env, stdin=slave,
                                     stdout=slave, stderr=slave, start_new_session=True)
        os.close(slave)
        threading.Thread(target=self.drain, args=(master,), daemon=True).start()

    @staticmethod
    def drain(fd):
        try:
            while os.read(fd, 65536):
                pass
        except OSError:
            pass
        os.close(fd)

    def kill_tui(self):
        with self.tui_lock:
            self.tui.send_signal(signal.SIGKILL)
            self.tui.wait()
            self.tui_kills += 1
            self.start_tui()

    # ---- runs ----
    def cli(self, *args, timeout=120):
        p = self.reaper.popen([self.exe, *args], env=self.env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
        out, err = p.communicate(timeout=timeout)
        return p.returncode, out, err

    def record(self, tid):
        con = sqlite3.connect("file:%s?mode=ro" % self.db, uri=True, timeout=30)
        try:
            return con.execute("SELECT supervisor_pid, pid, pgid FROM local_runs "
                               "WHERE job_id = 'crash' AND task_id = ?", (tid,)).fetchone()
        finally:
            con.close()

    def tasks(self):
        code, out, err = self.cli("ls", "tasks", "--job", "crash", "--json")
        if code != 0:
            raise RuntimeError("ls: %s" % err.strip())
        return {t["id"]: t for t in json.loads(out)}

    def submit(self, i):
        exit_code = i % 3
        deaf = i % 2 == 0  # ignores SIGTERM: a stop must fall back to SIGKILL
        script = ("%s sleep 300 & sh -c 'sleep 300' & for k in 1 2 3 4 5 6 7 8 9 10 11 12; do "
                  "echo step=$k loss=0.$k; sleep 0.25; done; exit %d") % (
                      "trap '' TERM;" if deaf else "", exit_code)
        code, out, err = self.cli("run", "--job", "crash", "--id", "r%03d" % i, "--", "sh", "-c", script)
        if code != 0:
            raise RuntimeError("run: %s" % err.strip())
        return exit_code

    def wait_running(self, tid, timeout=60):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            r = self.record(tid)
            if r and r[1] > 0:
                return r
            self.cli("ls", "tasks", "--job", "crash")  # a scheduling pass
            time.sleep(0.05)
        raise RuntimeError("%s never started" % tid)

    def disrupt(self, action, tid, rec):
        supervisor, pid, pgid = rec
        time.sleep(self.rng.uniform(0.1, 3.2))
        try:
            if action == "tui":
                self.kill_tui()
            elif action == "supervisor":
                os.kill(supervisor, signal.SIGKILL)
            elif action == "task":
                os.kill(pid, signal.SIGKILL)
            elif action == "group":
                os.killpg(pgid, signal.SIGKILL)
            elif action == "stop":
                code, _, err = self.cli("stop", "--grace", "1", "crash/" + tid)
                return code == 0 or "not running" in err or "finished" in err
        except ProcessLookupError:
            return False  # it had ended already
        return action != "none"

    # ---- checks ----
    def judge(self, run, task):
        """Why a run's record is wrong, or None."""
        if task.get("state") != "completed":
            return "state %s" % task.get("state")
        info = task.get("executionInfo", {})
        code = info.get("exitCode")
        failure = info.get("failureInfo", {}).get("code", "")
        action = run["action"]
        # Its own ending: a disruption that came as the task was exiting (its leader a zombie
        # not yet reaped, say) rightly changes nothing.
        natural = code == run["exit"] and (failure == "" if code == 0 else failure == "FailureExitCode")
        if action == "supervisor":
            ok = natural or failure in ("ExitCodeUnknown", "SupervisorLost")
        elif action in ("task", "group"):
            ok = natural or (code == 137 and failure == "TaskEndedBySignal")
        elif action == "stop":
            ok = natural or (failure == "TaskTerminated" and code in (143, 137))
        else:
            ok = natural
        return None if ok else "exit %s failure %r after %s" % (code, failure, action)

    def group_left(self, pgid):
        return [p for p in all_pids() if (s := proc_stat(p)) and s[2] == pgid and s[0] != "Z"]

    def watch_zombies(self):
        """Zombies of trainyard processes (their parent carries the token) seen twice 1 s apart."""
        seen = set()
        for pid in all_pids():
            s = proc_stat(pid)
            if s and s[0] == "Z" and s[1] != os.getpid() and has_token(s[1], self.token.encode()):
                seen.add(pid)
        for pid in list(self.zombies):
            if pid not in seen:
                del self.zombies[pid]
        for pid in seen:
            self.zombies[pid] += 1
            if self.zombies[pid] >= 3:
                self.lasting_zombies.add(pid)

    def run(self, runs, parallel):
        self.start_tui()
        failures, results = [], []
        pending = list(range(runs))
        live = []
        last_zombie_check = 0.0
        while pending or live:
            while pending and len(live) < parallel:
                i = pending.pop(0)
                tid = "r%03d" % i
                exit_code = self.submit(i)
                rec = self.wait_running(tid)
                run = {"id": tid, "exit": exit_code, "action": self.rng.choice(ACTIONS), "pgid": rec[2]}
                t = threading.Thread(target=lambda r=run, rc=rec: r.update(hit=self.disrupt(r["action"], r["id"], rc)))
                t.start()
                run["thread"] = t
                live.append(run)
            if time.monotonic() - last_zombie_check > 0.5:
                self.watch_zombies()
                last_zombie_check = time.monotonic()
            tasks = self.tasks()
            for run in list(live):
                if run["thread"].is_alive() or tasks.get(run["id"], {}).get("state") != "completed":
                    continue
                live.remove(run)
                why = self.judge(run, tasks[run["id"]])
                time.sleep(0.2)
                left = self.group_left(run["pgid"])
                if left:
                    why = (why + "; " if why else "") + "%d process(es) of its group left" % len(left)
                if why:
                    failures.append("%s: %s" % (run["id"], why))
                info = tasks[run["id"]].get("executionInfo", {})
                results.append({"id": run["id"], "action": run["action"], "hit": run["hit"],
                                "exit": info.get("exitCode"),
                                "failure": info.get("failureInfo", {}).get("code", "")})
            time.sleep(0.1)
        self.tui.send_signal(signal.SIGTERM)
        self.tui.wait(timeout=30)
        time.sleep(1.0)
        orphans = [p for p in all_pids() if p != os.getpid() and has_token(p, self.token.encode())
                   and proc_stat(p) and proc_stat(p)[0] != "Z"]
        if orphans:
            failures.append("%d orphan process(es): %s" % (len(orphans), orphans))
            for p in orphans:
                os.kill(p, signal.SIGKILL)
        if self.lasting_zombies:
            failures.append("%d zombie(s) of trainyard processes lasted over a second" %
                            len(self.lasting_zombies))
        self.reaper.stop = True
        by_action = collections.Counter((r["action"], r["failure"] or "ok", r["exit"]) for r in results)
        return {"runs": len(results), "tui_kills": self.tui_kills,
                "disruptions_that_hit": sum(1 for r in results if r["hit"]),
                "outcomes": [{"action": a, "failure": f, "exit": e, "runs": n}
                             for (a, f, e), n in sorted(by_action.items(), key=str)],
                "orphans": len(orphans), "zombies": len(self.lasting_zombies), "failures": failures}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("exe")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--parallel", type=int, default=4)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    workdir = tempfile.mkdtemp(prefix="trainyard-crash-local-")
    try:
        report = Bench(os.path.abspath(a.exe), workdir, a.seed).run(a.runs, a.parallel)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if a.json:
        print(json.dumps(report, indent=2))
    else:
        print("%(runs)d runs, %(disruptions_that_hit)d disruptions hit a live run, %(tui_kills)d TUI kills; "
              "orphans %(orphans)d, lasting zombies %(zombies)d" % report)
        for o in report["outcomes"]:
            print("  %-10s -> exit %-4s %-18s x%d" % (o["action"], o["exit"], o["failure"], o["runs"]))
    for f in report["failures"]:
        print("FAIL:", f, file=sys.stderr)
    return 1 if report["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())

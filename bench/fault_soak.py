#!/usr/bin/env python3
"""Fault soak: the TUI follows an emulator account for MINUTES while the emulator answers 30% of
requests with faults of every kind (429, 503, 500, reset, truncate) and actions are issued
through the CLI meanwhile. Then the faults stop, the TUI settles and quits, and its cache is
compared with the emulator's state field by field.

    bench/fault_soak.py build-rel/app/trainyard [--minutes 10] [--json]

Reports: TUI crashes (must be 0), its longest frame (wake-up to drawn, from
TRAINYARD_FRAME_STATS), the requests the service faulted (each one retried or re-polled), the
actions issued and how they ended, and every difference between cache and service (must be
none): an entity lost, one left that was deleted, or a field that differs; and every action the
CLI acknowledged against the service (must hold: none lost, undone or applied twice). Exit 0 only
when there was no crash, no difference and no such action. Loopback only; everything lives in a temporary directory.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "emulator"))
from emulator_http_test import API, Emulator  # noqa: E402  (the tests' own signer and launcher)

FAULTS = "429=0.08,503=0.08,500=0.06,reset=0.04,truncate=0.04,retry-after=0,seed=11"
SESSION = "trainyard-soak-%d" % os.getpid()
PANES = ["jobs", "pools", "tasks"]
# The poller's longest wait after throttling (BatchPoller::Options::max_backoff).
MAX_BACKOFF_S = 60


def tmux(*args, check=False):
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=check)


class Soak:
    def __init__(self, exe, workdir, seed):
        self.exe = os.path.abspath(exe)
        self.dir = workdir
        self.rng = random.Random(seed)
        self.emu = Emulator(self.exe, "--seed-tasks", "2000")
        self.env = dict(os.environ, TRAINYARD_DATA_DIR=os.path.join(workdir, "data"),
                        XDG_CONFIG_HOME=os.path.join(workdir, "config"),
                        HOME=os.path.join(workdir, "home"), **self.emu.env)
        self.env.pop("TRAINYARD_ACCOUNT", None)
        conf = os.path.join(workdir, "config", "trainyard")
        os.makedirs(conf)
        with open(os.path.join(conf, "config.json"), "w") as f:
            json.dump({"version": 1, "poll": {"focusSeconds": 1, "backgroundSeconds": 5,
                                               "requestsPerSecond": 20}}, f)
        self.frames = os.path.join(workdir, "frames.json")
        self.crashes = 0
        self.actions = {}
        self.added = []
        self.log = []  # (kind, id, exit code) of every action, in order

    # ---- the TUI under tmux ----
    def start_tui(self):
        env = " ".join("%s=%s" % (k, self.env[k]) for k in
                       ("TRAINYARD_DATA_DIR", "XDG_CONFIG_HOME", "HOME", "AZURE_BATCH_ACCOUNT",
                        "AZURE_BATCH_ENDPOINT", "AZURE_BATCH_ACCESS_KEY"))
        cmd = "env %s TRAINYARD_FRAME_STATS=%s %s --account %s --open jobs; echo EXITED $? > %s/tui.exit; sleep 600" % (
            env, self.frames, self.exe, self.emu.account, self.dir)
        tmux("kill-session", "-t", SESSION)
        tmux("new-session", "-d", "-s", SESSION, "-x", "160", "-y", "48", cmd, check=True)

    def tui_exited(self):
        return os.path.exists(os.path.join(self.dir, "tui.exit"))

    def keys(self, *names):
        tmux("send-keys", "-t", SESSION, *names)

    def show(self, pane):
        # Escape back to the top, then open the pane by its command.
        self.keys("Escape", "Escape", "Escape")
        self.keys(":", *list(pane), "Enter")

    # ---- actions through the CLI (which meets the faults too) ----
    def cli(self, *args):
        r = subprocess.run([self.exe, "--data-dir", os.path.join(self.dir, "cli-data"), *args],
                           env=self.env, capture_output=True, text=True, timeout=300)
        return r.returncode

    def act(self, n):
        kind = self.rng.choice(["add", "add", "add", "terminate", "delete", "job"])
        if kind == "add":
            tid = "s%05d" % n
            target = tid
            code = self.cli("run", "--account", self.emu.account, "--job", "soak", "--pool", "seed-cpu",
                            "--id", tid, "--", "sh", "-c", "echo loss=0.%d; sleep %d; exit %d" % (
                                n % 10, n % 3, n % 4 == 0))
            if code == 0:
                self.added.append(tid)
        elif kind == "terminate" and self.added:
            target = self.rng.choice(self.added)
            code = self.cli("task", "terminate", "--account", self.emu.account, "soak/" + target)
        elif kind == "delete" and len(self.added) > 5:
            target = self.added.pop(self.rng.randrange(len(self.added)))
            code = self.cli("task", "delete", "--account", self.emu.account, "soak/" + target)
            if code != 0:
                self.added.append(target)  # may still be there: judged as unknown below
        else:
            kind = "job"
            target = "extra%03d" % n
            code = self.cli("job", "create", "--account", self.emu.account, "--id", target,
                            "--pool", "seed-cpu")
        self.log.append((kind, target, code))
        self.actions.setdefault(kind, {}).setdefault(code, 0)
        self.actions[kind][code] += 1

    # ---- the comparison ----
    def service(self, path):
        items, next_path = [], path
        while next_path:
            s, _, body = self.emu.json("GET", next_path)
            if s != 200:
                raise RuntimeError("GET %s: %s %s" % (next_path, s, body))
            items += body["value"]
            link = body.get("odata.nextLink")
            next_path = link[link.index("/", 8):] if link else None
        return items

    def cache(self, *what):
        r = subprocess.run([self.exe, "ls", *what, "--account", self.emu.account, "--offline", "--json"],
                           env=self.env, capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            raise RuntimeError("ls %s: %s" % (" ".join(what), r.stderr))
        return json.loads(r.stdout)

    def compare(self):
        diffs = []

        def same(kind, svc, cached, fields):
            s = {x["id"]: x for x in svc}
            c = {x["id"]: x for x in cached}
            for i in sorted(set(s) - set(c)):
                diffs.append("%s %s: in the service, not in the cache" % (kind, i))
            for i in sorted(set(c) - set(s)):
                diffs.append("%s %s: in the cache, gone from the service" % (kind, i))
            for i in sorted(set(s) & set(c)):
                for f in fields:
                    a, b = pick(s[i], f), pick(c[i], f)
                    if a != b:
                        diffs.append("%s %s: %s is %r in the service, %r in the cache" % (kind, i, f, a, b))

        jobs = self.service("/jobs?" + API)
        same("job", jobs, self.cache("jobs"), ["state", "poolInfo/poolId"])
        same("pool", self.service("/pools?" + API), self.cache("pools"),
             ["state", "allocationState", "currentDedicatedNodes"])
        for j in jobs:
            svc = self.service("/jobs/%s/tasks?%s" % (j["id"], API))
            same("task %s/" % j["id"], svc, self.cache("tasks", "--job", j["id"]),
                 ["state", "executionInfo/exitCode", "executionInfo/result", "executionInfo/retryCount",
                  "commandLine"])
        return diffs, len(jobs)

    def tally(self):
        """Each action the CLI reported done is in the service exactly once; none is undone or
        applied again (a retried add after a delete would bring the task back). Actions that
        failed may or may not have been applied: they are counted, not judged."""
        wrong, unknown = [], 0
        tasks = {t["id"]: t for t in self.service("/jobs/soak/tasks?" + API)}
        jobs = {j["id"] for j in self.service("/jobs?" + API)}
        expected, failed_adds = set(), set()
        for kind, target, code in self.log:
            if code != 0:
                unknown += 1
                if kind == "add":
                    failed_adds.add(target)
                elif kind == "delete":
                    expected.discard(target)  # either way is right
                    failed_adds.add(target)
                continue
            if kind == "add":
                expected.add(target)
            elif kind == "delete":
                expected.discard(target)
                if target in tasks:
                    wrong.append("task %s: deleted, yet in the service" % target)
            elif kind == "terminate" and target in tasks and tasks[target]["state"] != "completed":
                wrong.append("task %s: terminated, yet %s" % (target, tasks[target]["state"]))
            elif kind == "job" and target not in jobs:
                wrong.append("job %s: created, yet not in the service" % target)
        for t in sorted(expected - set(tasks)):
            wrong.append("task %s: added, yet not in the service" % t)
        for t in sorted(set(tasks) - expected - failed_adds):
            wrong.append("task %s: in the service, yet no action left it there" % t)
        return wrong, unknown


def pick(obj, path):
    for part in path.split("/"):
        if not isinstance(obj, dict) or part not in obj:
            return None
        obj = obj[part]
    return obj


def run(args):
    workdir = tempfile.mkdtemp(prefix="trainyard-soak-")
    soak = Soak(args.bin, workdir, args.seed)
    t_start = time.time()
    try:
        soak.emu.json("POST", "/__trainyard/faults?" + API, {"spec": FAULTS})
        soak.emu.json("POST", "/__trainyard/reset-counters?" + API, {})
        soak.start_tui()
        end = time.time() + args.minutes * 60
        n = 0
        while time.time() < end:
            if soak.tui_exited():
                soak.crashes += 1
                soak.start_tui()
            if n % 5 == 0:
                soak.show(PANES[(n // 5) % len(PANES)])
            soak.act(n)
            n += 1
            time.sleep(args.pace)
        s, _, counters = soak.emu.json("GET", "/__trainyard/counters?" + API)
        soak.emu.json("POST", "/__trainyard/faults?" + API, {"spec": ""})
        # Settle without faults: the job list in focus gets every job's counts each pass. A
        # poller that backed off during the faults waits up to its longest backoff (60 s) before
        # its next pass, so after the first `--settle` seconds the cache is compared every few
        # seconds until it matches or that bound has passed too.
        soak.show("jobs")
        settle_start = time.time()
        time.sleep(args.settle)
        while time.time() < settle_start + args.settle + MAX_BACKOFF_S and soak.compare()[0]:
            time.sleep(3)
        settled_s = round(time.time() - settle_start, 1)
        crashed_at_end = soak.tui_exited()
        # The emulator's idle dedicated nodes bill: `q` asks first, and `y` answers.
        soak.keys("q")
        for i in range(100):
            if soak.tui_exited():
                break
            if i == 20:
                soak.keys("y")
            time.sleep(0.1)
        with open(os.path.join(workdir, "tui.exit")) as f:
            tui_exit = f.read().split()[-1]
        diffs, jobs = soak.compare()
        wrong, unknown = soak.tally()
        frames = json.load(open(soak.frames)) if os.path.exists(soak.frames) else {}
        statuses = counters.get("statuses", {}) if s == 200 else {}
        faulted = sum(v for k, v in statuses.items() if k in ("429", "500", "503"))
        report = {
            "minutes": args.minutes,
            "wall_s": round(time.time() - t_start, 1),
            "settled_s": settled_s,
            "crashes": soak.crashes + (1 if crashed_at_end else 0),
            "tui_exit": tui_exit,
            "frames": frames,
            "requests": counters.get("requests") if s == 200 else None,
            "faulted_status_responses": faulted,
            "statuses": statuses,
            "actions": soak.actions,
            "tasks_added": len(soak.added),
            "jobs_compared": jobs,
            "differences": diffs[:50],
            "difference_count": len(diffs),
            "actions_not_as_acknowledged": wrong,
            "actions_failed_outcome_unknown": unknown,
        }
        return report
    finally:
        tmux("kill-session", "-t", SESSION)
        soak.emu.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("bin")
    p.add_argument("--minutes", type=float, default=10)
    p.add_argument("--pace", type=float, default=1.0, help="seconds between actions")
    p.add_argument("--settle", type=float, default=25, help="seconds without faults before comparing")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    if not shutil.which("tmux"):
        print("fault_soak: tmux is needed", file=sys.stderr)
        return 2
    report = run(args)
    if args.json:
        print(json.dumps(report, indent=1, sort_keys=True))
    else:
        for k in sorted(report):
            print("%-26s %s" % (k, report[k]))
    ok = (report["crashes"] == 0 and report["difference_count"] == 0 and report["tui_exit"] == "0"
          and not report["actions_not_as_acknowledged"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

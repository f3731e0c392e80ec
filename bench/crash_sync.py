#!/usr/bin/env python3
"""Crash safety of the cache and of the emulator's state file under `kill -9`.

    bench/crash_sync.py build-rel/app/trainyard [--kills 50] [--tasks 100000] [--json]
                        [--emulator-kills 50]

Sync: an emulator account holds a job of TASKS tasks. `trainyard sync` is started and killed with
SIGKILL at a random moment, KILLS times in a row; each following start is the resume. After every
kill the cache must pass `PRAGMA integrity_check` and keep every task it had stored; after the last
kill one run goes to the end and the cache must hold exactly the service's tasks. The task-list
bytes every run fetched (the emulator's counters) are compared with what the passes needed: a
killed pass that started over would fetch its stored pages again.

Emulator: the emulator runs with `--state`, tasks are added in collections of 100, and it is
killed with SIGKILL at a random moment, EMULATOR_KILLS times (EMULATOR_RATE collections a second;
--emulator-rate 1000 is as fast as it answers); the kill comes from a timer, so it can land while
an add is being answered. Every restart must load the state file and list every task whose add was
acknowledged (the journal makes each acknowledged change durable before the answer goes out).

Exit 0 only when every check held. Loopback only; everything lives in a temporary directory.
"""
import argparse
import http.client
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "emulator"))
from emulator_http_test import API, Emulator  # noqa: E402  (the tests' own signer and launcher)

TASK_LIST = "GET /jobs/{}/tasks"


def counters(emu):
    status, _, body = emu.json("GET", "/__trainyard/counters?" + API)
    if status != 200:
        raise RuntimeError("counters: %s %s" % (status, body))
    p = body.get("paths", {}).get(TASK_LIST, {})
    return p.get("requests", 0), p.get("bytes", 0)


def cache_state(db):
    """(integrity_check result, task count, tasks-scope resume link) of a cache.db, read-only."""
    if not os.path.exists(db):
        return "ok", 0, ""
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True, timeout=30)
    try:
        check = "; ".join(r[0] for r in con.execute("PRAGMA integrity_check"))
        count = con.execute("SELECT count(*) FROM tasks WHERE account != 'local'").fetchone()[0]
        link = con.execute("SELECT coalesce(max(resume_link), '') FROM sync_marks "
                           "WHERE scope LIKE 'tasks/%'").fetchone()[0]
        return check, count, link
    finally:
        con.close()


class SyncCrash:
    def __init__(self, exe, workdir, tasks, rng):
        self.exe, self.dir, self.tasks, self.rng = exe, workdir, tasks, rng
        self.emu = Emulator(exe, "--seed-tasks", str(tasks))
        self.env = dict(os.environ, TRAINYARD_DATA_DIR=os.path.join(workdir, "data"),
                        XDG_CONFIG_HOME=os.path.join(workdir, "config"),
                        HOME=os.path.join(workdir, "home"), **self.emu.env)
        self.db = os.path.join(workdir, "data", "cache.db")

    def start(self):
        return subprocess.Popen([self.exe, "sync", "--account", self.emu.account], env=self.env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def full_pass(self):
        """Seconds and task-list bytes of one uninterrupted sync into an empty cache."""
        shutil.rmtree(os.path.join(self.dir, "data"), ignore_errors=True)
        _, b0 = counters(self.emu)
        t0 = time.monotonic()
        p = self.start()
        _, err = p.communicate(timeout=600)
        if p.returncode != 0:
            raise RuntimeError("sync failed: %s" % err.strip())
        seconds = time.monotonic() - t0
        _, b1 = counters(self.emu)
        shutil.rmtree(os.path.join(self.dir, "data"))
        return seconds, b1 - b0

    def run(self, kills):
        seconds, full_bytes = self.full_pass()
        runs, failures, fetched, fresh_passes = [], [], 0, 0
        stored = 0
        for i in range(kills + 1):
            had_resume = cache_state(self.db)[2] != ""
            fresh_passes += 0 if had_resume else 1
            _, b0 = counters(self.emu)
            p = self.start()
            last = i == kills
            if last:
                p.communicate(timeout=600)
            else:
                time.sleep(self.rng.uniform(0.05, seconds))
                p.send_signal(signal.SIGKILL)
                p.communicate()
            completed = p.returncode == 0
            _, b1 = counters(self.emu)
            fetched += b1 - b0
            check, count, link = cache_state(self.db)
            if check != "ok":
                failures.append("run %d: integrity_check: %s" % (i, check))
            if had_resume and count < stored:
                failures.append("run %d: %d tasks stored before, %d after" % (i, stored, count))
            stored = count
            runs.append({"run": i, "killed": not last and not completed, "completed": completed,
                         "resumed": had_resume, "tasks_cached": count, "bytes": b1 - b0})
        if stored != self.tasks:
            failures.append("after the last run the cache holds %d of %d tasks" % (stored, self.tasks))
        return {
            "tasks": self.tasks, "full_pass_seconds": round(seconds, 2), "full_pass_bytes": full_bytes,
            "kills": sum(r["killed"] for r in runs), "runs": len(runs),
            "runs_resumed": sum(r["resumed"] for r in runs),
            "passes_started_fresh": fresh_passes, "task_list_bytes_fetched": fetched,
            "fetched_over_needed": round(fetched / (fresh_passes * full_bytes), 3),
            "failures": failures, "detail": runs,
        }

    def stop(self):
        self.emu.stop()


class EmulatorCrash:
    def __init__(self, exe, workdir, rng, rate):
        self.exe, self.rng, self.rate = exe, rng, rate
        self.state = os.path.join(workdir, "emulator-state.json")
        self.key = None
        self.acked = set()

    def launch(self):
        emu = Emulator(self.exe, "--state", self.state, key=self.key)
        self.key = emu.key
        return emu

    def add_some(self, emu, n):
        ids = ["t%07d" % (n * 100 + k) for k in range(100)]
        body = {"value": [{"id": t, "commandLine": "true"} for t in ids]}
        status, _, _ = emu.json("POST", "/jobs/held/addtaskcollection?" + API, body)
        if status == 200:
            self.acked.update(ids)

    def present(self, emu):
        ids, path = set(), "/jobs/held/tasks?" + API + "&$select=id"
        while path:
            status, _, body = emu.json("GET", path)
            if status != 200:
                raise RuntimeError("list: %s %s" % (status, body))
            ids.update(t["id"] for t in body["value"])
            link = body.get("odata.nextLink")
            path = link[link.index("/", 8):] if link else None
        return ids

    def run(self, kills):
        emu = self.launch()
        # A pool without nodes: the tasks stay queued, so only the adds change the state.
        emu.json("POST", "/pools?" + API, {"id": "empty", "vmSize": "standard_d2s_v3",
                                           "targetDedicatedNodes": 0,
                                           "virtualMachineConfiguration": {
                                               "imageReference": {"publisher": "canonical"},
                                               "nodeAgentSKUId": "batch.node.ubuntu 22.04"}})
        emu.json("POST", "/jobs?" + API, {"id": "held", "poolInfo": {"poolId": "empty"}})
        time.sleep(1.5)  # saved: the job outlives the first kill
        failures, lost, batch = [], [], 0
        for i in range(kills):
            killer = threading.Timer(self.rng.uniform(0.5, 5.0), emu.proc.send_signal, (signal.SIGKILL,))
            killer.start()
            while killer.is_alive():
                t0 = time.monotonic()
                try:
                    self.add_some(emu, batch)
                except (OSError, http.client.HTTPException, ValueError):
                    break  # killed while answering: that add's outcome is unknown
                batch += 1
                time.sleep(max(0.0, 1.0 / self.rate - (time.monotonic() - t0)))
            killer.join()
            emu.proc.wait()
            try:
                emu = self.launch()
            except Exception as e:  # noqa: BLE001  (a restart that fails is the finding)
                failures.append("restart %d failed: %s" % (i, e))
                return {"failures": failures}
            have = self.present(emu)
            missing = self.acked - have
            lost.append(len(missing))
            self.acked -= missing  # counted once; later restarts are judged on the rest
        emu.stop()
        if sum(lost):
            failures.append("%d acknowledged tasks lost over %d kills" % (sum(lost), kills))
        return {"kills": kills, "adds_per_second": self.rate * 100, "acknowledged_tasks": len(self.acked) + sum(lost),
                "restarts_loaded": kills, "lost_acknowledged_max": max(lost),
                "lost_acknowledged_total": sum(lost), "failures": failures}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("exe")
    ap.add_argument("--kills", type=int, default=50)
    ap.add_argument("--tasks", type=int, default=100000)
    ap.add_argument("--emulator-kills", type=int, default=50)
    ap.add_argument("--emulator-rate", type=float, default=10,
                    help="task collections (100 tasks) added per second while the emulator is killed")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    exe = os.path.abspath(a.exe)
    rng = random.Random(a.seed)
    workdir = tempfile.mkdtemp(prefix="trainyard-crash-")
    try:
        s = SyncCrash(exe, workdir, a.tasks, rng)
        try:
            sync = s.run(a.kills)
        finally:
            s.stop()
        emulator = EmulatorCrash(exe, workdir, rng, a.emulator_rate).run(a.emulator_kills)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    report = {"sync": sync, "emulator": emulator}
    if a.json:
        print(json.dumps(report, indent=2))
    else:
        print("sync: %(tasks)d tasks, a full pass %(full_pass_seconds)ss and %(full_pass_bytes)d bytes" % sync)
        print("  %(kills)d kills over %(runs)d runs (%(runs_resumed)d resumed), %(passes_started_fresh)d "
              "passes started fresh; task-list bytes fetched / needed = %(fetched_over_needed)s" % sync)
        print("emulator: %(kills)d kills, every restart loaded its state; acknowledged tasks lost: "
              "max %(lost_acknowledged_max)d per kill, %(lost_acknowledged_total)d of "
              "%(acknowledged_tasks)d in all" % emulator if "kills" in emulator else "emulator: failed")
    failures = sync["failures"] + emulator["failures"]
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

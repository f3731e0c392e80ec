#!/usr/bin/env python3
"""`trainyard emulator --state`: what it keeps, whatever the ids, and what it refuses to load.

Changes to a pool and a job named `files` survive `kill -9` between two snapshots (the journal
decides from the route, not from the path's text); a hand-edited state file with a float or a
huge number in an integer field is a one-line error naming the file and the field, and nothing
is written; a file whose name is not valid UTF-8 does not break a file listing.

    emulator_data_test.py PATH/TO/trainyard
"""
import json
import os
import subprocess
import sys
import tempfile
import time

from emulator_http_test import API, RESULTS, Emulator, check, wait_for


def wait_for_snapshot(state, timeout=10):
    """Polls closely until the state file exists: the ticker has just written a snapshot."""
    end = time.time() + timeout
    while time.time() < end and not os.path.exists(state):
        time.sleep(0.005)
    return os.path.exists(state)


def test_files_named_ids_survive_kill(exe, workdir):
    state = os.path.join(workdir, "files.json")
    e = Emulator(exe, "--state", state)
    key = e.key
    try:
        e.json("POST", "/pools?" + API, {"id": "files", "vmSize": "standard_d2s_v3", "targetDedicatedNodes": 0})
        e.json("POST", "/jobs?" + API, {"id": "files", "poolInfo": {"poolId": "files"}})
        # Right after a snapshot: the next one (a second later at the soonest) comes after the kill.
        snapshot = wait_for_snapshot(state)
        acked = [e.json("POST", "/pools/files/resize?" + API, {"targetDedicatedNodes": 2})[0],
                 e.json("POST", "/jobs/files/tasks?" + API, {"id": "t1", "commandLine": "true"})[0],
                 e.json("POST", "/jobs/files/terminate?" + API, {"terminateReason": "by-test"})[0]]
    finally:
        e.proc.kill()
        e.proc.wait()
    e = Emulator(exe, "--state", state, key=key)
    try:
        _, _, pool = e.json("GET", "/pools/files?" + API)
        s_task, _, _ = e.json("GET", "/jobs/files/tasks/t1?" + API)
        _, _, job = e.json("GET", "/jobs/files?" + API)
        check("a resize, a task add and a terminate on ids named files survive kill -9",
              snapshot and acked == [202, 201, 202] and pool["targetDedicatedNodes"] == 2 and s_task == 200 and
              job["state"] in ("terminating", "completed") and
              job.get("executionInfo", {}).get("terminateReason") == "by-test",
              (snapshot, acked, pool.get("targetDedicatedNodes"), s_task, job.get("state")))
    finally:
        e.stop()


def make_state(exe, workdir):
    """A stopped emulator's state file with one pool, one job and one finished task; and its key."""
    state = os.path.join(workdir, "ints.json")
    e = Emulator(exe, "--state", state)
    try:
        e.json("POST", "/pools?" + API, {"id": "ip", "vmSize": "standard_d2s_v3", "targetDedicatedNodes": 1})
        e.json("POST", "/jobs?" + API, {"id": "ij", "poolInfo": {"poolId": "ip"}})
        e.json("POST", "/jobs/ij/tasks?" + API, {"id": "it", "commandLine": "true"})
        wait_for(lambda: e.json("GET", "/jobs/ij/tasks/it?" + API)[2]["state"] == "completed", 30)
    finally:
        e.stop()
    return state, e.key


def start_refused(exe, key, state):
    try:
        return subprocess.run([exe, "emulator", "--port", "0", "--key", key, "--state", state],
                              capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired as started:  # it served instead of refusing
        return subprocess.CompletedProcess(started.cmd, None, "", str(started.stderr or ""))


def test_state_integers(exe, workdir):
    state, key = make_state(exe, workdir)
    good = json.load(open(state))
    # (what is edited, the place the error must name, the value)
    edits = [(lambda d, v: d["pools"][0].__setitem__("targetDedicated", v), "pools[0].targetDedicated", 1.5),
             (lambda d, v: d["jobs"][0]["tasks"][0]["exec"].__setitem__("start", v),
              "jobs[0].tasks[0].exec.start", 1e30),
             (lambda d, v: d.__setitem__("nodeSeq", v), "nodeSeq", -1),
             (lambda d, v: d["nodes"][0].__setitem__("run", v), "nodes[0].run", "3"),
             (lambda d, v: d.__setitem__("journalSeq", v), "journalSeq", 2.5),
             (lambda d, v: d["jobs"][0]["tasks"][0]["exec"].__setitem__("exitCode", v),
              "jobs[0].tasks[0].exec.exitCode", 2 ** 40)]
    for edit, place, value in edits:
        doc = json.loads(json.dumps(good))
        edit(doc, value)
        text = json.dumps(doc)
        with open(state, "w") as f:
            f.write(text)
        journal_before = open(state + ".journal").read()
        r = start_refused(exe, key, state)
        lines = r.stderr.strip().splitlines()
        check("%s = %r is a one-line error naming the file and the field, exit 2, nothing written" % (place, value),
              r.returncode == 2 and len(lines) == 1 and state + ": " + place in lines[0] and
              open(state).read() == text and open(state + ".journal").read() == journal_before,
              (r.returncode, r.stderr))
    with open(state, "w") as f:
        json.dump(good, f)
    e = Emulator(exe, "--state", state, key=key)
    try:
        check("the unedited state still loads", e.json("GET", "/jobs/ij/tasks/it?" + API)[0] == 200)
    finally:
        e.stop()


def test_invalid_utf8_file_name(exe):
    e = Emulator(exe)
    try:
        e.json("POST", "/pools?" + API, {"id": "up", "vmSize": "standard_d2s_v3", "targetDedicatedNodes": 1})
        e.json("POST", "/jobs?" + API, {"id": "uj", "poolInfo": {"poolId": "up"}})
        e.json("POST", "/jobs/uj/tasks?" + API,
               {"id": "ut", "commandLine": "printf x > \"$(printf 'bad\\377name')\"; printf y > good.txt"})
        wait_for(lambda: e.json("GET", "/jobs/uj/tasks/ut?" + API)[2]["state"] == "completed", 30)
        s, _, listing = e.json("GET", "/jobs/uj/tasks/ut/files?recursive=true&" + API)
        names = sorted(f["name"] for f in listing["value"]) if s == 200 else []
        check("a task's listing with a non-UTF-8 name is 200 and lists the others",
              s == 200 and "wd/good.txt" in names and "stdout.txt" in names, (s, listing))
        check("the non-UTF-8 name is left out (no name in it could be fetched)",
              not [n for n in names if "name" in n and n.startswith("wd/bad")], names)
        _, _, node = e.json("GET", "/jobs/uj/tasks/ut?" + API)
        node_id = node["nodeInfo"]["nodeId"]
        s, _, _ = e.json("GET", "/pools/up/nodes/%s/files?recursive=true&%s" % (node_id, API))
        check("the node's recursive listing is 200 too", s == 200, s)
        s, _, body = e.call("GET", "/jobs/uj/tasks/ut/files/wd/bad%FFname?" + API)
        check("the file is still read by its percent-encoded bytes", s == 200 and body == b"x", (s, body))
    finally:
        e.stop()


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="trainyard-emu-data-") as workdir:
        os.environ["TMPDIR"] = workdir
        test_files_named_ids_survive_kill(exe, workdir)
        test_state_integers(exe, workdir)
        test_invalid_utf8_file_name(exe)
    print("%d passed, %d failed" % (RESULTS["passed"], RESULTS["failed"]))
    return 1 if RESULTS["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())

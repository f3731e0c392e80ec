#!/usr/bin/env python3
"""Pages per second and latency percentiles of `trainyard emulator` at scale.

Starts `trainyard emulator --seed-tasks N` pinned to one core (taskset), then pages through the
seeded job's tasks on the other core with `maxresults=1000`, following `odata.nextLink`, in the
shapes a client asks for: `$select`ed pages (what a poller uses) and full pages. Prints pages/s,
tasks/s, latency p50/p90/p99/max per shape, the server's RSS, and the seeding time.

    bench/emulator_bench.py build-bench/app/trainyard [--tasks 1000000] [--pages 400]

Signing is this script's own (Python's hmac), sharing nothing with the emulator or the client.
"""
import argparse
import base64
import hashlib
import hmac
import http.client
import os
import signal
import statistics
import subprocess
import sys
import time
import urllib.parse
from email.utils import formatdate

SELECT = "id,state,stateTransitionTime,executionInfo"


def sign(method, path_and_query, account, key, headers):
    parsed = urllib.parse.urlsplit(path_and_query)
    query = urllib.parse.parse_qsl(parsed.query, keep_blank_values=False)
    canon_res = "/" + account + parsed.path
    for name, value in sorted((k.lower(), v) for k, v in query):
        canon_res += "\n%s:%s" % (name, value)
    ocp = "".join("%s:%s\n" % (k, v) for k, v in sorted(headers.items()) if k.startswith("ocp-"))
    to_sign = "\n".join([method, "", "", "", "", "", "", "", "", "", "", ""]) + "\n" + ocp + canon_res
    mac = hmac.new(base64.b64decode(key), to_sign.encode(), hashlib.sha256).digest()
    return "SharedKey %s:%s" % (account, base64.b64encode(mac).decode())


def get(conn, path, account, key):
    headers = {"ocp-date": formatdate(usegmt=True)}
    headers["Authorization"] = sign("GET", path, account, key, headers)
    t0 = time.perf_counter()
    conn.request("GET", path, headers=headers)
    resp = conn.getresponse()
    body = resp.read()
    return time.perf_counter() - t0, resp.status, body


def start_emulator(exe, tasks, key, core):
    cmd = ["taskset", "-c", str(core), exe, "emulator", "--port", "0", "--key", key,
           "--seed-tasks", str(tasks)]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    endpoint = None
    for line in proc.stdout:
        if line.startswith("export AZURE_BATCH_ENDPOINT="):
            endpoint = line.split("=", 1)[1].strip()
        if line.startswith("export AZURE_BATCH_ACCESS_KEY="):
            break
    return proc, endpoint, time.perf_counter() - t0


def rss_mb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def run_shape(host, port, account, key, select, pages):
    conn = http.client.HTTPConnection(host, port, timeout=60)
    path = "/jobs/seed-sweep/tasks?api-version=2025-06-01&maxresults=1000"
    if select:
        path += "&$select=" + urllib.parse.quote(select)
    latencies, tasks, nbytes = [], 0, 0
    t0 = time.perf_counter()
    while path and len(latencies) < pages:
        dt, status, body = get(conn, path, account, key)
        if status != 200:
            sys.exit("page failed: HTTP %d %s" % (status, body[:200]))
        latencies.append(dt)
        nbytes += len(body)
        tasks += body.count(b'"id":"task-')
        link = body.rfind(b'"odata.nextLink":"')
        if link < 0:
            break
        url = body[link + 18:body.index(b'"', link + 18)].decode()
        path = url[url.index("/", 8):]
    wall = time.perf_counter() - t0
    return {"pages": len(latencies), "tasks": tasks, "bytes": nbytes, "wall": wall,
            "latencies": latencies}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trainyard")
    ap.add_argument("--tasks", type=int, default=1000000)
    ap.add_argument("--pages", type=int, default=400)
    args = ap.parse_args()
    key = base64.b64encode(os.urandom(64)).decode()
    cores = os.sched_getaffinity(0)
    server_core = max(cores)
    os.sched_setaffinity(0, {c for c in cores if c != server_core} or cores)
    proc, endpoint, seed_s = start_emulator(args.trainyard, args.tasks, key, server_core)
    try:
        host, port = urllib.parse.urlsplit(endpoint).hostname, urllib.parse.urlsplit(endpoint).port
        print("emulator: %d seeded tasks in %.1f s (start to listening), server on core %d"
              % (args.tasks, seed_s, server_core))
        print("RSS after seeding: %.0f MB" % rss_mb(proc.pid))
        print("%-10s %6s %9s %9s %8s %8s %8s %8s %9s" % ("shape", "pages", "pages/s", "tasks/s",
                                                         "p50 ms", "p90 ms", "p99 ms", "max ms", "KB/page"))
        for name, select in (("$select", SELECT), ("full", None)):
            r = run_shape(host, port, "emulator", key, select, args.pages)
            lat = [x * 1000 for x in r["latencies"]]
            print("%-10s %6d %9.1f %9.0f %8.2f %8.2f %8.2f %8.2f %9.1f" % (
                name, r["pages"], r["pages"] / r["wall"], r["tasks"] / r["wall"],
                statistics.median(lat), percentile(lat, 90), percentile(lat, 99), max(lat),
                r["bytes"] / r["pages"] / 1024))
        print("RSS after paging: %.0f MB" % rss_mb(proc.pid))
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


if __name__ == "__main__":
    main()

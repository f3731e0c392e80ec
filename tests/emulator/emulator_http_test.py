#!/usr/bin/env python3
"""`trainyard emulator` over plain HTTP: what the SDK conformance scripts do not reach.

Request ids, api-versions, SharedKey failures, bearer tokens (token endpoint, IMDS, management
plane, served with --identity), fault injection and counters, `--state` across a restart,
`--seed-tasks` paging, autoscale, node counts, job and node actions. Uses only the standard
library and signs requests itself.

    emulator_http_test.py PATH/TO/trainyard
"""
import base64
import hashlib
import hmac
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from email.utils import formatdate

API = "api-version=2025-06-01"
RESULTS = {"passed": 0, "failed": 0}


def check(name, ok, detail=""):
    RESULTS["passed" if ok else "failed"] += 1
    print("%s %s%s" % ("PASS" if ok else "FAIL", name, "" if ok else ": " + str(detail)[:400]))


class Emulator:
    def __init__(self, exe, *extra, key=None, env=None):
        """`env`: the emulator's whole environment; with TRAINYARD_EMULATOR_KEY in it, no --key."""
        self.key = key or (env or {}).get("TRAINYARD_EMULATOR_KEY") or base64.b64encode(os.urandom(64)).decode()
        key_args = [] if (env or {}).get("TRAINYARD_EMULATOR_KEY") else ["--key", self.key]
        self.proc = subprocess.Popen([exe, "emulator", "--port", "0", *key_args, "--node-step-ms", "100", *extra],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.env = {}
        for line in self.proc.stdout:
            name, _, value = line.strip().removeprefix("export ").partition("=")
            self.env[name] = value
            if name == "AZURE_BATCH_ACCESS_KEY":
                break
        url = urllib.parse.urlsplit(self.env["AZURE_BATCH_ENDPOINT"])
        self.host, self.port = url.hostname, url.port
        self.account = self.env["AZURE_BATCH_ACCOUNT"]

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def sign(self, method, path, headers, key=None):
        parsed = urllib.parse.urlsplit(path)
        resource = "/" + self.account + parsed.path
        for name, value in sorted(urllib.parse.parse_qsl(parsed.query)):
            resource += "\n%s:%s" % (name.lower(), value)
        lower = {k.lower(): v for k, v in headers.items()}
        ocp = "".join("%s:%s\n" % (k, v) for k, v in sorted(lower.items()) if k.startswith("ocp-"))
        fields = ["content-encoding", "content-language", "content-length", "content-md5", "content-type",
                  "date", "if-modified-since", "if-match", "if-none-match", "if-unmodified-since", "range"]
        text = method + "\n" + "\n".join(lower.get(f, "") for f in fields) + "\n" + ocp + resource
        mac = hmac.new(base64.b64decode(key or self.key), text.encode(), hashlib.sha256).digest()
        return "SharedKey %s:%s" % (self.account, base64.b64encode(mac).decode())

    def call(self, method, path, body=None, headers=None, sign=True, key=None, date=None):
        headers = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode() if not isinstance(body, (bytes, str)) else body
            if isinstance(data, str):
                data = data.encode()
            headers.setdefault("Content-Type", "application/json; odata=minimalmetadata")
            headers["Content-Length"] = str(len(data))
        elif method == "POST":
            headers["Content-Length"] = "0"
        headers["ocp-date"] = date or formatdate(usegmt=True)
        if sign and "Authorization" not in headers:
            headers["Authorization"] = self.sign(method, path, headers, key)
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            conn.request(method, path, body=data, headers=headers)
            resp = conn.getresponse()
            raw = resp.read()
            return resp.status, dict(resp.getheaders()), raw
        finally:
            conn.close()

    def json(self, method, path, body=None, **kw):
        status, headers, raw = self.call(method, path, body, **kw)
        try:
            return status, headers, json.loads(raw) if raw else None
        except ValueError:
            return status, headers, raw


def wait_for(fn, timeout=20.0):
    end = time.time() + timeout
    while time.time() < end:
        value = fn()
        if value:
            return value
        time.sleep(0.1)
    return None


def test_protocol(e):
    s, h, b = e.json("GET", "/pools")
    check("missing api-version is 400 MissingRequiredQueryParameter",
          s == 400 and b["code"] == "MissingRequiredQueryParameter" and "request-id" in h, (s, b))
    s, _, b = e.json("GET", "/pools?api-version=1999-01-01")
    check("unknown api-version is 400", s == 400 and b["code"] == "InvalidQueryParameterValue", (s, b))
    for v in ("2018-12-01.8.0", "2022-10-01.16.0", "2024-07-01.20.0", "2025-06-01"):
        s, _, _ = e.json("GET", "/pools?api-version=%s&timeout=30" % v)
        check("api-version %s accepted" % v, s == 200, s)
    s, _, _ = e.json("GET", "/pools?%s&timeOut=30" % API)
    check("timeOut spelling accepted", s == 200, s)
    s, h, _ = e.json("GET", "/pools?" + API, headers={"client-request-id": "abc-123", "return-client-request-id": "true"})
    check("client-request-id echoed", h.get("client-request-id") == "abc-123", h)
    s, h, b = e.json("GET", "/pools?" + API, key=base64.b64encode(b"wrong" * 8).decode())
    check("bad signature is 403 AuthenticationFailed with the string to sign",
          s == 403 and b["code"] == "AuthenticationFailed" and "string to sign" in json.dumps(b), (s, b))
    s, _, b = e.json("GET", "/pools?" + API, date=formatdate(time.time() - 16 * 60, usegmt=True))
    check("a request 16 minutes old is 403", s == 403 and b["code"] == "AuthenticationFailed", (s, b))
    s, _, b = e.json("GET", "/pools?" + API, sign=False)
    check("no Authorization is 403", s == 403, (s, b))


def test_pools_and_nodes(e):
    s, h, _ = e.json("POST", "/pools?" + API, {"id": "p", "vmSize": "standard_d2s_v3", "targetDedicatedNodes": 2,
                                               "taskSlotsPerNode": 2})
    check("pool add is 201 with ETag and DataServiceId", s == 201 and "ETag" in h and "DataServiceId" in h, (s, h))
    s, _, _ = e.call("HEAD", "/pools/p?" + API)
    s2, _, _ = e.call("HEAD", "/pools/nope?" + API)
    check("HEAD pool 200 / 404", (s, s2) == (200, 404), (s, s2))
    ok = wait_for(lambda: e.json("GET", "/pools/p?" + API)[2]["allocationState"] == "steady")
    s, h, pool = e.json("GET", "/pools/p?" + API)
    check("pool reaches steady with 2 nodes", ok and pool["currentDedicatedNodes"] == 2, pool)
    s, _, _ = e.json("GET", "/pools/p?" + API, headers={"If-None-Match": h["ETag"]})
    check("If-None-Match with the current ETag is 304", s == 304, s)
    s, _, b = e.json("PATCH", "/pools/p?" + API, {"metadata": [{"name": "a", "value": "b"}]}, headers={"If-Match": "0x1"})
    check("If-Match with a stale ETag is 412 ConditionNotMet", s == 412 and b["code"] == "ConditionNotMet", (s, b))
    idle = "/pools/p/nodes?%s&$filter=%s" % (API, urllib.parse.quote("state eq 'idle'"))
    wait_for(lambda: len(e.json("GET", idle)[2]["value"]) == 2)
    s, _, nodes = e.json("GET", idle)
    check("nodes filtered by state", s == 200 and len(nodes["value"]) == 2, nodes)
    node = nodes["value"][0]["id"]
    s, _, _ = e.json("POST", "/pools/p/nodes/%s/disablescheduling?%s" % (node, API), {})
    s2, _, n = e.json("GET", "/pools/p/nodes/%s?%s" % (node, API))
    check("disablescheduling", s == 200 and n["schedulingState"] == "disabled", (s, n))
    e.json("POST", "/pools/p/nodes/%s/enablescheduling?%s" % (node, API), {})
    s, _, rl = e.json("GET", "/pools/p/nodes/%s/remoteloginsettings?%s" % (node, API))
    check("remote login settings", s == 200 and rl["remoteLoginIPAddress"] == "127.0.0.1", rl)
    users = "/pools/p/nodes/%s/users?%s" % (node, API)
    key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB7 me@host"
    s, h, _ = e.call("POST", users, {"name": "ty-me", "sshPublicKey": key,
                                     "expiryTime": "2099-01-01T00:00:00Z"})
    check("add node user 201", s == 201, s)
    s, _, b = e.json("POST", users, {"name": "ty-me", "sshPublicKey": key})
    check("add the same user again is 409 NodeUserExists", s == 409 and b["code"] == "NodeUserExists", (s, b))
    s, _, b = e.json("POST", users, {"sshPublicKey": key})
    check("add user without a name is 400 MissingRequiredProperty",
          s == 400 and b["code"] == "MissingRequiredProperty" and
          {"key": "PropertyName", "value": "name"} in b["values"], (s, b))
    s, _, b = e.json("POST", users, {"name": "ty-old", "expiryTime": "2001-01-01T00:00:00Z"})
    check("add user expiring in the past is 400 InvalidPropertyValue expiryTime",
          s == 400 and b["code"] == "InvalidPropertyValue" and
          {"key": "PropertyName", "value": "expiryTime"} in b["values"], (s, b))
    s, _, b = e.json("POST", "/pools/p/nodes/nope/users?" + API, {"name": "ty-me"})
    check("add user on an unknown node is 404 NodeNotFound", s == 404 and b["code"] == "NodeNotFound", (s, b))
    s, _, _ = e.call("PUT", "/pools/p/nodes/%s/users/ty-me?%s" % (node, API),
                     {"sshPublicKey": key, "expiryTime": "2099-02-01T00:00:00Z"})
    s2, _, b = e.json("PUT", "/pools/p/nodes/%s/users/ty-nobody?%s" % (node, API), {"sshPublicKey": key})
    check("update node user 200; an unknown one is 404 NodeUserNotFound",
          s == 200 and s2 == 404 and b["code"] == "NodeUserNotFound", (s, s2, b))
    s, _, _ = e.call("DELETE", "/pools/p/nodes/%s/users/ty-me?%s" % (node, API))
    s2, _, b = e.json("DELETE", "/pools/p/nodes/%s/users/ty-me?%s" % (node, API))
    check("delete node user 200, then 404 NodeUserNotFound",
          s == 200 and s2 == 404 and b["code"] == "NodeUserNotFound", (s, s2, b))
    s, _, counts = e.json("GET", "/nodecounts?" + API)
    check("nodecounts", s == 200 and counts["value"][0]["dedicated"]["idle"] == 2 and
          counts["value"][0]["dedicated"]["total"] == 2, counts)
    s, _, imgs = e.json("GET", "/supportedimages?%s&$filter=%s" % (API, urllib.parse.quote("osType eq 'linux'")))
    check("supportedimages filtered", s == 200 and imgs["value"] and
          all(i["osType"] == "linux" for i in imgs["value"]), imgs)
    s, _, b = e.json("POST", "/pools/p/removenodes?" + API, {"nodeList": [node]})
    check("removenodes accepted", s == 202, (s, b))
    ok = wait_for(lambda: e.json("GET", "/pools/p?" + API)[2]["currentDedicatedNodes"] == 1 and
                  e.json("GET", "/pools/p?" + API)[2]["allocationState"] == "steady")
    check("the removed node leaves the pool", ok, e.json("GET", "/pools/p?" + API)[2])
    s, _, b = e.json("POST", "/pools/p/enableautoscale?" + API,
                     {"autoScaleFormula": "$TargetDedicatedNodes = max(0, min(3, max($PendingTasks.GetSample(1)) + 1));",
                      "autoScaleEvaluationInterval": "PT5M"})
    check("enableautoscale", s == 200, (s, b))
    s, _, run = e.json("POST", "/pools/p/evaluateautoscale?" + API, {"autoScaleFormula": "$TargetDedicatedNodes = 2;"})
    check("evaluateautoscale gives results", s == 200 and "$TargetDedicatedNodes=2" in run.get("results", ""), run)
    s, _, run = e.json("POST", "/pools/p/evaluateautoscale?" + API, {"autoScaleFormula": "$TargetDedicatedNodes = bogus(;"})
    check("a bad formula gives an AutoScaleRun error", s == 200 and run.get("error", {}).get("code"), run)
    s, _, b = e.json("POST", "/pools/p/resize?" + API, {"targetDedicatedNodes": 1})
    check("resize with autoscale on is 409", s == 409, (s, b))
    e.json("POST", "/pools/p/disableautoscale?" + API, {})


def test_jobs_and_tasks(e):
    s, _, _ = e.json("POST", "/jobs?" + API, {"id": "j", "poolInfo": {"poolId": "p"}, "usesTaskDependencies": True})
    check("job add", s == 201, s)
    tasks = [{"id": "a", "commandLine": "echo A"}, {"id": "b", "commandLine": "sh -c 'exit 4'"},
             {"id": "c", "commandLine": "echo C", "dependsOn": {"taskIds": ["a"]}}]
    s, _, r = e.json("POST", "/jobs/j/addtaskcollection?" + API, {"value": tasks})
    check("addtaskcollection", s == 200 and all(x["status"] == "success" for x in r["value"]), r)
    done = wait_for(lambda: all(t["state"] == "completed" for t in e.json("GET", "/jobs/j/tasks?" + API)[2]["value"]), 30)
    check("the tasks complete", done, e.json("GET", "/jobs/j/tasks?" + API)[2])
    _, _, a = e.json("GET", "/jobs/j/tasks/a?" + API)
    _, _, c = e.json("GET", "/jobs/j/tasks/c?" + API)
    check("dependency ran after its parent", c["executionInfo"]["startTime"] >= a["executionInfo"]["endTime"], (a, c))
    _, _, counts = e.json("GET", "/jobs/j/taskcounts?" + API)
    check("taskcounts", counts["taskCounts"] == {"active": 0, "running": 0, "completed": 3, "succeeded": 2,
                                                 "failed": 1}, counts)
    s, _, b = e.json("POST", "/jobs/j/tasks/b/reactivate?" + API, {})
    check("reactivate a failed task", s == 204, (s, b))
    wait_for(lambda: e.json("GET", "/jobs/j/tasks/b?" + API)[2]["state"] == "completed", 20)
    s, _, b = e.json("POST", "/jobs/j/tasks/a/reactivate?" + API, {})
    check("reactivate a succeeded task is 409", s == 409, (s, b))
    s, _, sub = e.json("GET", "/jobs/j/tasks/a/subtasksinfo?" + API)
    check("subtasksinfo of a plain task is empty", s == 200 and sub["value"] == [], sub)
    s, h, body = e.call("GET", "/jobs/j/tasks/a/files/stdout.txt?" + API, headers={"ocp-range": "bytes=0-0"})
    check("ocp-range reads one byte", s == 200 and body == b"A", (s, body))
    s, _, body = e.call("GET", "/jobs/j/tasks/a/files/stdout.txt?" + API, headers={"ocp-range": "bytes=2-"})
    check("a read at the end of the file is empty", s == 200 and body == b"", (s, body))
    s, _, body = e.call("GET", "/jobs/j/tasks/a/files/stdout.txt?" + API, headers={"ocp-range": "bytes=9-"})
    check("a read past the end is 416", s == 416, s)
    s, _, _ = e.json("POST", "/jobs/j/disable?" + API, {"disableTasks": "requeue"})
    ok = wait_for(lambda: e.json("GET", "/jobs/j?" + API)[2]["state"] == "disabled")
    check("job disable", s == 202 and ok, s)
    e.json("POST", "/jobs/j/enable?" + API, {})
    ok = wait_for(lambda: e.json("GET", "/jobs/j?" + API)[2]["state"] == "active")
    check("job enable", ok)
    e.json("POST", "/jobs/j/terminate?" + API, {"terminateReason": "done-here"})
    ok = wait_for(lambda: e.json("GET", "/jobs/j?" + API)[2]["state"] == "completed")
    _, _, job = e.json("GET", "/jobs/j?" + API)
    check("job terminate", ok and job["executionInfo"]["terminateReason"] == "done-here", job)
    s, _, b = e.json("POST", "/jobs/j/tasks?" + API, {"id": "late", "commandLine": "true"})
    check("adding to a completed job is 409 JobCompleted", s == 409 and b["code"] == "JobCompleted", (s, b))


def test_identity(e):
    form = urllib.parse.urlencode({"grant_type": "client_credentials", "client_id": "app", "client_secret": e.key,
                                   "scope": "https://batch.core.windows.net//.default"})
    s, _, tok = e.json("POST", "/tenant-1/oauth2/v2.0/token", form, sign=False,
                       headers={"Content-Type": "application/x-www-form-urlencoded"})
    check("client-credentials token", s == 200 and tok["token_type"] == "Bearer", (s, tok))
    bearer = {"Authorization": "Bearer " + tok["access_token"]}
    s, _, _ = e.json("GET", "/pools?" + API, headers=bearer, sign=False)
    check("a bearer token lists pools", s == 200, s)
    bad = urllib.parse.urlencode({"grant_type": "client_credentials", "client_id": "app", "client_secret": "nope"})
    s, _, b = e.json("POST", "/tenant-1/oauth2/v2.0/token", bad, sign=False,
                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    check("a wrong client secret is 401 invalid_client", s == 401 and b["error"] == "invalid_client", (s, b))
    s, _, _ = e.json("GET", "/pools?" + API, headers={"Authorization": "Bearer forged"}, sign=False)
    check("an unknown bearer token is 401", s == 401, s)
    path = "/metadata/identity/oauth2/token?api-version=2018-02-01&resource=" + urllib.parse.quote("https://batch.core.windows.net/")
    s, _, _ = e.json("GET", path, sign=False)
    s2, _, mi = e.json("GET", path, sign=False, headers={"Metadata": "true"})
    check("IMDS needs Metadata: true and then gives a token", s == 400 and s2 == 200 and mi["expires_in"].isdigit(), (s, mi))
    mgmt = {"Authorization": "Bearer " + mi["access_token"]}
    s, _, accts = e.json("GET", "/subscriptions/sub-1/providers/Microsoft.Batch/batchAccounts?api-version=2025-06-01",
                         headers=mgmt, sign=False)
    check("management plane lists the account", s == 200 and accts["value"][0]["name"] == e.account, accts)
    s, _, keys = e.json("POST", "/subscriptions/sub-1/resourceGroups/trainyard-emulator/providers/Microsoft.Batch/"
                        "batchAccounts/%s/listKeys?api-version=2025-06-01" % e.account, "", headers=mgmt, sign=False)
    check("listKeys gives the key", s == 200 and keys["primary"] == e.key, s)


def test_faults(e):
    s, _, _ = e.json("POST", "/__trainyard/faults?" + API, {"spec": "429=1,retry-after=3"})
    s2, h, b = e.json("GET", "/pools?" + API)
    check("429 with Retry-After", s == 204 and s2 == 429 and h.get("Retry-After") == "3" and
          b["code"] == "TooManyRequests", (s, s2, h))
    e.json("POST", "/__trainyard/faults?" + API, {"spec": "503=1"})
    s, _, b = e.json("GET", "/pools?" + API)
    check("503 ServerBusy", s == 503 and b["code"] == "ServerBusy", (s, b))
    e.json("POST", "/__trainyard/faults?" + API, {"spec": "truncate=1"})
    try:
        s, _, raw = e.call("GET", "/pools?" + API)
        check("truncated body", False, (s, raw))
    except http.client.IncompleteRead:
        check("truncated body", True)
    e.json("POST", "/__trainyard/faults?" + API, {"spec": "latency=200"})
    t0 = time.time()
    e.json("GET", "/pools?" + API)
    check("added latency", time.time() - t0 >= 0.2)
    s, _, b = e.json("POST", "/__trainyard/faults?" + API, {"spec": "429=2"})
    check("a bad fault spec is 400", s == 400, (s, b))
    e.json("POST", "/__trainyard/faults?" + API, {"spec": ""})
    s, _, counters = e.json("GET", "/__trainyard/counters?" + API)
    check("counters per path and status", s == 200 and counters["paths"]["GET /pools"]["statuses"]["429"] >= 1, counters)
    s, _, _ = e.json("GET", "/__trainyard/counters?" + API, sign=False)
    check("the control endpoint needs the key", s == 403, s)


def raw_exchange(e, data, read=True, timeout=10):
    """Sends raw bytes; returns the status line's code (0 when the server just closed)."""
    sock = socket.create_connection((e.host, e.port), timeout=timeout)
    try:
        try:
            sock.sendall(data)
        except OSError:
            pass
        if not read:
            return 0
        try:
            head = sock.recv(64)
        except OSError:
            return 0
        parts = head.split(b" ")
        return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    finally:
        sock.close()


def alive(e):
    return e.json("GET", "/pools?" + API)[0] == 200


def test_hostile_clients(e):
    """Oversized bodies and headers, malformed JSON and slow clients: answered or dropped, never fatal."""
    big = b"POST /jobs?%s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % (
        API.encode(), 512 << 20)
    code = raw_exchange(e, big + b"{" * (1 << 20))
    check("a 512 MiB unsigned body is refused without being read", code in (0, 403, 413) and alive(e), code)
    code = raw_exchange(e, b"GET /pools HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * (1 << 20) + b"\r\n\r\n")
    check("a 1 MiB header is refused", code in (0, 400, 413, 414, 431) and alive(e), code)
    many = b"".join(b"X-%d: v\r\n" % i for i in range(20000))
    code = raw_exchange(e, b"GET /pools HTTP/1.1\r\nHost: x\r\n" + many + b"\r\n")
    check("20,000 headers are refused", code in (0, 400, 413, 431) and alive(e), code)
    code = raw_exchange(e, b"POST /jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{", read=False)
    check("a body cut short is survived", alive(e))
    s, _, b = e.json("POST", "/jobs?" + API, b"{\"id\": \"x\", ")
    check("malformed JSON is 400 InvalidRequestBody", s == 400 and b["code"] == "InvalidRequestBody", (s, b))
    s, _, b = e.json("POST", "/jobs?" + API, b"[" * 200000 + b"]" * 200000)
    check("JSON nested 200,000 deep is 400, not a crash", s == 400 and alive(e), (s, b))
    s, _, b = e.json("POST", "/jobs?" + API, {"id": "j\u202e\x1b]0;t\x07", "poolInfo": {"poolId": "p"}})
    check("control characters in an id are 400", s == 400, (s, b))
    # Found by fuzz_emulator_http: an error quoting an invalid UTF-8 value made the JSON writer throw.
    s, _, b = e.json("GET", "/jobs?api-version=%FF25-06-01")
    check("an invalid UTF-8 query value is quoted in a 400, not a 500",
          s == 400 and b["code"] == "InvalidQueryParameterValue", (s, b))
    s, _, b = e.json("GET", "/jobs/%FF%FE?" + API)
    check("an invalid UTF-8 id is answered, not a 500", s in (400, 404), (s, b))
    slow = []
    try:
        for _ in range(40):
            c = socket.create_connection((e.host, e.port), timeout=10)
            c.sendall(b"GET /pools?")
            slow.append(c)
        t0 = time.time()
        ok = alive(e)
        check("40 clients sending slowly do not starve a real one", ok and time.time() - t0 < 5,
              (ok, time.time() - t0))
    finally:
        for c in slow:
            c.close()
    check("the emulator still answers after all of it", alive(e))


def page_ids(e, path):
    """The ids of one page and whether it names a next one."""
    s, _, b = e.json("GET", path)
    return [x.get("id") or x.get("nodeAgentSKUId") for x in b["value"]], "odata.nextLink" in b


def test_page_boundaries(e):
    """One rule for every list: a next page exactly when another entry the filter keeps follows.
    The account holds only the jobs made here."""
    for job in ("a1", "a2", "a3", "b1"):
        e.json("POST", "/jobs?" + API, {"id": job, "poolInfo": {"poolId": "none"}})
    for task in ("t1", "t2", "t3", "u1"):
        e.json("POST", "/jobs/a1/tasks?" + API, {"id": task, "commandLine": "true"})
    starts_a = urllib.parse.quote("startswith(id, 'a')")
    starts_t = urllib.parse.quote("startswith(id, 't')")
    cases = [
        ("4 jobs left, maxresults 4: no next page", "/jobs?%s&maxresults=4" % API, 4, False),
        ("4 jobs left, maxresults 3: a next page", "/jobs?%s&maxresults=3" % API, 3, True),
        ("3 jobs kept of 4, maxresults 3: no next page",
         "/jobs?%s&maxresults=3&$filter=%s" % (API, starts_a), 3, False),
        ("3 jobs kept of 4, maxresults 2: a next page",
         "/jobs?%s&maxresults=2&$filter=%s" % (API, starts_a), 2, True),
        ("3 tasks kept of 4, maxresults 3: no next page",
         "/jobs/a1/tasks?%s&maxresults=3&$filter=%s" % (API, starts_t), 3, False),
        ("4 tasks left, maxresults 3: a next page", "/jobs/a1/tasks?%s&maxresults=3" % API, 3, True),
        ("6 linux images kept of 7, maxresults 6: no next page",
         "/supportedimages?%s&maxresults=6&$filter=%s" % (API, urllib.parse.quote("osType eq 'linux'")), 6, False),
    ]
    for name, path, count, more in cases:
        ids, link = page_ids(e, path)
        check(name, (len(ids), link) == (count, more), (ids, link))
    s, _, b = e.json("GET", "/jobs?%s&maxresults=3" % API)
    link = b["odata.nextLink"]
    ids, more = page_ids(e, link[link.index("/", 8):])
    check("the next page holds the rest and names no other", (ids, more) == (["b1"], False), (ids, more))


def test_wire_durations(e):
    """A task's maxWallClockTime is read by the service's rules: xs:duration, units in order."""
    e.json("POST", "/jobs?" + API, {"id": "d", "poolInfo": {"poolId": "none"}})
    for i, text in enumerate(("PT1H30M", "P1DT2H", "PT0.5S", "P10675199DT2H48M5.4775807S")):
        s, _, b = e.json("POST", "/jobs/d/tasks?" + API,
                         {"id": "ok%d" % i, "commandLine": "true", "constraints": {"maxWallClockTime": text}})
        _, _, t = e.json("GET", "/jobs/d/tasks/ok%d?%s" % (i, API))
        check("maxWallClockTime %s is taken and given back" % text,
              s == 201 and t["constraints"]["maxWallClockTime"] == text, (s, b, t))
    for i, text in enumerate(("PT30M1H", "P1W", "pt1h", "-PT1H", "PT1.5H", "P", "PT")):
        s, _, b = e.json("POST", "/jobs/d/tasks?" + API,
                         {"id": "bad%d" % i, "commandLine": "true", "constraints": {"maxWallClockTime": text}})
        values = {v["key"]: v["value"] for v in (b or {}).get("values", [])}
        check("maxWallClockTime %s is 400 InvalidPropertyValue" % text,
              s == 400 and b["code"] == "InvalidPropertyValue" and values.get("PropertyName") == "maxWallClockTime",
              (s, b))


def test_error_texts(e):
    """A code carries one text wherever it is answered: alone or inside a task collection's result."""
    e.json("POST", "/jobs?" + API, {"id": "errs", "poolInfo": {"poolId": "none"}})
    missing = "A required property was not specified in the request body."
    invalid = "The value provided for one of the properties in the request body is invalid."
    s, _, b = e.json("POST", "/jobs/errs/tasks?" + API, {"id": "t"})
    check("a task without commandLine is 400 MissingRequiredProperty with its text",
          s == 400 and b["code"] == "MissingRequiredProperty" and b["message"]["value"].startswith(missing), (s, b))
    s, _, b = e.json("POST", "/jobs/errs/addtaskcollection?" + API,
                     {"value": [{"id": "t"}, {"id": "u", "commandLine": "true", "requiredSlots": 0}]})
    errors = [(r["error"]["code"], r["error"]["message"]["value"]) for r in b["value"]]
    check("a collection's results carry the same texts",
          s == 200 and errors == [("MissingRequiredProperty", missing), ("InvalidPropertyValue", invalid)], (s, b))


def test_seed_paging(exe):
    e = Emulator(exe, "--seed-tasks", "2500")
    try:
        seen, path, pages = [], "/jobs/seed-sweep/tasks?%s&maxresults=1000&$select=id,state" % API, 0
        while path:
            s, _, b = e.json("GET", path)
            seen += [t["id"] for t in b["value"]]
            keys = {k for t in b["value"] for k in t}
            pages += 1
            link = b.get("odata.nextLink")
            path = link[link.index("/", 8):] if link else None
        check("paging a seeded job sees every task once", len(seen) == 2500 and len(set(seen)) == 2500 and pages == 3,
              (len(seen), pages))
        check("$select keeps only the selected properties", keys == {"id", "state"}, keys)
        q = urllib.parse.quote("executionInfo/exitCode ne 0")
        s, _, b = e.json("GET", "/jobs/seed-sweep/tasks?%s&$filter=%s" % (API, q))
        check("filter on exit code", s == 200 and 0 < len(b["value"]) < 2500 and
              all(t["executionInfo"]["exitCode"] != 0 for t in b["value"]), len(b.get("value", [])))
        q = urllib.parse.quote("commandLine eq 'x'")
        s, _, b = e.json("GET", "/jobs/seed-sweep/tasks?%s&$filter=%s" % (API, q))
        check("a property the list does not allow is 400", s == 400 and b["code"] == "InvalidQueryParameterValue", (s, b))
        s, _, b = e.json("GET", "/jobs/seed-sweep/tasks?%s&maxresults=0" % API)
        check("maxresults 0 is 400", s == 400, s)
    finally:
        e.stop()


def test_state(exe, workdir):
    state = os.path.join(workdir, "emu.json")
    e = Emulator(exe, "--state", state)
    key = e.key
    try:
        e.json("POST", "/pools?" + API, {"id": "kept", "vmSize": "standard_d2s_v3", "targetDedicatedNodes": 1})
        e.json("POST", "/jobs?" + API, {"id": "kj", "poolInfo": {"poolId": "kept"}})
        e.json("POST", "/jobs/kj/tasks?" + API, {"id": "kt", "commandLine": "echo kept"})
        wait_for(lambda: e.json("GET", "/jobs/kj/tasks/kt?" + API)[2]["state"] == "completed", 20)
    finally:
        e.stop()
    e = Emulator(exe, "--state", state, key=key)
    try:
        s, _, t = e.json("GET", "/jobs/kj/tasks/kt?" + API)
        check("--state keeps pools, jobs and tasks across a restart",
              s == 200 and t["state"] == "completed" and t["executionInfo"]["exitCode"] == 0, (s, t))
        s, _, body = e.call("GET", "/jobs/kj/tasks/kt/files/stdout.txt?" + API)
        check("--state keeps task files", s == 200 and body == b"kept\n", (s, body))
    finally:
        e.stop()
    with open(state, "w") as f:
        f.write("{not json")
    r = subprocess.run([exe, "emulator", "--port", "0", "--key", key, "--state", state],
                       capture_output=True, text=True, timeout=30)
    check("a corrupt state file is a one-line error, exit 2, file untouched",
          r.returncode == 2 and state in r.stderr and len(r.stderr.strip().splitlines()) == 1 and
          open(state).read() == "{not json", (r.returncode, r.stderr))


def test_state_after_kill(exe, workdir):
    """What the emulator acknowledged survives `kill -9` between two snapshots (the journal)."""
    state = os.path.join(workdir, "emu-kill.json")
    e = Emulator(exe, "--state", state)
    key, tasks = e.key, []
    try:
        e.json("POST", "/pools?" + API, {"id": "kp", "vmSize": "standard_d2s_v3", "targetDedicatedNodes": 0})
        e.json("POST", "/jobs?" + API, {"id": "kk", "poolInfo": {"poolId": "kp"}})
        e.json("POST", "/jobs?" + API, {"id": "gone", "poolInfo": {"poolId": "kp"}})
        time.sleep(1.5)  # a snapshot holds both jobs
        s, _, _ = e.call("DELETE", "/jobs/gone?" + API)
        for i in range(5):
            batch = [{"id": "t%d-%d" % (i, k), "commandLine": "true"} for k in range(20)]
            s2, _, b = e.json("POST", "/jobs/kk/addtaskcollection?" + API, {"value": batch})
            tasks += [v["taskId"] for v in b["value"] if s2 == 200 and v["status"] == "success"]
    finally:
        e.proc.kill()
        e.proc.wait()
    e = Emulator(exe, "--state", state, key=key)
    try:
        listed = {t["id"] for t in e.json("GET", "/jobs/kk/tasks?" + API)[2]["value"]}
        check("kill -9 loses no acknowledged task", len(tasks) == 100 and listed == set(tasks),
              (len(tasks), len(listed)))
        check("kill -9 undoes no acknowledged delete",
              s == 202 and e.json("GET", "/jobs/gone?" + API)[0] == 404, s)
    finally:
        e.stop()
    journal = state + ".journal"
    with open(journal, "a") as f:
        f.write('{"seq": 99, "at": 0, "meth')
    e = Emulator(exe, "--state", state, key=key)
    try:
        check("a journal line cut short by a crash is ignored",
              e.json("GET", "/jobs/kk?" + API)[0] == 200)
    finally:
        e.stop()
    with open(journal, "w") as f:
        f.write('not json\n{"seq": 1, "at": 0, "method": "DELETE", "target": "/jobs/kk", "body": ""}\n')
    before = open(state).read()
    try:
        r = subprocess.run([exe, "emulator", "--port", "0", "--key", key, "--state", state],
                           capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired as started:  # it served instead of refusing
        r = subprocess.CompletedProcess(started.cmd, None, "", str(started.stderr or ""))
    check("a corrupt journal line is a one-line error naming it, exit 2, nothing changed",
          r.returncode == 2 and journal + ":1:" in r.stderr and len(r.stderr.strip().splitlines()) == 1 and
          open(state).read() == before and open(journal).read().startswith("not json"), (r.returncode, r.stderr))


def test_run_outlives_kill(exe, workdir):
    """A run started after the last snapshot goes on after `kill -9`: followed, not started twice."""
    state = os.path.join(workdir, "emu-run.json")
    e = Emulator(exe, "--state", state)
    key, task = e.key, "/jobs/rj/tasks/rt?" + API
    try:
        e.json("POST", "/pools?" + API, {"id": "rp", "vmSize": "standard_d2s_v3", "targetDedicatedNodes": 1})
        wait_for(lambda: [n for n in e.json("GET", "/pools/rp/nodes?" + API)[2]["value"] if n["state"] == "idle"], 30)
        e.json("POST", "/jobs?" + API, {"id": "rj", "poolInfo": {"poolId": "rp"}})
        time.sleep(1.5)  # a snapshot holds the job, most likely not the task started next
        e.json("POST", "/jobs/rj/tasks?" + API, {"id": "rt", "commandLine": "sh -c 'echo started; sleep 2; echo done'"})
        wait_for(lambda: e.json("GET", task)[2]["state"] == "running", 10)
    finally:
        e.proc.kill()
        e.proc.wait()
    e = Emulator(exe, "--state", state, key=key)
    try:
        wait_for(lambda: e.json("GET", task)[2]["state"] == "completed", 30)
        _, _, t = e.json("GET", task)
        _, _, out = e.call("GET", "/jobs/rj/tasks/rt/files/stdout.txt?" + API)
        info = t.get("executionInfo", {})
        check("a run started before kill -9 goes on, once",
              t["state"] == "completed" and info.get("exitCode") == 0 and "failureInfo" not in info and
              out == b"started\ndone\n", (t, out))
    finally:
        e.stop()


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="trainyard-emu-test-") as workdir:
        os.environ["TMPDIR"] = workdir
        e = Emulator(exe)
        try:
            test_protocol(e)
            test_pools_and_nodes(e)
            test_jobs_and_tasks(e)
            test_faults(e)
            test_hostile_clients(e)
        finally:
            e.stop()
        e = Emulator(exe)
        try:
            test_page_boundaries(e)
            test_wire_durations(e)
            test_error_texts(e)
        finally:
            e.stop()
        e = Emulator(exe, "--identity")
        try:
            test_identity(e)
        finally:
            e.stop()
        test_seed_paging(exe)
        test_state(exe, workdir)
        test_state_after_kill(exe, workdir)
        test_run_outlives_kill(exe, workdir)
        r = subprocess.run([exe, "emulator", "--bind", "0.0.0.0"], capture_output=True, text=True, timeout=30)
        check("a non-loopback --bind needs --allow-remote", r.returncode == 2 and "--allow-remote" in r.stderr, r.stderr)
    print("%d passed, %d failed" % (RESULTS["passed"], RESULTS["failed"]))
    return 1 if RESULTS["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Conformance of `trainyard emulator` against Debian's Python azure.batch SDK (13.0.1).

Usage: /usr/bin/python3 sdk_conformance.py <path-to-trainyard>

Starts its own emulator (port 0, a random key, --node-step-ms 100), runs the checks through the
SDK (BatchServiceClient + SharedKeyCredentials), prints one line per check and a final line
`N passed, M failed`, and always stops the emulator. Exit status: 0 all passed, 1 a failure,
77 when azure.batch cannot be imported outside CI (CI=true makes that a failure).
"""

import datetime
import json
import os
import re
import signal
import sys
import time
import traceback
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from conformance_util import Emulator  # noqa: E402

try:
    import requests
    import azure.batch.models as m
    from azure.batch import BatchServiceClient
    from azure.batch.batch_auth import SharedKeyAuth, SharedKeyCredentials
    from msrest.exceptions import ClientRequestError
except ImportError as e:  # pragma: no cover - depends on the machine
    print("azure.batch is not importable (%s)" % e)
    if os.environ.get("CI") == "true":
        print("0 passed, 1 failed")
        sys.exit(1)
    print("skipped: install python3-azure (Debian) to run the SDK conformance checks")
    sys.exit(77)

API_VERSION = "2022-10-01.16.0"
IMAGE = m.VirtualMachineConfiguration(
    image_reference=m.ImageReference(publisher="canonical", offer="0001-com-ubuntu-server-jammy",
                                     sku="22_04-lts", version="latest"),
    node_agent_sku_id="batch.node.ubuntu 22.04")


# ---------------------------------------------------------------------------------------------
# Small helpers


class CheckFailed(AssertionError):
    pass


def expect(cond, message):
    if not cond:
        raise CheckFailed(message)


def expect_eq(got, want, what):
    if got != want:
        raise CheckFailed("%s: got %r, want %r" % (what, got, want))


def wait_for(what, fn, timeout=30.0, interval=0.1):
    """Polls fn() until it returns a truthy value; returns it, or fails after `timeout` s."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        last = fn()
        if last:
            return last
        if time.monotonic() > deadline:
            raise CheckFailed("timed out after %.0f s waiting for %s" % (timeout, what))
        time.sleep(interval)


def batch_error(fn, status, code=None):
    """Runs fn, which must raise BatchErrorException with `status` (and `code`)."""
    try:
        fn()
    except m.BatchErrorException as e:
        got_status = e.response.status_code if e.response is not None else None
        got_code = e.error.code if e.error is not None else None
        expect(got_status == status and (code is None or got_code == code),
               "expected %s %s, got %s %s" % (status, code, got_status, got_code))
        return e
    raise CheckFailed("expected BatchErrorException %s %s, the call succeeded" % (status, code))


def enum_value(v):
    return getattr(v, "value", v)


def all_pages(paged):
    """Every page of an msrest Paged list, fetched one request at a time."""
    pages = []
    while True:
        try:
            page = paged.advance_page()
        except StopIteration:
            break
        pages.append(list(page))
    return pages


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def run(self, name, fn, *args):
        t0 = time.monotonic()
        try:
            detail = fn(*args)
        except Exception as e:  # every failure is one line, the run goes on
            self.failed += 1
            if isinstance(e, (CheckFailed, m.BatchErrorException)):
                reason = str(e).replace("\n", " | ")
                if isinstance(e, m.BatchErrorException) and e.error is not None:
                    reason = "BatchErrorException %s %s: %s" % (
                        e.response.status_code, e.error.code,
                        getattr(e.error.message, "value", "").split("\n")[0])
            else:
                reason = "%s: %s" % (type(e).__name__, str(e).replace("\n", " | "))
                if os.environ.get("CONFORMANCE_TRACEBACK") == "1":
                    traceback.print_exc()
            print("FAIL %-44s %5.1fs  %s" % (name, time.monotonic() - t0, reason), flush=True)
            return False
        self.passed += 1
        print("PASS %-44s %5.1fs  %s" % (name, time.monotonic() - t0, detail or ""), flush=True)
        return True


# ---------------------------------------------------------------------------------------------
# The suite


class Suite:
    def __init__(self, emu, exe):
        self.emu = emu
        self.exe = exe
        self.client = self.make_client(emu)

    @staticmethod
    def make_client(emu):
        return BatchServiceClient(SharedKeyCredentials(emu.account, emu.key),
                                  batch_url=emu.endpoint)

    # -- raw requests, signed by the SDK's own SharedKeyAuth ----------------------------------
    def raw(self, method, path, body=None, emu=None):
        emu = emu or self.emu
        sep = "&" if "?" in path else "?"
        url = "%s%s%sapi-version=%s" % (emu.endpoint, path, sep, API_VERSION)
        headers = {"ocp-date": time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime())}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json; odata=minimalmetadata"
        return requests.request(method, url, data=data, headers=headers, timeout=30,
                                auth=SharedKeyAuth("Authorization", emu.account, emu.key))

    # -- common fixtures ----------------------------------------------------------------------
    def add_pool(self, pool_id, nodes, **kw):
        self.client.pool.add(m.PoolAddParameter(
            id=pool_id, vm_size="standard_d2s_v3", virtual_machine_configuration=IMAGE,
            target_dedicated_nodes=nodes, **kw))

    def idle_nodes(self, pool_id, count, timeout=30.0):
        def ready():
            p = self.client.pool.get(pool_id)
            if enum_value(p.allocation_state) != "steady":
                return None
            nodes = list(self.client.compute_node.list(pool_id))
            idle = [n for n in nodes if enum_value(n.state) == "idle"]
            return nodes if len(nodes) == count and len(idle) == count else None
        return wait_for("pool %s to be steady with %d idle nodes" % (pool_id, count), ready,
                        timeout=timeout, interval=0.1)

    def add_job(self, job_id, pool_id, **kw):
        self.client.job.add(m.JobAddParameter(
            id=job_id, pool_info=m.PoolInformation(pool_id=pool_id), **kw))

    def add_task(self, job_id, task_id, command, **kw):
        self.client.task.add(job_id, m.TaskAddParameter(id=task_id, command_line=command, **kw))

    def wait_task(self, job_id, task_id, state="completed", timeout=30.0, pred=None):
        def done():
            t = self.client.task.get(job_id, task_id)
            if enum_value(t.state) != state:
                return None
            if pred is not None and not pred(t):
                return None
            return t
        return wait_for("task %s/%s to be %s" % (job_id, task_id, state), done, timeout=timeout,
                        interval=0.1)

    def task_file(self, job_id, task_id, path, ocp_range=None):
        opts = m.FileGetFromTaskOptions(ocp_range=ocp_range) if ocp_range else None
        return b"".join(self.client.file.get_from_task(job_id, task_id, path, opts))

    # =========================================================================================
    # Setup: pools used by several checks are created first so they allocate in parallel.
    def setup(self):
        self.pool_alloc = "cf-alloc"     # 2 nodes, nothing runs on them
        self.pool = "cf-pool"            # 2 nodes, 4 slots each: most task checks
        self.pool_start = "cf-start"     # start task
        self.pool_reboot = "cf-reboot"   # node reboot
        self.pool_preempt = "cf-preempt"  # preemption
        self.pool_empty = "cf-empty"     # no nodes: tasks stay queued
        self.pool_resize = "cf-resize"   # resize / stop resize
        self.add_pool(self.pool_alloc, 2)
        self.add_pool(self.pool, 2, task_slots_per_node=4, enable_inter_node_communication=True)
        self.add_pool(self.pool_start, 1, start_task=m.StartTask(
            command_line="/bin/sh -c 'echo hello-from-start-task; echo to-stderr >&2'",
            wait_for_success=True))
        self.add_pool(self.pool_reboot, 1)
        self.add_pool(self.pool_preempt, 1)
        self.add_pool(self.pool_empty, 0)
        self.add_pool(self.pool_resize, 0)
        # Three tasks added to the seeded job (they run on seed-gpu's idle nodes).
        for i, cmd in enumerate(["true", "exit 2", "echo extra"]):
            self.add_task("seed-sweep", "extra-%d" % i, cmd)
        self.seed_extra = ["extra-0", "extra-1", "extra-2"]

    # =========================================================================================
    def check_pool_allocation(self):
        nodes = self.idle_nodes(self.pool_alloc, 2, timeout=30)
        p = self.client.pool.get(self.pool_alloc)
        expect_eq(p.current_dedicated_nodes, 2, "currentDedicatedNodes")
        expect_eq(p.target_dedicated_nodes, 2, "targetDedicatedNodes")
        expect_eq(enum_value(p.state), "active", "pool state")
        ips = [n.ip_address for n in nodes]
        expect(all(ips) and len(set(ips)) == 2, "node ipAddresses %r" % ips)
        return "steady, 2 idle nodes %s" % ",".join(n.id for n in nodes)

    def check_client_request_id(self):
        c = self.client
        rid = str(uuid.uuid4())
        r = c.pool.get("seed-gpu", m.PoolGetOptions(client_request_id=rid,
                                                      return_client_request_id=True), raw=True)
        expect_eq(r.response.headers.get("client-request-id"), rid, "echoed client-request-id")
        expect(r.response.headers.get("request-id"), "request-id header missing")
        try:
            c.pool.get("no-such-pool", m.PoolGetOptions(client_request_id=rid,
                                                         return_client_request_id=True))
            raise CheckFailed("no-such-pool was found")
        except m.BatchErrorException as e:
            expect_eq(e.response.headers.get("client-request-id"), rid, "echo on an error")
        r2 = c.pool.get("seed-gpu", m.PoolGetOptions(client_request_id=rid), raw=True)
        expect(r2.response.headers.get("client-request-id") is None,
               "client-request-id echoed without return-client-request-id")
        return "echoed only with return-client-request-id: true"

    # -- paging -------------------------------------------------------------------------------
    def _paging(self, what, full, paged):
        want = [x.id for x in full]
        pages = all_pages(paged)
        ids = [x.id for p in pages for x in p]
        expect(all(len(p) == 1 for p in pages),
               "%s: page sizes %r with maxresults=1" % (what, [len(p) for p in pages]))
        expect_eq(len(ids), len(set(ids)), "%s: duplicates on pages" % what)
        expect_eq(sorted(ids), sorted(want), "%s seen over %d pages" % (what, len(pages)))
        return len(ids)

    def check_paging(self):
        c = self.client
        n_pools = self._paging("pools", list(c.pool.list()),
                               c.pool.list(m.PoolListOptions(max_results=1)))
        n_jobs = self._paging("jobs", list(c.job.list()),
                              c.job.list(m.JobListOptions(max_results=1)))
        n_tasks = self._paging("tasks", list(c.task.list("seed-sweep")),
                               c.task.list("seed-sweep", m.TaskListOptions(max_results=1)))
        expect_eq(n_tasks, 28, "tasks in seed-sweep (25 seeded + 3 added)")
        n_nodes = self._paging("nodes", list(c.compute_node.list("seed-gpu")), c.compute_node.list(
            "seed-gpu", m.ComputeNodeListOptions(max_results=1)))
        expect_eq(n_nodes, 8, "nodes in seed-gpu")
        # Paging a filtered, trimmed list: the filter and select hold on every page.
        flt = "startswith(id,'task-000001')"
        want = [t.id for t in c.task.list("seed-sweep") if t.id.startswith("task-000001")]
        pages = all_pages(c.task.list("seed-sweep", m.TaskListOptions(
            max_results=1, filter=flt, select="id,state")))
        got = [t.id for p in pages for t in p]
        expect_eq(sorted(got), sorted(want), "filtered pages")
        expect(all(t.command_line is None for p in pages for t in p), "select lost on later pages")
        # The SDK follows odata.nextLink by itself when iterated.
        ids = [t.id for t in c.task.list("seed-sweep", m.TaskListOptions(max_results=7))]
        expect_eq(len(ids), 28, "tasks iterated with maxresults=7")
        return "pools %d, jobs %d, tasks %d, nodes %d: each once, 1 per page" % (
            n_pools, n_jobs, n_tasks, n_nodes)

    # -- $filter / $select --------------------------------------------------------------------
    def check_filter_select(self):
        c = self.client
        for t in self.seed_extra:
            self.wait_task("seed-sweep", t)
        every = list(c.task.list("seed-sweep"))

        def listed(flt=None, sel=None):
            return list(c.task.list("seed-sweep", m.TaskListOptions(filter=flt, select=sel)))

        got = {t.id for t in listed("state eq 'completed'")}
        want = {t.id for t in every if enum_value(t.state) == "completed"}
        expect_eq(got, want, "state eq 'completed'")
        for prefix in ("task-00001", "task-000001", "extra-"):
            got = {t.id for t in listed("startswith(id,'%s')" % prefix)}
            want = {t.id for t in every if t.id.startswith(prefix)}
            expect_eq(got, want, "startswith(id,'%s')" % prefix)
        got = {t.id for t in listed("executionInfo/exitCode ne 0")}
        want = {t.id for t in every
                if t.execution_info and t.execution_info.exit_code not in (0, None)}
        expect("extra-1" in want, "extra-1 (exit 2) not failed: %r" % want)
        expect_eq(got, want, "executionInfo/exitCode ne 0")
        got = {t.id for t in listed("state eq 'completed' and startswith(id,'extra-')")}
        expect_eq(got, set(self.seed_extra), "and-combined filter")

        sel = listed(sel="id,state")
        expect_eq(len(sel), len(every), "$select id,state count")
        for t in sel:
            expect(t.id and t.state is not None, "selected id/state missing on %r" % t.id)
            for attr in ("command_line", "url", "e_tag", "execution_info", "creation_time",
                         "node_info", "constraints"):
                expect(getattr(t, attr) is None,
                       "$select id,state returned %s on %s" % (attr, t.id))
            extra = {k for k in t.additional_properties if not k.startswith("odata.")}
            expect(not extra, "$select returned unknown properties %r" % extra)
        nodes = list(c.compute_node.list("seed-gpu", m.ComputeNodeListOptions(select="id,state")))
        expect(nodes and all(n.id and n.state and n.ip_address is None for n in nodes),
               "node list $select id,state")
        p = c.pool.get("seed-gpu", m.PoolGetOptions(select="id,vmSize"))
        expect(p.id == "seed-gpu" and p.vm_size and p.state is None and p.url is None,
               "pool get $select id,vmSize: %r" % p.as_dict())

        e = batch_error(lambda: listed("commandLine eq 'x'"), 400, "InvalidQueryParameterValue")
        e2 = batch_error(lambda: list(c.pool.list(m.PoolListOptions(filter="displayName eq 'x'"))),
                         400, "InvalidQueryParameterValue")
        vals = {v.key: v.value for v in (e.error.values or [])}
        expect_eq(vals.get("QueryParameterName"), "$filter", "error values QueryParameterName")
        return "%d tasks; filters match client-side; select trims; bad property 400 (%s)" % (
            len(every), e2.error.code)

    # -- add_collection -----------------------------------------------------------------------
    def check_add_collection(self):
        c = self.client
        job = "cf-collection"
        self.add_job(job, self.pool_empty)
        tasks = [m.TaskAddParameter(id="c%03d" % i, command_line="true") for i in range(100)]
        res = c.task.add_collection(job, tasks)
        statuses = {enum_value(r.status) for r in res.value}
        expect_eq(len(res.value), 100, "results")
        expect_eq(statuses, {"success"}, "statuses")
        expect_eq({r.task_id for r in res.value}, {t.id for t in tasks}, "result task ids")
        expect(all(r.e_tag and r.location for r in res.value), "eTag/location missing on a result")
        listed = list(c.task.list(job, m.TaskListOptions(select="id,state")))
        expect_eq(len(listed), 100, "tasks listed")
        expect_eq({enum_value(t.state) for t in listed}, {"active"}, "states on an empty pool")
        # Re-adding one: clienterror TaskExists (the SDK's wrapper treats that one as done).
        raw = self.raw("POST", "/jobs/%s/addtaskcollection" % job,
                       {"value": [{"id": "c000", "commandLine": "true"},
                                  {"id": "c100", "commandLine": "true"}]})
        expect_eq(raw.status_code, 200, "status of a collection with an existing id")
        byid = {r["taskId"]: r for r in raw.json()["value"]}
        expect_eq(byid["c000"]["status"], "clienterror", "status of the existing task")
        expect_eq(byid["c000"]["error"]["code"], "TaskExists", "code of the existing task")
        expect_eq(byid["c100"]["status"], "success", "status of the new task")
        # Over 100 in one request: the service refuses the request. (The SDK's add_collection
        # chunks larger lists into requests of 100 itself, so a raw request tests the service.)
        over = [{"id": "o%03d" % i, "commandLine": "true"} for i in range(101)]
        raw = self.raw("POST", "/jobs/%s/addtaskcollection" % job, {"value": over})
        expect_eq(raw.status_code, 400, "status of 101 tasks in one request")
        code = raw.json().get("code")
        expect(len(list(c.task.list(job, m.TaskListOptions(select="id")))) == 101,
               "a refused collection added tasks")
        # Through the SDK, 150 tasks go out in two requests and all are added.
        more = [m.TaskAddParameter(id="s%03d" % i, command_line="true") for i in range(150)]
        res = c.task.add_collection(job, more)
        expect_eq(len(res.value), 150, "results for 150 tasks through the SDK's chunking")
        return "100 added; TaskExists per item; 101 refused 400 %s; SDK chunks 150" % code

    # -- growing stdout tail ------------------------------------------------------------------
    def start_tail_task(self):
        self.tail_job = "cf-tail"
        self.add_job(self.tail_job, self.pool)
        self.add_task(self.tail_job, "grow",
                      "/bin/sh -c 'i=0; while [ $i -lt 25 ]; do echo line-$i-abcdefghij; "
                      "i=$((i+1)); sleep 0.08; done'")

    def check_tail_stdout(self):
        c = self.client
        job, task = self.tail_job, "grow"
        got = b""
        reads = 0
        nonempty = 0
        deadline = time.monotonic() + 40
        while True:
            t = c.task.get(job, task)
            done = enum_value(t.state) == "completed"
            try:
                chunk = self.task_file(job, task, "stdout.txt", "bytes=%d-" % len(got))
                reads += 1
                if chunk:
                    nonempty += 1
                got += chunk
            except m.BatchErrorException as e:
                code = e.error.code if e.error else None
                if e.response.status_code == 416:
                    pass  # start == size on a server that refuses an empty range
                elif code in ("FileNotFound", "OperationInvalidForCurrentState",
                              "TaskNotStarted") and not done:
                    pass  # not written yet
                else:
                    raise
            if done:
                break
            expect(time.monotonic() < deadline, "task did not complete in 40 s")
            time.sleep(0.05)
        whole = self.task_file(job, task, "stdout.txt")
        expect_eq(t.execution_info.exit_code, 0, "exit code")
        want = b"".join(b"line-%d-abcdefghij\n" % i for i in range(25))
        expect_eq(whole, want, "whole stdout.txt")
        expect_eq(got, whole, "concatenated ranged reads")
        expect(nonempty >= 2, "the file was read while growing in only %d pieces" % nonempty)
        part = self.task_file(job, task, "stdout.txt", "bytes=5-9")
        expect_eq(part, whole[5:10], "bytes=5-9")
        props = c.file.get_properties_from_task(job, task, "stdout.txt", raw=True)
        expect_eq(int(props.headers["Content-Length"]), len(whole), "Content-Length of properties")
        expect_eq(props.headers.get("ocp-batch-file-isdirectory"), False, "isdirectory header")
        files = {f.name: f for f in c.file.list_from_task(job, task)}
        expect("stdout.txt" in files, "stdout.txt not in the task's file list: %r" % list(files))
        expect_eq(int(files["stdout.txt"].properties.content_length), len(whole),
                  "contentLength in the file list")
        return "%d reads (%d non-empty), %d bytes byte-for-byte" % (reads, nonempty, len(whole))

    # -- conditional requests -----------------------------------------------------------------
    def check_conditional(self):
        c = self.client
        job = "cf-etag"
        self.add_job(job, self.pool_empty)
        r = c.job.get(job, raw=True)
        etag = r.response.headers["ETag"]
        expect_eq(r.output.e_tag, etag.strip('"'), "body eTag vs ETag header")
        last_mod = r.output.last_modified
        # If-Match with the current ETag: the update goes through and the ETag moves.
        c.job.patch(job, m.JobPatchParameter(priority=100), m.JobPatchOptions(if_match=etag))
        j2 = c.job.get(job)
        expect_eq(j2.priority, 100, "priority after a conditional patch")
        expect(j2.e_tag != r.output.e_tag, "ETag did not change on update")
        # If-Match with the stale ETag: 412 ConditionNotMet, no change.
        batch_error(lambda: c.job.patch(job, m.JobPatchParameter(priority=5),
                                        m.JobPatchOptions(if_match=etag)), 412, "ConditionNotMet")
        expect_eq(c.job.get(job).priority, 100, "priority after a refused patch")
        # If-None-Match with the current ETag on a read: 304, which the SDK raises.
        e = batch_error(lambda: c.job.get(job, m.JobGetOptions(if_none_match=j2.e_tag)), 304)
        got = c.job.get(job, m.JobGetOptions(if_none_match=etag))
        expect_eq(got.id, job, "get with a stale If-None-Match")
        # If-Modified-Since.
        batch_error(lambda: c.job.get(job, m.JobGetOptions(if_modified_since=j2.last_modified)),
                    304)
        old = j2.last_modified - datetime.timedelta(hours=1)
        expect_eq(c.job.get(job, m.JobGetOptions(if_modified_since=old)).id, job,
                  "get modified since an hour ago")
        # If-Unmodified-Since on a write, in the past: 412.
        batch_error(lambda: c.job.patch(job, m.JobPatchParameter(priority=7),
                                        m.JobPatchOptions(if_unmodified_since=old)),
                    412, "ConditionNotMet")
        # If-None-Match with the current ETag on a write: 412.
        batch_error(lambda: c.job.patch(job, m.JobPatchParameter(priority=9),
                                        m.JobPatchOptions(if_none_match=j2.e_tag)),
                    412, "ConditionNotMet")
        # Pools and tasks take If-Match too.
        p = c.pool.get(self.pool_empty)
        batch_error(lambda: c.pool.patch(self.pool_empty, m.PoolPatchParameter(
            metadata=[m.MetadataItem(name="a", value="b")]),
            m.PoolPatchOptions(if_match="0x8D000000DEADBEEF")), 412, "ConditionNotMet")
        c.pool.patch(self.pool_empty,
                     m.PoolPatchParameter(metadata=[m.MetadataItem(name="a", value="b")]),
                     m.PoolPatchOptions(if_match=p.e_tag))
        self.add_task(job, "t", "true")
        t = c.task.get(job, "t")
        c.task.update(job, "t", m.TaskConstraints(max_task_retry_count=1),
                      m.TaskUpdateOptions(if_match=t.e_tag))
        batch_error(lambda: c.task.update(job, "t", m.TaskConstraints(max_task_retry_count=2),
                                          m.TaskUpdateOptions(if_match=t.e_tag)),
                    412, "ConditionNotMet")
        expect_eq(c.task.get(job, "t").constraints.max_task_retry_count, 1, "task constraints")
        expect(last_mod is not None, "lastModified missing")
        return ("If-Match ok/412, If-None-Match 304 (SDK raises, error=%s), "
                "If-Modified-Since 304/200" % (None if e.error is None else e.error.code))

    # -- expected errors ----------------------------------------------------------------------
    def check_errors(self):
        c = self.client
        batch_error(lambda: c.pool.get("no-such-pool"), 404, "PoolNotFound")
        batch_error(lambda: c.job.get("no-such-job"), 404, "JobNotFound")
        batch_error(lambda: c.task.get("seed-sweep", "no-such-task"), 404, "TaskNotFound")
        batch_error(lambda: c.task.get("no-such-job", "x"), 404, "JobNotFound")
        batch_error(lambda: self.add_pool("seed-gpu", 0), 409, "PoolExists")
        batch_error(lambda: self.add_job("seed-sweep", "seed-gpu"), 409, "JobExists")
        batch_error(lambda: self.add_task("seed-sweep", "task-0000001", "true"), 409, "TaskExists")
        e = batch_error(lambda: c.pool.get("no-such-pool"), 404, "PoolNotFound")
        expect("RequestId:" in e.error.message.value,
               "message lacks RequestId: %r" % e.error.message.value)
        expect_eq(e.error.message.lang, "en-US", "message lang")
        expect(c.pool.exists("seed-gpu") is True and c.pool.exists("no-such-pool") is False,
               "pool.exists")
        # Wrong key: 403 AuthenticationFailed.
        wrong_key = "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE="
        bad = BatchServiceClient(SharedKeyCredentials(self.emu.account, wrong_key),
                                 batch_url=self.emu.endpoint)
        batch_error(lambda: bad.pool.get("seed-gpu"), 403, "AuthenticationFailed")
        return "404 Pool/Job/TaskNotFound, 409 Pool/Job/TaskExists, 403 AuthenticationFailed"

    # -- task outcomes ------------------------------------------------------------------------
    def start_outcome_tasks(self):
        self.outcome_job = "cf-outcome"
        self.add_job(self.outcome_job, self.pool, common_environment_settings=[
            m.EnvironmentSetting(name="BAR", value="job-common")])
        self.add_task(self.outcome_job, "exit3", "/bin/sh -c 'exit 3'")
        self.add_task(self.outcome_job, "retry", "/bin/sh -c 'exit 1'",
                      constraints=m.TaskConstraints(max_task_retry_count=2))
        self.add_task(self.outcome_job, "ok", "/bin/sh -c 'echo FOO=$FOO BAR=$BAR'",
                      environment_settings=[m.EnvironmentSetting(name="FOO", value="foo value")])
        self.add_task(self.outcome_job, "long", "sleep 60")

    def check_exit_code(self):
        t = self.wait_task(self.outcome_job, "exit3")
        ei = t.execution_info
        expect_eq(ei.exit_code, 3, "exitCode")
        expect_eq(enum_value(ei.result), "failure", "result")
        expect(ei.failure_info is not None, "failureInfo missing")
        expect_eq(ei.failure_info.code, "FailureExitCode", "failureInfo.code")
        expect_eq(enum_value(ei.failure_info.category), "usererror", "failureInfo.category")
        expect(ei.start_time and ei.end_time and ei.end_time >= ei.start_time, "start/end times")
        expect(t.node_info and t.node_info.pool_id == self.pool, "nodeInfo.poolId")
        return "exit 3 -> failure / FailureExitCode"

    def check_retries(self):
        t = self.wait_task(self.outcome_job, "retry")
        ei = t.execution_info
        expect_eq(ei.retry_count, 2, "retryCount")
        expect_eq(ei.exit_code, 1, "exitCode")
        expect_eq(enum_value(ei.result), "failure", "result")
        expect(ei.last_retry_time is not None, "lastRetryTime missing")
        return "retryCount 2 after maxTaskRetryCount=2"

    def check_environment(self):
        t = self.wait_task(self.outcome_job, "ok")
        expect_eq(t.execution_info.exit_code, 0, "exit code")
        out = self.task_file(self.outcome_job, "ok", "stdout.txt").decode()
        expect("FOO=foo value" in out, "task stdout %r lacks its environment setting" % out)
        expect("BAR=job-common" in out, "task stdout %r lacks the job's common setting" % out)
        names = [e.name for e in t.environment_settings or []]
        expect_eq(names, ["FOO"], "environmentSettings on the task")
        return "environmentSettings and commonEnvironmentSettings reach the process"

    def check_terminate_reactivate(self):
        c = self.client
        job = self.outcome_job
        self.wait_task(job, "long", state="running")
        c.task.terminate(job, "long")
        t = self.wait_task(job, "long")
        expect_eq(enum_value(t.execution_info.result), "failure", "result of a terminated task")
        # Reactivate the failed exit-3 task: back to active with a fresh executionInfo, runs again.
        before = self.wait_task(job, "exit3")
        c.task.reactivate(job, "exit3")
        t = c.task.get(job, "exit3")
        expect(enum_value(t.state) in ("active", "preparing", "running", "completed"),
               "state after reactivate %r" % t.state)
        t = self.wait_task(job, "exit3", pred=lambda x: x.execution_info.start_time
                           and x.execution_info.start_time > before.execution_info.start_time)
        expect_eq(t.execution_info.exit_code, 3, "exit code of the rerun")
        expect_eq(t.execution_info.retry_count, 0, "retryCount after reactivate")
        # Reactivating a task that succeeded is refused.
        self.wait_task(job, "ok")
        e = batch_error(lambda: c.task.reactivate(job, "ok"), 409)
        long_fi = c.task.get(job, "long").execution_info.failure_info
        return "terminate -> completed/failure (%s); reactivate reruns; success 409 %s" % (
            long_fi and long_fi.code, e.error.code if e.error else None)

    # -- dependencies -------------------------------------------------------------------------
    def start_dependencies(self):
        self.dep_job = "cf-deps"
        self.add_job(self.dep_job, self.pool, uses_task_dependencies=True)
        c = self.client
        c.task.add_collection(self.dep_job, [
            m.TaskAddParameter(id="3", command_line="/bin/sh -c 'echo c'",
                               depends_on=m.TaskDependencies(task_ids=["2"])),
            m.TaskAddParameter(id="2", command_line="/bin/sh -c 'echo b'",
                               depends_on=m.TaskDependencies(task_ids=["1"])),
            m.TaskAddParameter(id="1", command_line="/bin/sh -c 'sleep 0.3; echo a'"),
            m.TaskAddParameter(id="4", command_line="/bin/sh -c 'echo d'",
                               depends_on=m.TaskDependencies(
                                   task_id_ranges=[m.TaskIdRange(start=1, end=3)])),
            m.TaskAddParameter(id="fails", command_line="/bin/sh -c 'exit 1'"),
            m.TaskAddParameter(id="blocked", command_line="true",
                               depends_on=m.TaskDependencies(task_ids=["fails"])),
        ])

    def check_dependencies(self):
        c = self.client
        ts = {i: self.wait_task(self.dep_job, i) for i in ("1", "2", "3", "4")}
        for before, after in (("1", "2"), ("2", "3"), ("1", "4"), ("2", "4"), ("3", "4")):
            b, a = ts[before].execution_info, ts[after].execution_info
            expect(a.start_time >= b.end_time,
                   "task %s started %s before %s ended %s"
                   % (after, a.start_time, before, b.end_time))
        expect_eq([t.depends_on.task_ids for t in (ts["2"], ts["3"])], [["1"], ["2"]], "dependsOn")
        # dependencyAction defaults to block: a failed prerequisite keeps the dependent waiting.
        self.wait_task(self.dep_job, "fails")
        time.sleep(0.5)
        expect_eq(enum_value(c.task.get(self.dep_job, "blocked").state), "active",
                  "state of a task whose prerequisite failed")
        # A job without usesTaskDependencies refuses dependsOn.
        batch_error(lambda: self.add_task(self.outcome_job, "dep-x", "true",
                                          depends_on=m.TaskDependencies(task_ids=["ok"])), 409,
                    "TaskDependenciesNotSpecifiedOnJob")
        return "1 -> 2 -> 3, range 1-3 -> 4 in order"

    # -- job terminate and counts -------------------------------------------------------------
    def check_task_counts(self):
        c = self.client
        for t in ("exit3", "retry", "ok", "long"):
            self.wait_task(self.outcome_job, t)
        counts = c.job.get_task_counts(self.outcome_job)
        tc = counts.task_counts
        expect_eq((tc.active, tc.running, tc.completed, tc.succeeded, tc.failed), (0, 0, 4, 1, 3),
                  "taskCounts (active, running, completed, succeeded, failed)")
        sc = counts.task_slot_counts
        expect(sc is not None and sc.completed == 4, "taskSlotCounts %r" % (sc and sc.as_dict()))
        seed = c.job.get_task_counts("seed-sweep").task_counts
        every = list(c.task.list("seed-sweep"))
        failed = sum(1 for t in every if enum_value(t.execution_info.result) == "failure")
        expect_eq((seed.completed, seed.failed, seed.succeeded),
                  (len(every), failed, len(every) - failed), "seed-sweep counts")
        return "cf-outcome 4 completed (1 ok, 3 failed); seed-sweep %d/%d" % (
            seed.completed, failed)

    def check_job_terminate(self):
        c = self.client
        job = "cf-term"
        self.add_job(job, self.pool_empty)
        self.add_task(job, "queued", "true")
        c.job.terminate(job, terminate_reason="conformance-stop")
        j = wait_for("job to complete", lambda: (lambda x: x if enum_value(x.state) == "completed"
                                                 else None)(c.job.get(job)), timeout=20)
        expect_eq(j.execution_info.terminate_reason, "conformance-stop", "terminateReason")
        expect(j.execution_info.end_time is not None, "executionInfo.endTime missing")
        expect_eq(enum_value(c.task.get(job, "queued").state), "completed", "queued task state")
        batch_error(lambda: self.add_task(job, "late", "true"), 409, "JobCompleted")
        # Default reason.
        self.add_job("cf-term2", self.pool_empty)
        c.job.terminate("cf-term2")
        j2 = wait_for("job to complete", lambda: (lambda x: x if enum_value(x.state) == "completed"
                                                  else None)(c.job.get("cf-term2")), timeout=20)
        expect_eq(j2.execution_info.terminate_reason, "UserTerminate", "default terminateReason")
        return "completed, terminateReason conformance-stop / UserTerminate"

    # -- pools --------------------------------------------------------------------------------
    def check_resize(self):
        c = self.client
        pid = self.pool_resize
        wait_for("pool steady", lambda: enum_value(c.pool.get(pid).allocation_state) == "steady")
        c.pool.resize(pid, m.PoolResizeParameter(target_dedicated_nodes=20))
        p = c.pool.get(pid)
        expect_eq(enum_value(p.allocation_state), "resizing", "allocationState after resize")
        expect_eq(p.target_dedicated_nodes, 20, "targetDedicatedNodes after resize")
        batch_error(lambda: c.pool.resize(pid, m.PoolResizeParameter(target_dedicated_nodes=3)),
                    409)
        c.pool.stop_resize(pid)
        p = c.pool.get(pid)
        expect(enum_value(p.allocation_state) in ("stopping", "steady"),
               "allocationState after stopresize %r" % p.allocation_state)
        p = wait_for("steady after stopresize",
                     lambda: (lambda x: x if enum_value(x.allocation_state) == "steady" else None)(
                         c.pool.get(pid)), timeout=20)
        nodes = list(c.compute_node.list(pid))
        expect(p.current_dedicated_nodes < 20, "stopresize did not stop: %d nodes" % len(nodes))
        expect_eq(len(nodes), p.current_dedicated_nodes, "node list vs currentDedicatedNodes")
        # Resize down to 0 works from steady.
        c.pool.resize(pid, m.PoolResizeParameter(target_dedicated_nodes=0))
        wait_for("pool empty", lambda: not list(c.compute_node.list(pid))
                 and enum_value(c.pool.get(pid).allocation_state) == "steady", timeout=20)
        return ("resizing -> stopresize -> steady at %d of 20 nodes, then 0"
                % p.current_dedicated_nodes)

    def check_account(self):
        c = self.client
        images = list(c.account.list_supported_images())
        expect(images, "no supported images")
        for i in images:
            expect(i.node_agent_sku_id and i.image_reference and i.image_reference.publisher
                   and enum_value(i.os_type) in ("linux", "windows"), "image %r" % i.as_dict())
        linux = list(c.account.list_supported_images(
            m.AccountListSupportedImagesOptions(filter="osType eq 'linux'")))
        expect(linux and all(enum_value(i.os_type) == "linux" for i in linux), "osType filter")
        counts = {pc.pool_id: pc for pc in c.account.list_pool_node_counts()}
        expect("seed-gpu" in counts and self.pool in counts,
               "pools in node counts: %r" % sorted(counts))
        d = counts["seed-gpu"].dedicated
        expect_eq(d.total, 8, "seed-gpu dedicated total")
        expect_eq(d.idle + d.running, 8, "seed-gpu idle + running")
        expect_eq(counts["seed-gpu"].low_priority.total, 0, "seed-gpu low priority total")
        one = list(c.account.list_pool_node_counts(
            m.AccountListPoolNodeCountsOptions(filter="poolId eq 'seed-cpu'")))
        expect_eq([x.pool_id for x in one], ["seed-cpu"], "node counts filtered by poolId")
        return "%d images; node counts for %d pools" % (len(images), len(counts))

    def check_remote_login(self):
        c = self.client
        node = list(c.compute_node.list(self.pool))[0]
        r = c.compute_node.get_remote_login_settings(self.pool, node.id)
        expect(r.remote_login_ip_address, "remoteLoginIPAddress missing")
        expect(isinstance(r.remote_login_port, int) and 0 < r.remote_login_port < 65536,
               "remoteLoginPort %r" % r.remote_login_port)
        batch_error(lambda: c.compute_node.get(self.pool, "tvm-nonexistent"), 404, "NodeNotFound")
        return "%s:%d" % (r.remote_login_ip_address, r.remote_login_port)

    def check_start_task(self):
        c = self.client
        nodes = self.idle_nodes(self.pool_start, 1)
        n = c.compute_node.get(self.pool_start, nodes[0].id)
        sti = n.start_task_info
        expect(sti is not None, "startTaskInfo missing")
        expect_eq(enum_value(sti.state), "completed", "startTaskInfo.state")
        expect_eq(sti.exit_code, 0, "startTaskInfo.exitCode")
        expect(n.start_task and "hello-from-start-task" in n.start_task.command_line,
               "node startTask missing")
        out = b"".join(c.file.get_from_compute_node(self.pool_start, n.id, "startup/stdout.txt"))
        expect_eq(out, b"hello-from-start-task\n", "startup/stdout.txt")
        err = b"".join(c.file.get_from_compute_node(self.pool_start, n.id, "startup/stderr.txt"))
        expect_eq(err, b"to-stderr\n", "startup/stderr.txt")
        props = c.file.get_properties_from_compute_node(self.pool_start, n.id, "startup/stdout.txt",
                                                        raw=True)
        expect_eq(int(props.headers["Content-Length"]), len(out), "node file Content-Length")
        names = {f.name for f in
                 c.file.list_from_compute_node(self.pool_start, n.id, recursive=True)}
        expect("startup/stdout.txt" in names, "startup/stdout.txt not listed: %r" % sorted(names))
        return "startTaskInfo completed/0; startup/stdout.txt read back"

    def check_job_prep(self):
        c = self.client
        job = "cf-prep"
        self.add_job(job, self.pool_start, job_preparation_task=m.JobPreparationTask(
            command_line="/bin/sh -c 'sleep 0.2; date +%s%N > $AZ_BATCH_NODE_SHARED_DIR/prep-mark; "
                         "echo prep-ran'"))
        self.add_task(job, "after-prep", "/bin/sh -c 'cat $AZ_BATCH_NODE_SHARED_DIR/prep-mark; "
                                          "date +%s%N'")
        t = self.wait_task(job, "after-prep")
        expect_eq(t.execution_info.exit_code, 0, "exit code (the prep mark file was missing?)")
        lines = self.task_file(job, "after-prep", "stdout.txt").decode().split()
        expect(len(lines) == 2 and int(lines[0]) <= int(lines[1]), "marks %r" % lines)
        st = list(c.job.list_preparation_and_release_task_status(job))
        expect_eq(len(st), 1, "prep/release status entries")
        pi = st[0].job_preparation_task_execution_info
        expect(pi is not None, "jobPreparationTaskExecutionInfo missing")
        expect_eq(enum_value(pi.state), "completed", "prep state")
        expect_eq(pi.exit_code, 0, "prep exit code")
        expect(pi.end_time <= t.execution_info.start_time, "prep ended %s after the task started %s"
               % (pi.end_time, t.execution_info.start_time))
        expect_eq(st[0].node_id, t.node_info.node_id, "prep node vs task node")
        return "prep completed before the task started on node %s" % st[0].node_id

    def check_multi_instance(self):
        c = self.client
        job = "cf-mpi"
        self.add_job(job, self.pool)
        self.add_task(job, "mpi", "/bin/sh -c 'echo HOSTS=$AZ_BATCH_HOST_LIST; "
                                  "echo MASTER=$AZ_BATCH_MASTER_NODE'",
                      multi_instance_settings=m.MultiInstanceSettings(
                          number_of_instances=2, coordination_command_line="/bin/sh -c true"))
        t = self.wait_task(job, "mpi")
        expect_eq(t.execution_info.exit_code, 0, "exit code")
        out = self.task_file(job, "mpi", "stdout.txt").decode()
        hosts = re.search(r"HOSTS=(\S*)", out)
        expect(hosts, "no HOSTS line in %r" % out)
        ips = hosts.group(1).split(",")
        node_ips = {n.id: n.ip_address for n in c.compute_node.list(self.pool)}
        expect_eq(len(ips), 2, "AZ_BATCH_HOST_LIST entries %r" % ips)
        expect_eq(set(ips), set(node_ips.values()), "AZ_BATCH_HOST_LIST vs the pool's node IPs")
        subs = list(c.task.list_subtasks(job, "mpi").value)
        expect(subs, "no subtasks")
        ids = [s.id for s in subs]
        expect_eq(len(ids), len(set(ids)), "subtask ids unique")
        nodes = {s.node_info.node_id for s in subs} | {t.node_info.node_id}
        expect_eq(nodes, set(node_ips), "nodes of the primary and its subtasks")
        expect(all(enum_value(s.state) == "completed" for s in subs),
               "subtask states %r" % [s.state for s in subs])
        expect_eq(t.multi_instance_settings.number_of_instances, 2, "numberOfInstances")
        master = re.search(r"MASTER=(\S*)", out)
        expect(master and master.group(1).split(":")[0] in ips, "AZ_BATCH_MASTER_NODE %r" % out)
        return "hosts %s; subtasks %r" % (hosts.group(1), ids)

    # -- node reboot / preemption -------------------------------------------------------------
    def check_reboot(self):
        c = self.client
        job = "cf-reboot"
        node = self.idle_nodes(self.pool_reboot, 1)[0].id
        self.add_job(job, self.pool_reboot)
        self.add_task(job, "victim", "sleep 60")
        first = self.wait_task(job, "victim", state="running")
        c.compute_node.reboot(self.pool_reboot, node)
        n = c.compute_node.get(self.pool_reboot, node)
        expect(enum_value(n.state) in ("rebooting", "starting", "idle", "running"),
               "node state after reboot %r" % n.state)
        t = wait_for("task requeued", lambda: (lambda x: x if x.execution_info.requeue_count >= 1
                                               else None)(c.task.get(job, "victim")), timeout=20)
        expect(enum_value(t.state) in ("active", "preparing", "running"), "state %r" % t.state)
        t = self.wait_task(job, "victim", state="running",
                           pred=lambda x: (x.execution_info.start_time
                                           > first.execution_info.start_time))
        expect_eq(t.execution_info.requeue_count, 1, "requeueCount")
        expect(t.execution_info.last_requeue_time is not None, "lastRequeueTime missing")
        n = c.compute_node.get(self.pool_reboot, node)
        expect(n.last_boot_time is not None and n.last_boot_time > first.execution_info.start_time,
               "lastBootTime did not move")
        c.job.terminate(job)
        return "rebooted %s; task requeued (requeueCount 1) and ran again" % node

    def check_preempt(self):
        c = self.client
        job = "cf-preempt"
        node = self.idle_nodes(self.pool_preempt, 1)[0].id
        self.add_job(job, self.pool_preempt)
        self.add_task(job, "victim", "sleep 60")
        first = self.wait_task(job, "victim", state="running")
        sent = time.monotonic()
        r = self.raw("POST", "/__trainyard/preempt", {"poolId": self.pool_preempt, "nodeId": node})
        expect(r.status_code in (200, 202, 204), "preempt answered %s %s" % (r.status_code, r.text))
        n = c.compute_node.get(self.pool_preempt, node)
        t = c.task.get(job, "victim")
        # A preempted node stays down 4 node steps (0.4 s): on a slow machine it may be back.
        if time.monotonic() - sent < 0.3:
            expect_eq(enum_value(n.state), "preempted", "node state right after preemption")
            expect_eq(enum_value(t.state), "active", "task state right after preemption")
        expect_eq(t.execution_info.requeue_count, 1, "requeueCount")
        t = self.wait_task(job, "victim", state="running",
                           pred=lambda x: (x.execution_info.start_time
                                           > first.execution_info.start_time))
        expect_eq(t.execution_info.requeue_count, 1, "requeueCount after rerun")
        # An unsigned control request is refused like any other.
        r = requests.post(self.emu.endpoint + "/__trainyard/preempt?api-version=" + API_VERSION,
                          json={"poolId": self.pool_preempt, "nodeId": node}, timeout=10)
        expect_eq(r.status_code, 403, "unsigned preempt")
        c.job.terminate(job)
        return "node preempted; task active -> running again, new startTime, requeueCount 1"

    # -- faults -------------------------------------------------------------------------------
    def check_faults(self):
        # msrest 0.6 configures urllib3's Retry with status_forcelist = 408 and 5xx but 501/505,
        # backoff 0.8 s; msrestazure's AzureConfiguration raises the retries from 3 to 4. 429 is
        # not in that list; urllib3 still retries it because the answer carries Retry-After
        # (Retry.RETRY_AFTER_STATUS_CODES), sleeping the Retry-After seconds. (A POST gets one
        # retry only: urllib3 1.26's Retry.new() drops msrest's method_whitelist.)
        spec = "429=0.3,503=0.2,seed=5"
        with Emulator(self.exe, ["--seed-tasks", "50", "--faults", spec]) as emu:
            client = self.make_client(emu)
            try:
                # The dice are seeded and only this client draws them, so the run is repeatable.
                ids = [t.id for t in client.task.list("seed-sweep")]
                expect_eq(len(ids), 50, "tasks listed through faults")
                paged = [t.id for t in client.task.list("seed-sweep",
                                                        m.TaskListOptions(max_results=10))]
                expect_eq(sorted(paged), sorted(ids), "list with maxresults=10 through faults")
                statuses = self.counters(emu)
                expect(statuses.get("429", 0) > 0, "no 429 was served: %r" % statuses)
                # How often the SDK tries: every answer a fault, one GET = 1 + 4 retries.
                tries = {}
                raised = {}
                for code in ("503", "429"):
                    r = self.raw("POST", "/__trainyard/faults", {"spec": "%s=1" % code}, emu=emu)
                    expect_eq(r.status_code, 204, "setting faults through the control endpoint")
                    self.raw("POST", "/__trainyard/reset-counters", {}, emu=emu)
                    try:
                        client.job.get("seed-sweep")
                        raise CheckFailed("a GET succeeded while every answer was %s" % code)
                    except m.BatchErrorException as e:
                        raised[code] = "BatchErrorException %s" % (e.error and e.error.code)
                    except ClientRequestError:  # urllib3 gave up itself: RetryError
                        raised[code] = "ClientRequestError"
                    tries[code] = self.counters(emu).get(code, 0)
                expect_eq(tries, {"503": 5, "429": 5}, "attempts of a GET under constant faults")
            finally:
                client.close()
            return ("50 tasks listed through %s (served %s); a GET tries 5 times under constant "
                    "faults, then raises %s" % (spec, json.dumps(statuses, sort_keys=True),
                                                json.dumps(raised, sort_keys=True)))

    def counters(self, emu):
        r = self.raw("GET", "/__trainyard/counters", emu=emu)
        expect_eq(r.status_code, 200, "counters status")
        return r.json().get("statuses", {})


def main():
    if len(sys.argv) != 2:
        print("usage: sdk_conformance.py <path-to-trainyard>", file=sys.stderr)
        return 2
    exe = sys.argv[1]
    # SIGTERM (a ctest timeout) unwinds like Ctrl-C, so the emulators are always stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    checks = Checks()
    t0 = time.monotonic()
    emu = Emulator(exe, ["--seed-tasks", "25"])
    try:
        emu.start()
    except Exception as e:
        print("FAIL %-44s %s" % ("emulator start", e))
        print("0 passed, 1 failed")
        return 1
    try:
        s = Suite(emu, exe)
        if not checks.run("setup (pools, jobs, tasks)", s.setup):
            print("%d passed, %d failed" % (checks.passed, checks.failed))
            return 1
        checks.run("start long-running fixtures", lambda: (
            s.start_tail_task(), s.start_outcome_tasks(), s.start_dependencies()) and None)
        checks.run("ranged reads of a growing stdout", s.check_tail_stdout)
        checks.run("client-request-id echo", s.check_client_request_id)
        checks.run("pool allocation (2 idle nodes)", s.check_pool_allocation)
        checks.run("paging maxresults=1", s.check_paging)
        checks.run("$filter and $select", s.check_filter_select)
        checks.run("expected errors", s.check_errors)
        checks.run("conditional requests", s.check_conditional)
        checks.run("task.add_collection", s.check_add_collection)
        checks.run("exit code 3 -> FailureExitCode", s.check_exit_code)
        checks.run("maxTaskRetryCount=2", s.check_retries)
        checks.run("environment settings", s.check_environment)
        checks.run("dependsOn ordering", s.check_dependencies)
        checks.run("task terminate / reactivate", s.check_terminate_reactivate)
        checks.run("job task counts", s.check_task_counts)
        checks.run("job terminate", s.check_job_terminate)
        checks.run("pool resize / stop resize", s.check_resize)
        checks.run("supported images, node counts", s.check_account)
        checks.run("remote login settings", s.check_remote_login)
        checks.run("start task output", s.check_start_task)
        checks.run("job preparation task", s.check_job_prep)
        checks.run("multi-instance task", s.check_multi_instance)
        checks.run("node reboot requeues", s.check_reboot)
        checks.run("preemption control endpoint", s.check_preempt)
        checks.run("faults 429/503 with SDK retries", s.check_faults)
    finally:
        log = emu.stderr_text()
        code = emu.stop()
        if checks.failed:
            print("emulator exit status %s; the end of its stderr:" % code)
            for line in log.splitlines()[-30:]:
                print("# " + line)
    print("elapsed %.1fs" % (time.monotonic() - t0))
    print("%d passed, %d failed" % (checks.passed, checks.failed))
    return 0 if checks.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

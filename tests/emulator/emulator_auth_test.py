#!/usr/bin/env python3
"""`trainyard emulator`: who may call what, and where its secrets go.

Authentication decided by the matched route (a job or pool named `oauth2` is no way around it);
the Entra token, IMDS and management-plane endpoints only with `--identity`; `--env-file` written
with mode 0600; task processes (and every process between them and the emulator) without the
account key or other secret variables; `--bind` accepting only loopback addresses; small answers
not held back by Nagle's algorithm.

    emulator_auth_test.py PATH/TO/trainyard
"""
import base64
import ctypes
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

from emulator_http_test import API, RESULTS, Emulator, check, wait_for

FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def token_form(secret):
    return urllib.parse.urlencode({"grant_type": "client_credentials", "client_id": "app",
                                   "client_secret": secret, "scope": "https://batch.core.windows.net//.default"})


def test_ids_named_like_public_paths(exe):
    """Before: any path holding `/oauth2/` skipped api-version and authentication."""
    e = Emulator(exe)
    try:
        e.json("POST", "/pools?" + API, {"id": "oauth2", "vmSize": "standard_d2s_v3", "targetDedicatedNodes": 0})
        s, _, _ = e.json("POST", "/jobs?" + API, {"id": "oauth2", "poolInfo": {"poolId": "oauth2"}})
        check("a job named oauth2 can be added", s == 201, s)
        task = {"id": "evil", "commandLine": "true"}
        s1, _, _ = e.json("POST", "/jobs/oauth2/tasks", task, sign=False)
        s2, _, _ = e.json("POST", "/jobs/oauth2/tasks?" + API, task, sign=False)
        check("an unsigned task add to job oauth2 is refused", s1 in (400, 401, 403) and s2 == 403, (s1, s2))
        s3, _, _ = e.json("POST", "/pools/oauth2/resize?" + API, {"targetDedicatedNodes": 3}, sign=False)
        s4, _, _ = e.json("GET", "/jobs/oauth2/tasks?" + API, sign=False)
        check("unsigned resize and list of oauth2 entities are 403", (s3, s4) == (403, 403), (s3, s4))
        _, _, tasks = e.json("GET", "/jobs/oauth2/tasks?" + API)
        _, _, pool = e.json("GET", "/pools/oauth2?" + API)
        check("nothing was added or resized", tasks["value"] == [] and pool["targetDedicatedNodes"] == 0,
              (tasks, pool.get("targetDedicatedNodes")))
    finally:
        e.stop()


def identity_statuses(e):
    """Statuses of a token, an IMDS token and an account listing, each asked correctly."""
    s1, _, tok = e.json("POST", "/tenant-1/oauth2/v2.0/token", token_form(e.key), sign=False, headers=FORM)
    imds = "/metadata/identity/oauth2/token?api-version=2018-02-01&resource=" + \
        urllib.parse.quote("https://management.azure.com/")
    s2, _, mi = e.json("GET", imds, sign=False, headers={"Metadata": "true"})
    bearer = {"Authorization": "Bearer " + (mi or {}).get("access_token", "none")} if s2 == 200 else {}
    s3, _, _ = e.json("GET", "/subscriptions/sub-1/providers/Microsoft.Batch/batchAccounts?api-version=2025-06-01",
                      headers=bearer, sign=False)
    return s1, s2, s3


def test_identity_only_when_asked(exe):
    e = Emulator(exe)
    try:
        statuses = identity_statuses(e)
        check("without --identity the token, IMDS and management endpoints are 404", statuses == (404, 404, 404),
              statuses)
        s, _, _ = e.json("GET", "/pools?" + API)
        check("without --identity the Batch API still answers", s == 200, s)
    finally:
        e.stop()
    e = Emulator(exe, "--identity")
    try:
        statuses = identity_statuses(e)
        check("with --identity they answer", statuses == (200, 200, 200), statuses)
        s, _, b = e.json("POST", "/tenant-1/oauth2/v2.0/token", token_form(e.key[:-4] + "AAA="), sign=False,
                         headers=FORM)
        check("a client secret differing in its last bytes is 401", s == 401 and b["error"] == "invalid_client", s)
    finally:
        e.stop()


def wait_file_line(path, prefix, proc, timeout=15):
    end = time.time() + timeout
    while time.time() < end and proc.poll() is None:
        try:
            with open(path) as f:
                if any(line.startswith(prefix) for line in f):
                    return True
        except FileNotFoundError:
            pass
        time.sleep(0.05)
    return False


def test_env_file(exe, workdir):
    path = os.path.join(workdir, "emu.env")
    with open(path, "w") as f:
        f.write("stale\n")
    os.chmod(path, 0o644)
    key = base64.b64encode(os.urandom(64)).decode()
    proc = subprocess.Popen([exe, "emulator", "--port", "0", "--key", key, "--env-file", path],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: os.umask(0))
    try:
        ready = wait_file_line(path, "export AZURE_BATCH_ACCESS_KEY=", proc)
        mode = os.stat(path).st_mode & 0o777
        lines = open(path).read().splitlines()
        check("--env-file replaces the file with mode 0600 even under umask 0", ready and mode == 0o600,
              (ready, oct(mode)))
        names = [line.partition("=")[0] for line in lines]
        check("--env-file holds the three export lines",
              names == ["export AZURE_BATCH_ENDPOINT", "export AZURE_BATCH_ACCOUNT", "export AZURE_BATCH_ACCESS_KEY"]
              and lines[2] == "export AZURE_BATCH_ACCESS_KEY=" + key, lines)
        r = subprocess.run(["sh", "-c", '. "$1" && printf "%s %s" "$AZURE_BATCH_ACCOUNT" "$AZURE_BATCH_ENDPOINT"',
                            "sh", path], capture_output=True, text=True, timeout=10)
        account, _, endpoint = r.stdout.partition(" ")
        url = urllib.parse.urlsplit(endpoint)
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
        conn.request("GET", "/pools?" + API)
        status = conn.getresponse().status
        conn.close()
        check("sourcing it gives the account and an endpoint that answers", account == "emulator" and status == 403,
              (r.stdout, r.stderr, status))
        leftovers = [n for n in os.listdir(workdir) if n.startswith("emu.env")]
        check("no temporary file is left beside it", leftovers == ["emu.env"], leftovers)
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=30)
    check("with --env-file the key is not printed on stdout", key not in out, out[:200])
    r = subprocess.run([exe, "emulator", "--port", "0", "--key", key, "--env-file",
                        os.path.join(workdir, "no-such-dir", "emu.env")], capture_output=True, text=True, timeout=30)
    check("an --env-file that cannot be written is a one-line error, nothing served",
          r.returncode == 1 and "no-such-dir/emu.env" in r.stderr and len(r.stderr.strip().splitlines()) == 1 and
          "export" not in r.stdout, (r.returncode, r.stderr, r.stdout))


# Prints the task's environment, then that of each ancestor up to the test (python3) or init.
ENV_DUMP = ("env; p=$PPID; while [ \"$p\" -gt 1 ] && [ \"$(cat /proc/$p/comm)\" != python3 ]; do "
            "echo \"--- $p $(cat /proc/$p/comm)\"; tr '\\000' '\\n' < /proc/$p/environ; "
            "p=$(cut -d' ' -f4 /proc/$p/stat); done")


def write_config_naming_secrets(workdir):
    """A config.json whose accounts take their secrets from TY_TEAM_KEY and TY_SP_SECRET."""
    path = os.path.join(workdir, "config.json")
    with open(path, "w") as f:
        json.dump({"version": 1, "accounts": [
            {"name": "team", "endpoint": "https://team.westeurope.batch.azure.com",
             "auth": {"type": "sharedKey", "keyEnv": "TY_TEAM_KEY"}},
            {"name": "prod", "endpoint": "https://prod.eastus.batch.azure.com",
             "auth": {"type": "servicePrincipal", "tenantId": "t", "clientId": "c",
                      "clientSecretEnv": "TY_SP_SECRET"}}]}, f)
    return path


def test_task_environment(exe, workdir):
    key = base64.b64encode(os.urandom(64)).decode()
    secrets = {"TRAINYARD_EMULATOR_KEY": key, "AZURE_BATCH_ACCESS_KEY": "batch-key-7f3a9c",
               "AZURE_CLIENT_SECRET": "client-secret-5d2e81", "TY_TEAM_KEY": "team-key-91c2e4",
               "TY_SP_SECRET": "sp-secret-0a7d55"}
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TMPDIR": os.environ.get("TMPDIR", "/tmp"),
           "TRAINYARD_CONFIG": write_config_naming_secrets(workdir), "TY_MARKER": "marker-visible-4b1",
           **secrets}
    e = Emulator(exe, env=env)
    try:
        e.json("POST", "/pools?" + API, {"id": "envp", "vmSize": "standard_d2s_v3", "targetDedicatedNodes": 1})
        e.json("POST", "/jobs?" + API, {"id": "envj", "poolInfo": {"poolId": "envp"}})
        e.json("POST", "/jobs/envj/tasks?" + API, {"id": "dump", "commandLine": ENV_DUMP})
        done = wait_for(lambda: e.json("GET", "/jobs/envj/tasks/dump?" + API)[2]["state"] == "completed", 40)
        _, _, out = e.call("GET", "/jobs/envj/tasks/dump/files/stdout.txt?" + API)
        text = out.decode(errors="replace")
        check("the task's environment and its ancestors' were read",
              done and "TY_MARKER=marker-visible-4b1" in text and "--- " in text, text[:300])
        leaked = [name for name, value in secrets.items() if value in text or name + "=" in text]
        check("no secret variable reaches the task or any process above it", not leaked, leaked)
    finally:
        e.stop()


def test_loopback_bind(exe):
    for bad in ("127.evil.example", "127.0.0.1.nip.io", "1270::1", "::ffff:10.0.0.1"):
        r = subprocess.run([exe, "emulator", "--bind", bad, "--key", base64.b64encode(b"k" * 48).decode()],
                           capture_output=True, text=True, timeout=30)
        check("--bind %s is not loopback" % bad, r.returncode == 2 and "--allow-remote" in r.stderr,
              (r.returncode, r.stderr))
    e = Emulator(exe, "--bind", "127.0.0.2")
    try:
        check("--bind 127.0.0.2 is loopback and serves", e.host == "127.0.0.2" and e.json("GET", "/pools?" + API)[0]
              == 200, e.host)
    finally:
        e.stop()


def server_socket_option(pid, peer, level, option):
    """The option of process pid's socket whose peer is `peer`, read from a copy of its descriptor."""
    libc = ctypes.CDLL(None, use_errno=True)
    pidfd = os.pidfd_open(pid)
    try:
        for name in os.listdir("/proc/%d/fd" % pid):
            if not os.readlink("/proc/%d/fd/%s" % (pid, name)).startswith("socket:"):
                continue
            fd = libc.syscall(438, pidfd, int(name), 0)  # pidfd_getfd
            if fd < 0:
                raise OSError(ctypes.get_errno(), "pidfd_getfd")
            with socket.socket(fileno=fd) as sock:
                try:
                    if sock.getpeername()[:2] == peer:
                        return sock.getsockopt(level, option)
                except OSError:
                    pass  # a listening socket has no peer
    finally:
        os.close(pidfd)
    return None


def test_small_answers_not_delayed(exe):
    """Nagle's algorithm held each answer's second write until the client's delayed ACK (~40 ms)."""
    e = Emulator(exe)
    try:
        conn = http.client.HTTPConnection(e.host, e.port, timeout=10)
        headers = {"ocp-date": time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime())}
        headers["Authorization"] = e.sign("GET", "/pools?" + API, headers)
        conn.request("GET", "/pools?" + API, headers=headers)
        conn.getresponse().read()
        option = server_socket_option(e.proc.pid, conn.sock.getsockname()[:2], socket.IPPROTO_TCP,
                                      socket.TCP_NODELAY)
        conn.close()
        check("the emulator's connection sets TCP_NODELAY", option not in (None, 0), option)
    finally:
        e.stop()


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="trainyard-emu-auth-") as workdir:
        os.environ["TMPDIR"] = workdir
        test_ids_named_like_public_paths(exe)
        test_identity_only_when_asked(exe)
        test_env_file(exe, workdir)
        test_task_environment(exe, workdir)
        test_loopback_bind(exe)
        test_small_answers_not_delayed(exe)
    print("%d passed, %d failed" % (RESULTS["passed"], RESULTS["failed"]))
    return 1 if RESULTS["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())

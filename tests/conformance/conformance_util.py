"""Starting and stopping `trainyard emulator` for the conformance scripts.

An Emulator starts its own process on a free loopback port (``--port 0``) with a fresh random
account key, reads the ``export AZURE_BATCH_*`` lines it prints, and stops it with SIGTERM
(SIGKILL when it does not end in time). Use it as a context manager so it is stopped on failure.
"""

import base64
import os
import re
import select
import signal
import subprocess
import tempfile
import time


class EmulatorError(RuntimeError):
    pass


class Emulator:
    def __init__(self, exe, extra_args=(), node_step_ms=100, start_timeout=20.0):
        self.exe = exe
        self.extra_args = list(extra_args)
        self.node_step_ms = node_step_ms
        self.start_timeout = start_timeout
        self.key = base64.b64encode(os.urandom(32)).decode("ascii")
        self.proc = None
        self.endpoint = None
        self.account = None
        self.stderr_path = None

    def start(self):
        args = [self.exe, "emulator", "--port", "0", "--key", self.key,
                "--node-step-ms", str(self.node_step_ms)] + self.extra_args
        # stderr goes to a file so a chatty emulator never blocks on a full pipe.
        fd, self.stderr_path = tempfile.mkstemp(prefix="trainyard-conformance-", suffix=".err")
        self._stderr = os.fdopen(fd, "wb")
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=self._stderr, start_new_session=True)
        env = {}
        buf = b""
        deadline = time.monotonic() + self.start_timeout
        fd = self.proc.stdout.fileno()
        while len(env) < 3:
            left = deadline - time.monotonic()
            if left <= 0:
                self.stop()
                raise EmulatorError("emulator printed no endpoint within %.0f s"
                                    % self.start_timeout)
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 4096)
            if not chunk:
                code = self.proc.wait()
                text = self.stderr_text()
                self.stop()
                raise EmulatorError("emulator exited with %s before printing its endpoint: %s"
                                    % (code, text))
            buf += chunk
            for k, v in re.findall(rb"export (AZURE_BATCH_\w+)=(\S+)", buf):
                env[k.decode()] = v.decode()
        self.endpoint = env["AZURE_BATCH_ENDPOINT"]
        self.account = env["AZURE_BATCH_ACCOUNT"]
        if env["AZURE_BATCH_ACCESS_KEY"] != self.key:
            self.stop()
            raise EmulatorError("emulator printed a different key than it was given")
        return self

    def stderr_text(self, limit=4000):
        try:
            with open(self.stderr_path, "rb") as f:
                return f.read()[-limit:].decode("utf-8", "replace")
        except OSError:
            return ""

    def stop(self, timeout=15.0):
        """SIGTERM, wait, SIGKILL on timeout. Returns the exit status (None if never started)."""
        if self.proc is None:
            return None
        code = self.proc.poll()
        if code is None:
            try:
                self.proc.send_signal(signal.SIGTERM)
                code = self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                code = self.proc.wait()
        try:
            self.proc.stdout.close()
        except OSError:
            pass
        try:
            self._stderr.close()
        except OSError:
            pass
        if os.environ.get("TRAINYARD_KEEP_EMULATOR_LOG") != "1":
            try:
                os.unlink(self.stderr_path)
            except OSError:
                pass
        return code

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False

"""Starting `fastblur serve` for a test and talking to it (127.0.0.1 only, bounded time)."""
import http.client
import json
import os
import re
import signal
import struct
import subprocess
import time
import urllib.parse
import zlib

CLI = os.environ.get("FASTBLUR_CLI", "build/fastblur")


class Server:
    """`fastblur serve --port 0` in a subprocess; the URL and temporary folder from its first lines."""

    def __init__(self, *args):
        self.proc = subprocess.Popen([CLI, "serve", "--port", "0", *args], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        try:
            first = self.proc.stdout.readline()
            second = self.proc.stdout.readline()
            m = re.match(r"fastblur serve: (http://127\.0\.0\.1:(\d+)/)$", first.strip())
            assert m, f"unexpected first line {first!r} (stderr: {self.proc.stderr.read() if self.proc.poll() is not None else ''})"
            self.url, self.port = m.group(1), int(m.group(2))
            t = re.search(r"temporary files in (\S+) ", second)
            assert t, second
            self.temp_dir = t.group(1)
        except BaseException:
            self.kill()
            raise

    def stop(self, timeout=20):
        """SIGTERM, as Ctrl-C would; returns the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=timeout)
        finally:
            self.kill()

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            # A killed process is reaped once the kernel has torn it down: an ASan build's address
            # space on a loaded 2-core machine took more than 10 s (the asan preset's serve_api).
            self.proc.wait(timeout=120)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream:
                stream.close()


class Client:
    """One browser-like client: keeps its session cookie."""

    def __init__(self, server, timeout=60):
        self.server = server
        self.timeout = timeout
        self.cookie = None

    def request(self, method, path, body=None, headers=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=self.timeout)
        try:
            h = dict(headers or {})
            if self.cookie:
                h["Cookie"] = self.cookie
            if isinstance(body, (dict, list)):
                body = json.dumps(body)
                h.setdefault("Content-Type", "application/json")
            conn.request(method, path, body=body, headers=h)
            res = conn.getresponse()
            data = res.read()
            cookie = res.getheader("Set-Cookie")
            if cookie:
                self.cookie = cookie.split(";")[0]
            return res.status, dict(res.getheaders()), data
        finally:
            conn.close()

    def json(self, method, path, body=None, headers=None):
        status, headers, data = self.request(method, path, body, headers)
        return status, json.loads(data)

    def upload(self, data, name):
        return self.json("POST", "/api/image", data, {"X-Filename": name, "Content-Type": "application/octet-stream"})


def query(params):
    return urllib.parse.quote(json.dumps(params))


def cli(*args, cwd=None):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=120, cwd=cwd)


def png(width, height, channels=3, seed=1):
    """An 8-bit PNG of a deterministic pattern (no library needed)."""
    def chunk(kind, payload):
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))
    rows = bytearray()
    for y in range(height):
        rows.append(0)
        for x in range(width):
            for c in range(channels):
                rows.append((x * 37 + y * 91 + c * 53 + seed * 17 + ((x // 4 + y // 4) % 2) * 120) % 256)
    colour = {1: 0, 2: 4, 3: 2, 4: 6}[channels]
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(bytes(rows))) + chunk(b"IEND", b""))


def wait_until(condition, timeout, what):
    """Polls `condition` until it is true (returns its value) or fails after `timeout` seconds."""
    end = time.time() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.time() > end:
            raise AssertionError(f"timed out after {timeout} s waiting for {what() if callable(what) else what}")
        time.sleep(0.1)

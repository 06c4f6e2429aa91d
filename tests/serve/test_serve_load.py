"""`fastblur serve` under a bounded load on 127.0.0.1: 16 clients at once, each sending a fixed number
of requests that mix valid blurs, uploads, downloads, junk bodies (not JSON, not UTF-8, wrong
shapes) and slow readers that send half a request and stall. Every answer must be 2xx or 4xx - 409
only for a page's superseded request, 503 never here (the CPU is always there) - the server's memory
must stay within its --max-memory-mb (plus the process's own working set), and at the end the
server still answers, stops cleanly on SIGTERM and leaves its temporary folder empty. Latency
percentiles are printed. Bounded: 16 x 24 requests, 120 s at most."""
import json
import os
import random
import socket
import statistics
import threading
import time

from serve_helpers import Client, Server, png, query

CLIENTS = 16
REQUESTS_EACH = 24
DEADLINE_S = 120
MAX_MEMORY_MB = 64


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def slow_reader(port, stop):
    """Sends half a request, waits, and leaves: the server must not be held by it."""
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    try:
        s.sendall(b"POST /api/blur HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Length: 400\r\n\r\n{\"sigma\":" % port)
        stop.wait(1.5)
    finally:
        s.close()


JUNK = [b"not json", b"\xff", b'{"image":"\xff\xfe","sigma":1}', b'{"a\x80":1}', b"[1,2,3]", b'{"sigma":"nan"}',
        b'{"sigma":1e300}', b'{"algorithm":"magic"}', b'{"options":{"passes":99},"algorithm":"box"}', b"{" * 5000]


def test_bounded_load():
    server = Server("--max-memory-mb", str(MAX_MEMORY_MB), "--preview", "256")
    statuses, latencies, errors = [], [], []
    lock = threading.Lock()
    stop = threading.Event()
    start = time.time()
    peak = [rss_mb(server.proc.pid)]

    def record(kind, status, seconds):
        with lock:
            statuses.append((kind, status))
            if kind != "slow":  # its own stall, not the server's latency
                latencies.append(seconds)

    def client(n):
        rng = random.Random(n)
        c = Client(server, timeout=60)
        uploaded = []
        for i in range(REQUESTS_EACH):
            if time.time() - start > DEADLINE_S:
                return
            kind = rng.choice(["blur", "blur", "upload", "junk", "junk", "slow", "download", "info"])
            t = time.perf_counter()
            try:
                if kind == "blur":
                    body = {"image": rng.choice(uploaded) if uploaded and rng.random() < 0.5 else "scene",
                            "sigma": rng.choice([0.5, 2, 7.5, 30]), "client": f"page{n}",
                            "algorithm": rng.choice(["auto", "fir", "box", "kawase", "iir"])}
                    status, _, _ = c.request("POST", "/api/blur", body)
                elif kind == "upload":
                    w, h = rng.randint(8, 300), rng.randint(8, 200)
                    status, _, data = c.request("POST", "/api/image", png(w, h, rng.randint(1, 4), seed=n + i),
                                                {"X-Filename": f"p{n}-{i}.png", "Content-Type": "application/octet-stream"})
                    if status == 200:
                        uploaded.append(json.loads(data)["id"])
                elif kind == "junk":
                    status, _, _ = c.request("POST", "/api/blur", rng.choice(JUNK), {"Content-Type": "application/json"})
                elif kind == "slow":
                    slow_reader(server.port, stop)
                    status = 200
                elif kind == "download":
                    status, _, _ = c.request("GET", "/api/download?params=" + query({"sigma": rng.choice([1, 3])}))
                else:
                    status, _, _ = c.request("GET", "/api/info")
            except Exception as e:  # a dropped connection is a failure of the server
                with lock:
                    errors.append(f"{kind}: {type(e).__name__}: {e}")
                continue
            record(kind, status, time.perf_counter() - t)
            with lock:
                peak[0] = max(peak[0], rss_mb(server.proc.pid))

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=DEADLINE_S + 60)
        stop.set()
        assert not any(t.is_alive() for t in threads), "a client hung"
        elapsed = time.time() - start
        bad = [(k, s) for k, s in statuses if not (200 <= s < 300 or (400 <= s < 500))]
        superseded = [(k, s) for k, s in statuses if s == 409 and k != "blur"]
        ms = sorted(1000 * x for x in latencies)
        pct = {p: ms[min(len(ms) - 1, int(p / 100 * len(ms)))] for p in (50, 90, 99)}
        counts = {}
        for k, s in statuses:
            counts[f"{k} {s}"] = counts.get(f"{k} {s}", 0) + 1
        print(f"{len(statuses)} answers in {elapsed:.1f} s from {CLIENTS} clients; latency ms p50 {pct[50]:.0f} "
              f"p90 {pct[90]:.0f} p99 {pct[99]:.0f} max {ms[-1]:.0f}; peak RSS {peak[0]:.0f} MiB")
        print(" ".join(f"{k}: {v}" for k, v in sorted(counts.items())))
        assert not errors, errors[:5]
        assert not bad, f"answers that are neither 2xx nor 4xx: {bad[:10]}"
        assert not superseded, f"409 outside a page's blurs: {superseded[:5]}"
        assert len(statuses) >= CLIENTS * REQUESTS_EACH * 0.9, "fewer answers than requests"
        # The images are held within --max-memory-mb; the rest is the process itself (code, the
        # scene, per-request buffers, threads' stacks): 110 MiB measured in release. Sanitizer builds
        # add their own: ASan's quarantine of freed memory (256 MiB by default) and shadow (521 MiB
        # measured), TSan's shadow of every access (its preset sets TSAN_OPTIONS).
        allowance = 400 + (768 if "ASAN_OPTIONS" in os.environ else 0) + (3072 if "TSAN_OPTIONS" in os.environ else 0)
        assert peak[0] < MAX_MEMORY_MB + allowance, f"peak RSS {peak[0]:.0f} MiB"
        status, _, _ = Client(server).request("GET", "/api/info")
        assert status == 200, "the server stopped answering"
        temp = server.temp_dir
        assert server.stop() == 0
        assert not os.path.exists(temp) or os.listdir(temp) == [], f"left behind: {os.listdir(temp)}"
    finally:
        stop.set()
        server.kill()

"""What the explorer's page waits for after a change: /api/blur's reply, then the pictures it shows
(split view: result and exact; data URLs in the reply for servers that send them so). Servers
given on the command line are alternated request by request; medians of --repeat rounds.

  /usr/bin/python3 bench/explorer_preview.py --repeat 15 ./build/fastblur [/tmp/fastblur_old]
"""
import argparse
import concurrent.futures
import http.client
import json
import socket
import statistics
import subprocess
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Page:
    """A browser's connections to one server: a session cookie, gzip accepted, two connections."""

    def __init__(self, port):
        self.port, self.cookie = port, ""

    def request(self, method, path, body=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Accept-Encoding": "gzip", "Content-Type": "application/json"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        conn.request(method, path, body, headers)
        r = conn.getresponse()
        data = r.read()
        if r.getheader("Set-Cookie"):
            self.cookie = r.getheader("Set-Cookie").split(";")[0]
        conn.close()
        return r.status, r.getheader("Content-Encoding"), data


def one_change(page, pool, body):
    import gzip
    t0 = time.perf_counter()
    status, enc, data = page.request("POST", "/api/blur", json.dumps(body))
    assert status == 200, data[:200]
    reply = json.loads(gzip.decompress(data) if enc == "gzip" else data)
    t_reply = time.perf_counter() - t0
    size = len(data)
    shown = [reply["images"]["result"], reply["images"]["exact"]]
    if not shown[0].startswith("data:"):
        sizes = list(pool.map(lambda url: len(page.request("GET", url)[2]), shown))
        size += sum(sizes)
    return t_reply, time.perf_counter() - t0, size


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("servers", nargs="+")
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    procs, pages = [], []
    for exe in args.servers:
        port = free_port()
        procs.append(subprocess.Popen([exe, "serve", "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        pages.append(Page(port))
    time.sleep(1.0)
    body = {"image": "scene", "sigma": [4.2, 4.2], "algorithm": "kawase"}
    results = [[] for _ in pages]
    try:
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            for page in pages:
                page.request("GET", "/")
                one_change(page, pool, body)  # warm
            for _ in range(args.repeat):
                for k, page in enumerate(pages):
                    results[k].append(one_change(page, pool, body))
    finally:
        for p in procs:
            p.kill()
    for exe, rows in zip(args.servers, results):
        reply = statistics.median(r[0] for r in rows) * 1e3
        whole = statistics.median(r[1] for r in rows) * 1e3
        print(f"{exe}: reply {reply:.0f} ms, reply + shown pictures {whole:.0f} ms, {statistics.median(r[2] for r in rows) / 1e3:.0f} KB")


if __name__ == "__main__":
    main()

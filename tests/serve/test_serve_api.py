"""`fastblur serve`'s JSON API without a browser: every endpoint, the CLI's texts and numbers,
limits, bad and hostile requests, sessions and concurrent clients. Run by ctest (serve_api)."""
import concurrent.futures
import json
import os
import socket
import subprocess
import time

import pytest

from serve_helpers import Client, Server, cli, png, query


@pytest.fixture(scope="module")
def server():
    s = Server("--max-upload-mb", "1", "--max-pixels", "60000")
    yield s
    s.kill()


def test_listen_backlog_takes_a_burst_of_connections(server):
    # httplib's default backlog of 5 reset two of the load test's connections (SYN cookies failed);
    # `ss` shows a listening socket's backlog as its Send-Q.
    out = subprocess.run(["ss", "-Hltn", f"sport = :{server.port}"], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    fields = out.stdout.split()
    assert len(fields) >= 3 and fields[0] == "LISTEN", out.stdout
    assert int(fields[2]) >= 128, f"listen backlog {fields[2]}"


def one_line_error(data):
    body = json.loads(data)
    assert set(body) == {"error"} and body["error"] and "\n" not in body["error"], body
    return body["error"]


def test_page_static_files_and_session_cookie(server):
    c = Client(server)
    status, headers, page = c.request("GET", "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert b"/static/app.js" in page and b"/static/style.css" in page
    assert c.cookie and c.cookie.startswith("fastblur_session=") and len(c.cookie.split("=")[1]) == 32
    assert "HttpOnly" in headers["Set-Cookie"] and "SameSite=Strict" in headers["Set-Cookie"]
    for name, kind in (("app.js", "text/javascript"), ("style.css", "text/css")):
        status, headers, body = c.request("GET", "/static/" + name)
        assert status == 200 and headers["Content-Type"].startswith(kind) and len(body) > 500
    # No request path reaches the filesystem.
    for path in ("/static/../../../../etc/passwd", "/static/%2e%2e%2fetc%2fpasswd", "/static/index.htm",
                 "/etc/passwd", "/api/../static/app.js/..", "/static/" + "a" * 70):
        status, _, data = c.request("GET", path)
        assert status == 404 and b"root:" not in data, path
        one_line_error(data)


def test_info_lists_the_registry_devices_and_limits(server):
    status, info = Client(server).json("GET", "/api/info")
    assert status == 200
    names = [a["name"] for a in info["algorithms"]]
    help_text = cli("blur", "--help").stdout
    for name in names[1:]:  # every algorithm of the registry, as `blur --help` lists them
        assert f"  {name}: " in help_text, name
    assert names[0] == "auto" and {"fir", "box", "iir", "kawase", "dual-kawase", "mip-poisson"} <= set(names)
    box = next(a for a in info["algorithms"] if a["name"] == "box")
    assert "passes" in [p["flag"] for p in box["parameters"]]
    fir_linear = next(a for a in info["algorithms"] if a["name"] == "fir-linear")
    assert not fir_linear["cpu"] and fir_linear["vulkan"]
    assert info["devices"][0]["name"] == "cpu"
    assert info["borders"] == ["reflect", "mirror", "nearest", "wrap", "constant"]
    assert info["limits"]["max_upload_bytes"] == 1 << 20 and info["limits"]["max_pixels"] == 60000


def test_blur_of_the_scene_matches_analyze(server):
    c = Client(server)
    status, r = c.json("POST", "/api/blur", {"sigma": 5, "algorithm": "box", "options": {"passes": 4}})
    assert status == 200, r
    # The pictures by URL, fetched as the page shows them: PNGs of the preview's size, the result
    # RGBA as the scene, the difference RGB.
    for key, colour_type in (("result", 6), ("exact", 6), ("diff", 2)):
        assert r["images"][key].startswith("/api/preview/") and r["images"][key].endswith(f"/{key}.png")
        status, headers, data = c.request("GET", r["images"][key])
        assert status == 200 and headers["Content-Type"] == "image/png", (status, data[:200])
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[25] == colour_type
        w, h = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert (w, h) == (r["image"]["preview_width"], r["image"]["preview_height"])
    assert r["image"]["scale"] == 1 and r["sigma_run"] == [5, 5]
    assert r["time_ms"] > 0 and r["exact_ms"] > 0 and r["device"] == "cpu"
    assert r["plan"]["algorithm"] == "box" and r["plan"]["description"].startswith("plan: box")
    assert "box_passes: 4" in r["plan"]["description"]
    # docs/DESIGN.md's metrics, by the same function as `fastblur analyze`.
    a = json.loads(cli("analyze", "--sigma", "5", "--algorithm", "box", "--passes", "4", "--json").stdout)
    m = r["metrics"]
    for key in ("effective_sigma", "max_error", "l1_error", "max_error_2d", "anisotropy"):
        assert m[key] == pytest.approx(a[key], rel=1e-12, abs=1e-15), key
    assert 20 < m["psnr_db"] < 120 and m["image_max_abs"] > 0 and r["diff"]["max"] == pytest.approx(m["image_max_abs"])
    assert 0 < r["diff"]["scale_max"] <= r["diff"]["max"]
    assert m["truncation_mass"] is None and 0 < m["exact_truncation_mass"] < 1e-4
    # The exact algorithm is the reference: no difference.
    status, r = c.json("POST", "/api/blur", {"sigma": [3, 1.5], "algorithm": "fir", "border": "mirror"})
    assert status == 200 and r["metrics"]["image_max_abs"] == 0 and r["metrics"]["psnr_db"] is None
    assert r["plan"]["axes"][1]["sigma"] == 1.5 and r["metrics"]["truncation_mass"] > 0
    # auto with a tolerance plans within it.
    status, r = c.json("POST", "/api/blur", {"sigma": 12, "algorithm": "auto", "tolerance": 0.02})
    assert status == 200 and r["plan"]["predicted_max_error"] <= 0.02 and "considered:" in r["plan"]["description"]


def test_a_preview_reply_is_compressed_fast_and_within_its_budget(server):
    # A browser accepts Brotli; cpp-httplib's own (Debian's build: Brotli at its slowest quality)
    # spent 2.1-2.6 s on a 0.5 MB /api/blur reply for a 1-7 ms blur (issue 44). The explorer gzips
    # its JSON and SVG replies at zlib's fastest level itself: the reply decodes to the same JSON,
    # and the fastest of three previews of the bundled scene stays within a budget (0.3 s
    # measured here, Brotli's 2.1-2.6 s out of it).
    import gzip
    c = Client(server)
    body = {"image": "scene", "sigma": [4.2, 4.2], "algorithm": "kawase"}
    times = []
    for _ in range(3):
        start = time.perf_counter()
        status, headers, data = c.request("POST", "/api/blur", body, {"Accept-Encoding": "br, gzip, deflate"})
        times.append(time.perf_counter() - start)
        assert status == 200 and headers.get("Content-Encoding") == "gzip", headers
        assert headers["Content-Type"].startswith("application/json"), headers
        reply = json.loads(gzip.decompress(data))
        assert len(data) < 20000, len(data)  # the pictures are fetched by URL, not carried in the JSON
        status, headers, picture = c.request("GET", reply["images"]["result"])
        assert status == 200 and picture[:4] == b"\x89PNG"
    print(f"/api/blur of the scene: {', '.join(f'{t * 1e3:.0f} ms' for t in times)}")
    sanitized = "ASAN_OPTIONS" in os.environ or "TSAN_OPTIONS" in os.environ  # sanitizers: about 4x slower
    assert min(times) < 1.5 * (4 if sanitized else 1), times
    status, headers, data = c.request("POST", "/api/blur", body, {"Accept-Encoding": "identity"})
    assert status == 200 and "Content-Encoding" not in headers and json.loads(data)["images"]
    status, headers, data = c.request("GET", "/api/plot?params=" + query({"sigma": 3}), None, {"Accept-Encoding": "br;q=1, gzip;q=0"})
    assert status == 200 and "Content-Encoding" not in headers and data.startswith(b"<svg"), headers
    status, headers, data = c.request("GET", "/api/plot?params=" + query({"sigma": 3}), None, {"Accept-Encoding": "gzip"})
    assert status == 200 and headers.get("Content-Encoding") == "gzip" and gzip.decompress(data).startswith(b"<svg")


def test_bad_requests_get_one_line_errors(server):
    c = Client(server)
    for body, expected in (("{not json", "bad JSON"), ("[1, 2]", "JSON object"), ('{"sigma": -1}', "sigma"),
                           ('{"sigma": 1000}', "at most"), ('{"sigma": "abc"}', "sigma"), ('{"colour": 1}', "unknown key"),
                           ('{"sigma": [1, 2, 3]}', "[x, y]"), ('{"sigma": 0}', "nothing to blur"),
                           ('{"border": "bounce"}', "border"), ('{"algorithm": "gauss"}', "gauss"),
                           ('{"device": "tpu"}', "tpu"), ('{"options": 3}', "options"), ('{"image": "nope"}', "no image")):
        status, _, data = c.request("POST", "/api/blur", body, {"Content-Type": "application/json"})
        assert status in (400, 404), (body, status, data)
        assert expected in one_line_error(data), (body, data)
    # An option the algorithm does not take: the CLI's own message.
    status, _, data = c.request("POST", "/api/blur", {"sigma": 3, "algorithm": "fir", "options": {"passes": 3}})
    expected = cli("analyze", "--sigma", "3", "--algorithm", "fir", "--passes", "3").stderr.strip()
    assert status == 400 and "fastblur: error: " + one_line_error(data) == expected
    status, _, data = c.request("POST", "/api/blur", {"sigma": 3, "algorithm": "box", "options": {"passes": 9}})
    expected = cli("analyze", "--sigma", "3", "--algorithm", "box", "--passes", "9").stderr.strip()
    assert status == 400 and "fastblur: error: " + one_line_error(data) == expected


def test_upload_blur_and_download_round_trip(server, tmp_path):
    c = Client(server)
    data = png(64, 48, 3)
    status, up = c.upload(data, "photo.png")
    assert status == 200, up
    assert (up["width"], up["height"], up["channels"], up["type"], up["name"]) == (64, 48, 3, "u8", "photo.png")
    status, headers, source = c.request("GET", "/api/source?image=" + up["id"])
    assert status == 200 and headers["Content-Type"] == "image/png" and source[:4] == b"\x89PNG"
    status, r = c.json("POST", "/api/blur", {"image": up["id"], "sigma": 2, "algorithm": "fir"})
    assert status == 200 and r["image"]["preview_width"] == 64 and r["image"]["channels"] == 3
    params = {"image": up["id"], "sigma": [2, 1], "algorithm": "fir", "border": "nearest"}
    status, headers, blurred = c.request("GET", "/api/download?params=" + query(params))
    assert status == 200 and headers["Content-Disposition"] == 'attachment; filename="photo_blur.png"'
    # The same bytes as `fastblur blur` of that file (sigma in array order: rows first).
    (tmp_path / "photo.png").write_bytes(data)
    assert cli("blur", "photo.png", "out.png", "--sigma", "1,2", "--algorithm", "fir", "--border", "nearest",
               cwd=tmp_path).returncode == 0
    assert blurred == (tmp_path / "out.png").read_bytes()
    # The scene downloads as PNG.
    status, headers, scene = c.request("GET", "/api/download?params=" + query({"sigma": 3}))
    assert status == 200 and scene[:4] == b"\x89PNG" and "fastblur_scene_blur.png" in headers["Content-Disposition"]


def test_corrupt_upload_gets_the_cli_error_text(server, tmp_path):
    c = Client(server)
    for name, data in (("photo.png", b"this is not an image"), ("scan.tif", b"II*\x00" + b"\x01" * 50),
                       ("cut.png", png(40, 30)[:60])):
        status, body = c.upload(data, name)
        assert status == 422, (name, body)
        (tmp_path / name).write_bytes(data)
        run = cli("blur", name, "out.png", "--sigma", "1", cwd=tmp_path)
        assert run.returncode == 1 and run.stderr.strip() == "fastblur: error: " + body["error"], (run.stderr, body)
        assert server.temp_dir not in body["error"]


def test_oversized_uploads_are_refused_with_the_limit(server):
    c = Client(server)
    status, body = c.upload(os.urandom((1 << 20) + 4096), "big.png")
    assert status == 413 and str(1 << 20) in body["error"], body
    status, body = c.upload(png(300, 250), "wide.png")
    assert status == 413 and body["error"] == "'wide.png' is 300x250 pixels, more than the limit of 60000 pixels", body
    status, body = c.upload(b"", "empty.png")
    assert status == 400 and "empty" in body["error"]


def test_a_first_request_without_a_cookie_gets_one_session(server):
    # A blur posted before any page load makes one session (one Set-Cookie), and its pictures are
    # fetched with that cookie: a second session made by the image lookup kept them under another.
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    conn.request("POST", "/api/blur", json.dumps({"sigma": 2}), {"Content-Type": "application/json"})
    res = conn.getresponse()
    reply = json.loads(res.read())
    cookies = [v for k, v in res.getheaders() if k.lower() == "set-cookie"]
    conn.close()
    assert res.status == 200 and len(cookies) == 1, cookies
    c = Client(server)
    c.cookie = cookies[0].split(";")[0]
    status, headers, data = c.request("GET", reply["images"]["result"])
    assert status == 200 and data[:4] == b"\x89PNG", (status, data[:100])


def test_sessions_do_not_see_each_others_images(server):
    a, b = Client(server), Client(server)
    status, up = a.upload(png(32, 32, seed=3), "mine.png")
    assert status == 200
    assert a.json("POST", "/api/blur", {"image": up["id"], "sigma": 1})[0] == 200
    status, body = b.json("POST", "/api/blur", {"image": up["id"], "sigma": 1})
    assert status == 404 and "no image" in body["error"]
    assert b.request("GET", "/api/source?image=" + up["id"])[0] == 404
    # A preview's pictures belong to the session that blurred them; ids are not guessable paths.
    status, r = a.json("POST", "/api/blur", {"image": up["id"], "sigma": 2})
    assert status == 200 and a.request("GET", r["images"]["exact"])[0] == 200
    status, _, data = b.request("GET", r["images"]["exact"])
    assert status == 404 and "no such preview" in one_line_error(data)
    for path in ("/api/preview/" + "0" * 32 + "/result.png", r["images"]["exact"].replace("exact", "source"),
                 r["images"]["exact"].replace("/api/preview/", "/api/preview/../"), "/api/preview/abc/diff.png"):
        status, _, data = a.request("GET", path)
        assert status == 404, (path, status)
        one_line_error(data)
    assert b.request("GET", "/api/download?params=" + query({"image": up["id"], "sigma": 1}))[0] == 404
    # A forged cookie is a new session, not someone else's.
    forged = Client(server)
    forged.cookie = "fastblur_session=" + "0" * 32
    assert forged.json("POST", "/api/blur", {"image": up["id"], "sigma": 1})[0] == 404


def test_concurrent_clients(server):
    def work(k):
        c = Client(server)
        w, h = 24 + 8 * k, 16 + 4 * k
        status, up = c.upload(png(w, h, seed=k), f"img{k}.png")
        assert status == 200, up
        for sigma in (1, 2.5):
            status, r = c.json("POST", "/api/blur", {"image": up["id"], "sigma": sigma, "algorithm": "iir"})
            assert status == 200, r
            assert (r["image"]["width"], r["image"]["height"], r["image"]["name"]) == (w, h, f"img{k}.png")
        return k

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        assert sorted(pool.map(work, range(4))) == [0, 1, 2, 3]


def test_plots_are_analyzes_plots(server, tmp_path):
    c = Client(server)
    assert cli("analyze", "--sigma", "3.3", "--algorithm", "kawase", "--plot", str(tmp_path)).returncode == 0
    params = query({"sigma": 3.3, "algorithm": "kawase"})
    for kind, file in (("impulse", "impulse_log.svg"), ("cross_section", "cross_section.svg"), ("contours", "contours.svg")):
        status, headers, svg = c.request("GET", f"/api/plot?kind={kind}&params={params}")
        assert status == 200 and headers["Content-Type"].startswith("image/svg+xml")
        assert svg == (tmp_path / file).read_bytes(), kind
    other = c.request("GET", "/api/plot?kind=impulse&params=" + query({"sigma": 3.3, "algorithm": "box"}))[2]
    assert other != (tmp_path / "impulse_log.svg").read_bytes() and b"box" in other
    status, _, data = c.request("GET", "/api/plot?kind=pie&params=" + params)
    assert status == 400 and "kind" in one_line_error(data)
    status, _, data = c.request("GET", "/api/plot?kind=impulse&params=%7Bbroken")
    assert status == 400 and "bad JSON" in one_line_error(data)


def test_codegen_is_the_cli_text(server):
    c = Client(server)
    for args in (("3.3", "linear", "glsl"), ("5", "kawase", "hlsl"), ("4", "dual-kawase", "glsl"), ("2", "linear", "hlsl")):
        status, headers, text = c.request("GET", f"/api/codegen?sigma={args[0]}&method={args[1]}&lang={args[2]}")
        assert status == 200 and headers["Content-Type"].startswith("text/plain")
        run = cli("codegen", "--sigma", args[0], "--method", args[1], "--lang", args[2])
        assert run.returncode == 0 and text.decode() == run.stdout, args
    status, _, text = c.request("GET", "/api/codegen?sigma=3&method=linear&lang=glsl&radius=5")
    assert status == 200 and text.decode() == cli("codegen", "--sigma", "3", "--radius", "5").stdout
    for bad in ("sigma=x", "sigma=3&method=blocky", "sigma=3&lang=cuda", "", "sigma=3&radius=1e9"):
        status, _, data = c.request("GET", "/api/codegen?" + bad)
        assert status == 400, bad
        one_line_error(data)


def test_hostile_requests(server):
    c = Client(server)
    # DNS rebinding: another site's name resolved to 127.0.0.1.
    status, _, data = c.request("GET", "/api/info", headers={"Host": "evil.example:%d" % server.port})
    assert status == 403 and "only" in one_line_error(data)
    assert c.request("GET", "/api/info", headers={"Host": "localhost:%d" % server.port})[0] == 200
    # A huge URI, garbage on the socket, a slow client that closes early: the server answers on.
    status, _, _ = c.request("GET", "/api/plot?params=" + "x" * 20000)
    assert status in (400, 414)
    for junk in (b"\x00\x01\x02 garbage\r\n\r\n", b"GET /api/info HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
                 b"POST /api/image HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99999999999\r\n\r\nab"):
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
            s.sendall(junk)
            s.shutdown(socket.SHUT_WR)
            try:
                s.recv(1000)
            except OSError:
                pass
    assert c.request("GET", "/api/info")[0] == 200
    assert c.request("DELETE", "/api/image")[0] in (400, 404, 405)
    assert c.request("POST", "/api/blur", "{" * 100000, {"Content-Type": "application/json"})[0] == 400


def test_stops_on_sigterm_and_removes_its_temporary_folder():
    s = Server()
    try:
        assert os.path.isdir(s.temp_dir) and oct(os.stat(s.temp_dir).st_mode & 0o777) == "0o700"
        c = Client(s)
        assert c.upload(png(20, 20), "a.png")[0] == 200
        assert c.request("GET", "/api/download?params=" + query({"sigma": 2}))[0] == 200
        assert os.listdir(s.temp_dir) == []  # uploads and downloads leave nothing behind
    finally:
        assert s.stop() == 0
    assert not os.path.exists(s.temp_dir)


def test_binds_to_the_loopback_and_refuses_a_taken_port():
    s = Server()
    try:
        taken = cli("serve", "--port", str(s.port))
        assert taken.returncode == 1 and "cannot listen on 127.0.0.1:%d" % s.port in taken.stderr
        assert cli("serve", "--port", "70000").returncode == 2
    finally:
        s.stop()


def test_a_newer_request_of_the_page_supersedes_an_older_one(server):
    c = Client(server)
    c.request("GET", "/")  # the page's session cookie
    slow = {"sigma": 100, "algorithm": "fir", "border": "wrap", "client": "page-1"}
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        # The first is still timing its blur (at least 150 ms, blur_preview's median) when the second starts.
        first = pool.submit(c.json, "POST", "/api/blur", slow)
        time.sleep(0.1)
        second = pool.submit(c.json, "POST", "/api/blur", {"sigma": 2, "algorithm": "box", "client": "page-1"})
        (s1, b1), (s2, b2) = first.result(), second.result()
    # One of them is superseded (the first, unless the machine delayed it past the second's start).
    assert sorted([s1, s2]) == [200, 409], (s1, s2)
    assert "superseded" in (b1 if s1 == 409 else b2)["error"]
    # Another page (client) of the same session is not affected.
    assert c.json("POST", "/api/blur", {"sigma": 2, "client": "page-2"})[0] == 200


def test_large_images_are_blurred_on_a_preview_and_downloaded_whole():
    s = Server("--preview", "64")
    try:
        c = Client(s)
        status, up = c.upload(png(200, 120, 4, seed=2), "wide.png")
        assert status == 200 and up["scale"] == 4 and up["channels"] == 4
        status, r = c.json("POST", "/api/blur", {"image": up["id"], "sigma": [8, 4], "algorithm": "fir"})
        assert status == 200, r
        assert (r["image"]["preview_width"], r["image"]["preview_height"], r["image"]["scale"]) == (50, 30, 4)
        # The preview runs the scaled sigma; every figure is of the user's sigma on the whole image.
        assert r["sigma_run"] == [2, 1] and r["sigma"] == [8, 4] and r["metrics"]["sigma"] == 8
        assert r["metrics"]["effective_sigma"] == pytest.approx(8, abs=0.05)
        assert r["plan"]["axes"][0]["sigma"] == 8 and r["plan"]["extent"][:2] == [200, 120]
        assert r["preview_algorithm"] == r["plan"]["algorithm"] == "fir" and r["preview_note"] == ""
        # auto is resolved once, for the whole image; the preview runs what it chose.
        status, r = c.json("POST", "/api/blur", {"image": up["id"], "sigma": 12, "algorithm": "auto", "tolerance": 0.01})
        assert status == 200, r
        assert r["preview_algorithm"] == r["plan"]["algorithm"] or r["preview_note"], r
        assert r["exact_runs"] >= 1 and r["exact_ms"] > 0
        status, _, whole = c.request("GET", "/api/download?params=" + query({"image": up["id"], "sigma": [8, 4]}))
        assert status == 200 and whole[16:24] == bytes.fromhex("000000c800000078")  # IHDR: 200 x 120
    finally:
        s.stop()


def test_vulkan_devices_blur_as_the_cli_lists_them(server):
    status, info = Client(server).json("GET", "/api/info")
    vulkan = [d for d in info["devices"] if d["name"].startswith("vulkan:")]
    listed = cli("devices").stdout
    assert len(vulkan) == listed.count("\nvulkan:") + listed.startswith("vulkan:"), listed
    for d in vulkan[:1]:
        status, r = Client(server).json("POST", "/api/blur", {"sigma": 3, "algorithm": "box", "device": d["name"]})
        assert status == 200, r
        assert r["device"].startswith(d["name"]) and r["plan"]["algorithm"] == "box"
        assert r["metrics"]["psnr_db"] > 40  # the same blur as the CPU's box, against the exact one


def test_memory_limit_forgets_the_least_recently_used_images():
    s = Server("--max-memory-mb", "1")
    try:
        a, b = Client(s), Client(s)
        status, first = a.upload(png(300, 200, seed=1), "first.png")  # 1.6 MB with its preview: over, but newest
        assert status == 200
        assert a.json("POST", "/api/blur", {"image": first["id"], "sigma": 1})[0] == 200
        status, second = b.upload(png(300, 200, seed=2), "second.png")
        assert status == 200
        status, body = a.json("POST", "/api/blur", {"image": first["id"], "sigma": 1})
        assert status == 404 and "upload it again" in body["error"]
        assert b.json("POST", "/api/blur", {"image": second["id"], "sigma": 1})[0] == 200
    finally:
        s.stop()

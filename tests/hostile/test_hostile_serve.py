"""The hostile corpus through the explorer: POST /api/blur of `fastblur serve` (on 127.0.0.1) with the
request as the page's JSON (options by their command-line flags). Each error is a 4xx - 503 where no
such device exists, as the API documents - with {"error": one line}; the server answers after every
request, and its temporary folder holds nothing at the end."""
import json
import os
import sys

import pytest

from corpus import cases, check_message, value

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "serve"))
from serve_helpers import Client, Server  # noqa: E402

STATUS = {"invalid": (400,), "type": (400,), "unsupported": (400,), "device": (503,)}


@pytest.fixture(scope="module")
def server():
    s = Server()
    yield s
    try:
        assert os.listdir(s.temp_dir) == [], f"left in the temporary folder: {os.listdir(s.temp_dir)}"
    finally:
        assert s.stop() == 0


def flags(client):
    status, info = client.json("GET", "/api/info")
    assert status == 200
    return {p["key"]: p["flag"] for a in info["algorithms"] for p in a.get("parameters", [])}


def json_value(v):
    v = value(v)
    if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
        return repr(v)  # JSON has no NaN or Inf: the page sends numbers as text too
    if isinstance(v, list):
        return [json_value(x) for x in v]
    return v


def body(request, flag_of):
    if "body" in request:
        return request["body"].encode()
    if "body_hex" in request:
        return bytes.fromhex(request["body_hex"])
    b = {"image": "scene"}
    for key in ("sigma", "cval", "algorithm", "tolerance", "device"):
        if key in request:
            b[key] = json_value(request[key])
    if "border" in request:
        v = request["border"]
        if isinstance(v, dict) and "latin1" in v:  # raw bytes inside the JSON text
            text = json.dumps(b)[:-1] + ', "border": "' 
            return text.encode() + v["latin1"].encode("latin1") + b'"}'
        b["border"] = v
    if "options" in request:
        b["options"] = {flag_of.get(k, k.replace("_", "-")): json_value(v) for k, v in request["options"].items()}
    if isinstance(b.get("sigma"), (int, float, str)) and not isinstance(b["sigma"], bool):
        pass
    return json.dumps(b).encode()


@pytest.mark.parametrize("name,request_,expect", cases("serve"))
def test_verdict(server, name, request_, expect):
    c = Client(server, timeout=60)
    status, headers, data = c.request("POST", "/api/blur", body(request_, flags(c)),
                                      {"Content-Type": "application/json"})
    if expect["class"] == "ok":
        assert status == 200, data[:300]
    else:
        assert status in STATUS[expect["class"]], f"{name}: HTTP {status} {data[:300]!r}"
        message = json.loads(data)["error"]
        check_message(message, expect)
    status, _ = c.json("GET", "/api/info")
    assert status == 200, f"{name}: the server stopped answering"

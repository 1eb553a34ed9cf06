"""``python -m serving``: a model saved in one process, served by another, queried over HTTP on
localhost (results equal eager, 200 concurrent requests, 4xx errors, the server survives)."""

from __future__ import annotations

import base64
import http.client
import json
import os
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from _serving_model import IN, OUT, save_model, serving_process

TIMEOUT = 60


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    prefix, d = save_model(tmp_path_factory.mktemp("http"))
    with serving_process("--model", prefix, "--max-body-mb", "1") as (_, port):
        yield port, prefix, d


def request(port, method, path, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        if isinstance(body, dict | list):
            body = json.dumps(body)
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        data = r.read()
        return r.status, json.loads(data) if data else None
    finally:
        conn.close()


def predict(port, x):
    return request(
        port, "POST", "/v1/predict", {"inputs": {"x": {"data": x.tolist(), "dtype": "float32"}}}
    )


def test_health_and_metadata(server):
    port, prefix, _ = server
    status, body = request(port, "GET", "/health")
    assert status == 200 and body["status"] == "ok"
    status, body = request(port, "GET", "/v1/metadata")
    assert status == 200
    assert body["inputs"] == [{"name": "x", "shape": [-1, IN], "dtype": "float32"}]
    assert body["outputs"] == [{"name": "fetch_name_0", "shape": [-1, OUT], "dtype": "float32"}]


def test_predict_matches_eager(server):
    port, _, d = server
    for x, y in ((d["x"][:1], d["y1"]), (d["x"][:64], d["y64"])):
        status, body = predict(port, x)
        assert status == 200, body
        out = body["outputs"]["fetch_name_0"]
        assert out["dtype"] == "float32" and out["shape"] == [len(x), OUT]
        np.testing.assert_allclose(np.array(out["data"], "float32"), y, rtol=1e-5, atol=1e-5)
    # shorthand forms: bare nested lists (dtype from the model), positional list, flat + shape
    for inputs in (
        {"x": d["x"][:2].tolist()},
        [d["x"][:2].tolist()],
        {"x": {"data": d["x"][:2].ravel().tolist(), "shape": [2, IN]}},
    ):
        status, body = request(port, "POST", "/v1/predict", {"inputs": inputs})
        assert status == 200, body
        np.testing.assert_allclose(
            np.array(body["outputs"]["fetch_name_0"]["data"]), d["y"][:2], rtol=1e-5, atol=1e-5
        )
    # raw little-endian bytes in base64, both ways
    x = d["x"][:64]
    status, body = request(
        port,
        "POST",
        "/v1/predict",
        {
            "inputs": {
                "x": {
                    "b64": base64.b64encode(x.tobytes()).decode(),
                    "dtype": "float32",
                    "shape": list(x.shape),
                }
            },
            "output_encoding": "base64",
        },
    )
    assert status == 200, body
    out = body["outputs"]["fetch_name_0"]
    got = np.frombuffer(base64.b64decode(out["b64"]), "<f4").reshape(out["shape"])
    np.testing.assert_allclose(got, d["y64"], rtol=1e-5, atol=1e-5)


def test_200_concurrent_requests(server):
    port, _, d = server
    sizes = [1, 2, 3]

    def one(i):
        lo, k = i % 190, sizes[i % len(sizes)]
        status, body = predict(port, d["x"][lo : lo + k])
        assert status == 200, body
        got = np.array(body["outputs"]["fetch_name_0"]["data"], "float32")
        np.testing.assert_allclose(got, d["y"][lo : lo + k], rtol=1e-5, atol=1e-5)
        return True

    with ThreadPoolExecutor(max_workers=32) as ex:
        results = list(ex.map(one, range(200), timeout=300))
    assert results == [True] * 200


def _raw(port, data: bytes) -> tuple[int, dict]:
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as s:
        s.sendall(data)
        buf = b""
        while b"\r\n\r\n" not in buf:
            chunk = s.recv(65536)
            if not chunk:
                break
            buf += chunk
        head, _, rest = buf.partition(b"\r\n\r\n")
        n = int(
            [
                h.split(b":")[1]
                for h in head.split(b"\r\n")
                if h.lower().startswith(b"content-length")
            ][0]
        )
        while len(rest) < n:
            rest += s.recv(65536)
        return int(head.split()[1]), json.loads(rest)


BAD = [
    ("malformed JSON", b'{"inputs": ', 400, "malformed JSON"),
    ("not an object", b"[1, 2]", 400, '"inputs" field'),
    ("unknown input", {"inputs": {"y": [[0.0] * IN]}}, 400, "unknown input"),
    ("missing input", {"inputs": {}}, 400, "missing input"),
    ("wrong shape", {"inputs": {"x": [[0.0] * (IN - 1)]}}, 400, "does not match the model"),
    ("wrong rank", {"inputs": {"x": [0.0] * IN}}, 400, "does not match the model"),
    (
        "wrong dtype",
        {"inputs": {"x": {"data": [[0.0] * IN], "dtype": "float64"}}},
        400,
        "dtype float64 does not match",
    ),
    (
        "bad dtype",
        {"inputs": {"x": {"data": [[0.0] * IN], "dtype": "floaty"}}},
        400,
        "unknown dtype",
    ),
    ("ragged", {"inputs": {"x": [[0.0] * IN, [0.0]]}}, 400, "ragged"),
    ("strings", {"inputs": {"x": [["a"] * IN]}}, 400, "only numbers"),
    (
        "bad reshape",
        {"inputs": {"x": {"data": [0.0] * 5, "shape": [2, IN]}}},
        400,
        "cannot take the shape",
    ),
    ("nulls", {"inputs": {"x": [[None] * IN]}}, 400, "only numbers"),
    ("huge int", {"inputs": {"x": [[2**70] * IN]}}, 400, "only numbers"),
    (
        "deep nesting",
        b'{"inputs": {"x": ' + b"[" * 100000 + b"]" * 100000 + b"}}",
        400,
        "malformed JSON",
    ),
    (
        "b64 size",
        {"inputs": {"x": {"b64": "AAAA", "dtype": "float32", "shape": [1, IN]}}},
        400,
        "bytes of data",
    ),
    (
        "b64 no shape",
        {"inputs": {"x": {"b64": "AAAA", "dtype": "float32"}}},
        400,
        'needs "dtype" and "shape"',
    ),
    (
        "b64 invalid",
        {"inputs": {"x": {"b64": "!!", "dtype": "float32", "shape": [0, IN]}}},
        400,
        "not valid base64",
    ),
    (
        "bad encoding",
        {"inputs": {"x": [[0.0] * IN]}, "output_encoding": "xml"},
        400,
        "output_encoding",
    ),
    ("unknown top field", {"inputs": {"x": [[0.0] * IN]}, "foo": 1}, 400, "unknown field"),
    ("too large", b"[" + b"0," * (600 * 1024) + b"0]", 413, "exceeds the limit"),
    ("batch over max", {"inputs": {"x": [[0.0] * IN] * 65}}, 413, "largest batch bucket (64)"),
]
# b64 and "shape" fields: checked before any allocation (issue 9: [2**32, 2**32] was a 500)
_B64 = {"b64": "", "dtype": "float32"}
BAD += [
    (f"shape {name}", {"inputs": {"x": {**item, "shape": shape}}}, 400, msg)
    for name, item, shape, msg in [
        ("b64 2**32 x 2**32", _B64, [2**32, 2**32], "does not match the model's [-1, 16]"),
        ("b64 2**32 rows", _B64, [2**32, IN], "0 bytes of data, shape [4294967296, 16]"),
        ("b64 2**64 rows", _B64, [2**64, IN], '"shape" must be a list of ints >= 0'),
        ("b64 negative", _B64, [-1, IN], '"shape" must be a list of ints >= 0'),
        ("b64 float dim", _B64, [1.5, IN], '"shape" must be a list of ints >= 0'),
        ("b64 str dim", _B64, ["2", IN], '"shape" must be a list of ints >= 0'),
        ("b64 bool dim", _B64, [True, IN], '"shape" must be a list of ints >= 0'),
        ("b64 not list", _B64, 16, '"shape" must be a list'),
        ("b64 rank", _B64, [IN], "does not match the model's"),
        ("data 2**63 rows", {"data": [0.0] * IN}, [2**63, IN], '"shape" must be a list'),
        ("data two -1", {"data": [0.0] * IN}, [-1, -1], '"shape" must be a list'),
        ("data 2**32 cols", {"data": [0.0] * IN}, [1, 2**32], "does not match the model's"),
    ]
]


@pytest.mark.parametrize("name,body,code,msg", BAD, ids=[b[0] for b in BAD])
def test_bad_requests_get_4xx_and_server_survives(server, name, body, code, msg):
    port, _, d = server
    status, resp = request(port, "POST", "/v1/predict", body)
    assert status == code, resp
    assert resp["error"]["code"] == code and msg in resp["error"]["message"], resp
    status, body = predict(port, d["x"][:1])  # still serving
    assert status == 200


def test_routes_and_headers(server):
    port, _, d = server
    assert request(port, "GET", "/nope")[0] == 404
    assert request(port, "POST", "/v1/nope", {"inputs": {}})[0] == 404
    assert request(port, "PUT", "/v1/predict", {})[0] == 405
    status, body = _raw(
        port, b"POST /v1/predict HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
    )
    assert status == 411 and "Content-Length" in body["error"]["message"]
    # keep-alive: several requests on one connection
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        for i in range(3):
            conn.request(
                "POST", "/v1/predict", json.dumps({"inputs": {"x": d["x"][i : i + 1].tolist()}})
            )
            r = conn.getresponse()
            assert r.status == 200
            got = json.loads(r.read())["outputs"]["fetch_name_0"]["data"]
            np.testing.assert_allclose(got, d["y"][i : i + 1], rtol=1e-5, atol=1e-5)
    finally:
        conn.close()
    assert request(port, "GET", "/health")[1]["status"] == "ok"


def test_parse_inputs_dtype_rules():
    from paddle_compat._export import IOSpec
    from serving._http import BadRequest, parse_inputs

    specs = [IOSpec("ids", [-1, 3], "int64"), IOSpec("w", [3], "float32")]
    ids, w = parse_inputs({"inputs": {"ids": [[1, 2, 3]], "w": [1, 2, 3]}}, specs)
    assert ids.dtype == np.int64 and w.dtype == np.float32 and w.tolist() == [1.0, 2.0, 3.0]
    ids, _ = parse_inputs({"inputs": [[[True, False, True]], [0.5, 1, 2]]}, specs)
    assert ids.tolist() == [[1, 0, 1]]
    with pytest.raises(BadRequest, match="expects int64 values, got float"):
        parse_inputs({"inputs": {"ids": [[1.5, 2, 3]], "w": [1, 2, 3]}}, specs)
    with pytest.raises(BadRequest, match="unknown field"):
        parse_inputs(
            {"inputs": {"ids": {"data": [[1, 2, 3]], "dtyp": "int64"}, "w": [1, 2, 3]}}, specs
        )


def test_batch_buckets(server):
    """Every batch size runs in one of 7 buckets (1, 2, 4, ..., 64): 64 sizes, <= 7 compiles."""
    port, _, d = server
    status, meta = request(port, "GET", "/v1/metadata")
    assert meta["buckets"] == [1, 2, 4, 8, 16, 32, 64] and meta["max_batch"] == 64
    assert meta["cache_size"] == 32 and meta["max_connections"] == 128
    for n in list(range(1, 10)) + [31, 33, 63, 64]:
        status, body = predict(port, d["x"][:n])
        assert status == 200, body
        got = np.array(body["outputs"]["fetch_name_0"]["data"], "float32")
        np.testing.assert_allclose(got, d["y"][:n], rtol=1e-5, atol=1e-5)
    h = request(port, "GET", "/health")[1]
    assert h["compiled_shapes"] <= 7 and h["compiles"] <= 7 and h["evictions"] == 0, h


@pytest.fixture(scope="module")
def limited(server):
    """An in-process server with small limits: 3 connections, 1 s per request."""
    import threading

    from serving._http import serve

    srv = serve(server[1], 0, max_connections=3, request_timeout=1.0)
    t = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    t.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def _read_answer(s: socket.socket, limit: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes (or ``limit`` s), and when it closed."""
    t0, buf = time.monotonic(), b""
    s.settimeout(limit)
    try:
        while chunk := s.recv(65536):
            buf += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    return buf, time.monotonic() - t0


SLOW = [  # (what the client sends, one piece every 0.2 s; expected answer)
    ("trickled request line", [b"POST /v1/predict HTTP/1.1\r\n"] + [b"X"] * 25, b" 408 "),
    ("trickled headers", [b"POST /v1/predict HTTP/1.1\r\n"] + [b"X-A: b\r\n"] * 25, b" 408 "),
    (
        "stalled body",
        [b"POST /v1/predict HTTP/1.1\r\nContent-Length: 100\r\n\r\n{"] + [b" "] * 25,
        b" 408 ",
    ),
    ("idle connection", [], b""),  # closed without an answer
]


@pytest.mark.parametrize("name,pieces,answer", SLOW, ids=[c[0] for c in SLOW])
def test_request_deadline(limited, name, pieces, answer):
    """A request must arrive within request_timeout (1 s) of its first byte, however slowly
    it trickles in; an idle connection is closed after the same time."""
    import threading

    with socket.create_connection(("127.0.0.1", limited.server_address[1])) as s:

        def trickle():
            try:
                for p in pieces:
                    s.sendall(p)
                    time.sleep(0.2)
            except OSError:
                pass  # the server closed the connection

        t = threading.Thread(target=trickle, daemon=True)
        t.start()
        buf, took = _read_answer(s, 10)
    assert took < 4, took  # not the 5 s the client would take
    assert buf.startswith(b"HTTP/1.1" + answer) if answer else buf == b"", buf[:200]
    if answer:
        assert b"did not arrive within 1 s" in buf


def test_connection_cap_answers_503(limited, server):
    port, d = limited.server_address[1], server[2]
    held = [http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT) for _ in range(3)]
    try:
        for c in held:  # three keep-alive connections: the cap
            c.request("GET", "/health")
            assert c.getresponse().read()
        before = limited.rejected
        status, body = predict(port, d["x"][:1])
        assert status == 503 and "limit of 3 open connections" in body["error"]["message"]
        assert limited.rejected == before + 1
    finally:
        for c in held:
            c.close()
    deadline = time.time() + 10
    while limited.active and time.time() < deadline:
        time.sleep(0.02)
    status, body = predict(port, d["x"][:1])  # slots are free again
    assert status == 200, body


def _corrupt(prefix: str, how: str) -> None:
    manifest = prefix + ".json"
    with open(manifest) as f:
        m = json.load(f)
    if how.startswith("program"):
        with open(prefix + ".stablehlo", "rb") as f:
            data = bytearray(f.read())
        if how.startswith("program bytes"):
            data[100:164] = b"\xff" * 64
        else:  # truncated: jax.export.deserialize fails (struct.error)
            data = data[: len(data) // 2]
        with open(prefix + ".stablehlo", "wb") as f:
            f.write(data)
        if how.endswith("hash updated"):
            import hashlib

            m["program_sha256"] = hashlib.sha256(data).hexdigest()
    elif how == "no inputs key":
        del m["inputs"]
    elif how == "unknown dtype":
        m["inputs"][0]["dtype"] = "float33"
    with open(manifest, "w") as f:
        json.dump(m, f)


def test_cli_bad_model_exits_2_with_one_line(server, tmp_path):
    """python -m serving on a damaged model: one ``serving: ...`` line on stderr, exit 2."""
    import shutil

    cases = ["program bytes", "program truncated, hash updated", "no inputs key", "unknown dtype"]
    procs = []
    for i, how in enumerate(cases):
        d = tmp_path / f"m{i}"
        shutil.copytree(os.path.dirname(server[1]), d)
        prefix = str(d / os.path.basename(server[1]))
        _corrupt(prefix, how)
        cmd = [sys.executable, "-m", "serving", "--model", prefix, "--port", "0"]
        procs.append(
            subprocess.Popen(
                cmd,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
            )
        )
    for how, p in zip(cases, procs):
        try:
            out, err = p.communicate(timeout=60)
        finally:
            p.kill()
        lines = err.strip().splitlines()
        assert p.returncode == 2, (how, p.returncode, err[-2000:])
        assert len(lines) == 1 and lines[0].startswith("serving: "), (how, err[-2000:])
        assert "Traceback" not in err and out == ""

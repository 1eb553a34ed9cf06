"""HTTP server over a Predictor (stdlib ``http.server``, bound to 127.0.0.1 only).

Routes (JSON in and out; schema in docs/serving.md)::

    GET  /health        {"status": "ok", ...}
    GET  /v1/metadata   the model's inputs/outputs (names, shapes with -1, dtypes)
    POST /v1/predict    {"inputs": {"x": {"data": [[...]], "dtype": "float32"}}}
                        -> {"outputs": {"fetch_name_0": {"data": ..., "dtype": ..., "shape": ...}}}

Bad requests get a 4xx with ``{"error": {"code": N, "message": "..."}}`` and the server keeps
running. Model calls are serialized by a lock (one XLA execution at a time; JSON parsing and
encoding run in the request threads).
"""

from __future__ import annotations

import base64
import binascii
import collections
import io
import json
import math
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import numpy as np

from paddle_compat._core.seams import saved_model

from ._buckets import BatchTooLarge, Executables
from ._predictor import Predictor

_kind, shape_matches = saved_model.dtype_kind, saved_model.shape_matches

HOST = "127.0.0.1"
DEFAULT_MAX_BODY = 16 << 20
DEFAULT_MAX_BATCH = 64  # batch buckets 1, 2, 4, ..., 64; larger requests: 413
DEFAULT_CACHE_SIZE = 32  # compiled shapes kept (least recently used dropped)
DEFAULT_REQUEST_TIMEOUT = 30.0  # s for a request's headers + body; idle keep-alive too
DEFAULT_MAX_CONNECTIONS = 128  # open connections served at once; more: 503


class BadRequest(Exception):
    """A client error: the request is answered with ``code`` and this message."""

    def __init__(self, message: str, code: int = 400):
        super().__init__(message)
        self.code = code


def _spec_json(s: saved_model.IOSpec) -> dict:
    return {"name": s.name, "shape": s.shape, "dtype": s.dtype}


def parse_inputs(req, specs: list[saved_model.IOSpec]) -> list[np.ndarray]:
    """The numpy input arrays of a ``/v1/predict`` request body (raises BadRequest)."""
    names = [s.name for s in specs]
    if isinstance(req, dict):
        extra = [k for k in req if k not in ("inputs", "output_encoding")]
        if extra:
            raise BadRequest(
                f'unknown field(s) {extra} in the request (use "inputs", "output_encoding")'
            )
    if not isinstance(req, dict) or "inputs" not in req:
        example = json.dumps(
            {
                "inputs": {
                    names[0] if names else "x": {
                        "data": "[...]",
                        "dtype": specs[0].dtype if specs else "float32",
                    }
                }
            }
        )
        raise BadRequest(
            'the request body must be a JSON object with an "inputs" field, e.g. '
            + example.replace('"[...]"', "[...]")
        )
    inputs = req["inputs"]
    if isinstance(inputs, list):
        if len(inputs) != len(specs):
            raise BadRequest(
                f'"inputs" is a list of {len(inputs)} item(s); the model takes '
                f"{len(specs)}: {names}"
            )
        inputs = dict(zip(names, inputs))
    if not isinstance(inputs, dict):
        raise BadRequest(
            '"inputs" must be an object mapping input names to values (or a '
            "list in the model's input order)"
        )
    unknown = [k for k in inputs if k not in names]
    if unknown:
        raise BadRequest(f"unknown input(s) {unknown}; the model's inputs are {names}")
    missing = [n for n in names if n not in inputs]
    if missing:
        raise BadRequest(f"missing input(s) {missing}; the model's inputs are {names}")
    return [_parse_one(spec, inputs[spec.name]) for spec in specs]


def _parse_one(spec: saved_model.IOSpec, item) -> np.ndarray:
    name = spec.name
    shape = None
    dtype = None
    if isinstance(item, dict):
        extra = [k for k in item if k not in ("data", "b64", "dtype", "shape")]
        if extra:
            raise BadRequest(
                f"input '{name}': unknown field(s) {extra} (use data or b64, dtype, shape)"
            )
        if "b64" in item:
            return _parse_b64(spec, item)
        if "data" not in item:
            raise BadRequest(f'input \'{name}\': missing "data" (or "b64")')
        data, dtype, shape = item["data"], item.get("dtype"), item.get("shape")
    else:
        data = item
    want = saved_model.np_dtype(spec.dtype)
    if dtype is not None:
        try:
            given = saved_model.np_dtype(str(dtype))
        except (TypeError, AttributeError, ValueError):
            raise BadRequest(f"input '{name}': unknown dtype {dtype!r}") from None
        if given != want:
            raise BadRequest(f"input '{name}': dtype {given} does not match the model's {want}")
    if isinstance(data, str | dict) or data is None:
        raise BadRequest(f"input '{name}': \"data\" must be a number or nested lists of numbers")
    try:
        arr = np.asarray(data)
    except ValueError:
        raise BadRequest(
            f"input '{name}': \"data\" is ragged (nested lists of unequal lengths)"
        ) from None
    except (RecursionError, TypeError, OverflowError) as e:
        raise BadRequest(
            f"input '{name}': \"data\" is not an array of numbers ({type(e).__name__})"
        ) from None
    if arr.dtype == object or arr.dtype.kind in "USV":
        found = (
            "strings"
            if arr.dtype.kind in "USV"
            else "ragged lists, nulls, objects or integers beyond 64 bits"
        )
        raise BadRequest(f"input '{name}': \"data\" must hold only numbers (found {found})")
    got, need = _kind(arr.dtype) if arr.size else _kind(want), _kind(want)
    if (
        got != need
        and not (got == "int" and need == "float")
        and not (got == "bool" and need in ("int", "float"))
    ):
        raise BadRequest(f"input '{name}': the model expects {want} values, got {got} values")
    arr = arr.astype(want)
    if shape is not None:
        _check_shape(spec, shape, allow_infer=True)
        try:
            arr = arr.reshape(shape)
        except ValueError:
            raise BadRequest(
                f"input '{name}': {arr.size} value(s) cannot take the shape {shape}"
            ) from None
    if not shape_matches(spec, arr.shape):
        raise BadRequest(
            f"input '{name}': shape {list(arr.shape)} does not match the model's "
            f"{spec.shape} (-1: any size)"
        )
    return arr


def _check_shape(spec: saved_model.IOSpec, shape, allow_infer: bool = False) -> None:
    """A client-given ``shape``: a list of ints (-1 once, with ``allow_infer``) that fits the
    model's rank and fixed dims (checked before any allocation: ``[2**32, 2**32]`` is a 400)."""
    name = spec.name
    low = -1 if allow_infer else 0
    if (
        not isinstance(shape, list)
        or not all(type(d) is int and low <= d < 2**62 for d in shape)
        or shape.count(-1) > 1
    ):
        what = "ints >= 0" + (" (one -1 may stand for the rest)" if allow_infer else "")
        raise BadRequest(f"input '{name}': \"shape\" must be a list of {what}, got {shape!r}"[:300])
    if len(shape) != len(spec.shape) or any(
        w != -1 and d not in (w, -1) for w, d in zip(spec.shape, shape)
    ):
        raise BadRequest(
            f"input '{name}': shape {shape} does not match the model's {spec.shape} (-1: any size)"
        )


def _parse_b64(spec: saved_model.IOSpec, item: dict) -> np.ndarray:
    """``{"b64": base64 of the raw little-endian C-order bytes, "dtype", "shape"}``."""
    name = spec.name
    want = saved_model.np_dtype(spec.dtype)
    if item.get("dtype") is None or item.get("shape") is None:
        raise BadRequest(f'input \'{name}\': "b64" data needs "dtype" and "shape"')
    if str(item["dtype"]) != spec.dtype:
        raise BadRequest(f"input '{name}': dtype {item['dtype']} does not match the model's {want}")
    shape = item["shape"]
    _check_shape(spec, shape)
    if not isinstance(item["b64"], str):
        raise BadRequest(f"input '{name}': \"b64\" must be a base64 string")
    try:
        raw = base64.b64decode(item["b64"], validate=True)
    except (binascii.Error, ValueError):
        raise BadRequest(f"input '{name}': \"b64\" is not valid base64") from None
    n = math.prod(shape) * want.itemsize  # Python ints: no overflow
    if len(raw) != n:
        raise BadRequest(
            f"input '{name}': {len(raw)} bytes of data, shape {shape} of {want} needs {n}"
        )
    return np.frombuffer(raw, want.newbyteorder("<")).reshape(shape).astype(want)


def encode_outputs(specs, outs, encoding: str = "json") -> dict:
    """Output arrays -> ``{name: {"dtype", "shape", "data" | "b64"}}``."""
    res = {}
    for s, o in zip(specs, outs):
        a = np.asarray(o)
        if encoding == "base64":
            a = np.ascontiguousarray(a, a.dtype.newbyteorder("<"))
            res[s.name] = {
                "dtype": s.dtype,
                "shape": list(a.shape),
                "b64": base64.b64encode(a.tobytes()).decode("ascii"),
            }
            continue
        if a.dtype.kind == "V" or a.dtype.itemsize < 4 and _kind(a.dtype) == "float":
            a = a.astype(np.float32)  # bfloat16/float16/float8 -> JSON numbers
        res[s.name] = {"dtype": s.dtype, "shape": list(a.shape), "data": a.tolist()}
    return res


class ModelServer(ThreadingHTTPServer):
    """ThreadingHTTPServer serving one Predictor on 127.0.0.1: batch buckets and a bounded
    compile cache (``Executables``), a per-request deadline and a connection cap."""

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256

    def __init__(
        self,
        predictor: Predictor,
        port: int = 0,
        max_body: int = DEFAULT_MAX_BODY,
        model_path: str = "",
        access_log: bool = False,
        *,
        max_batch: int = DEFAULT_MAX_BATCH,
        cache_size: int = DEFAULT_CACHE_SIZE,
        request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
    ):
        if request_timeout <= 0 or int(max_connections) < 1:
            raise ValueError(
                f"request_timeout must be > 0 and max_connections >= 1, got {request_timeout} "
                f"and {max_connections}"
            )
        self.predictor = predictor
        self.max_body = int(max_body)
        self.model_path = model_path
        self.access_log = access_log
        self.request_timeout = float(request_timeout)
        self.max_connections = int(max_connections)
        self.lock = threading.Lock()  # one execution at a time; compiles run outside it
        self.executables = Executables(
            predictor._art.exported,
            predictor._params,
            predictor.input_specs,
            max_batch=max_batch,
            cache_size=cache_size,
            compiler_options=predictor._config._compiler_options(predictor._device),
        )
        self.started = time.time()
        self.count = 0
        self.active = 0  # connections being served
        self.rejected = 0  # connections answered 503 (over max_connections)
        self.timed_out = 0  # requests answered 408 (over request_timeout)
        self._conn_mu = threading.Lock()
        self._closing: collections.deque = collections.deque()  # (time, socket) answered 503
        super().__init__((HOST, int(port)), _Handler)

    # -- connection cap: beyond it, 503 from the accept loop (no thread) --------------------
    def process_request(self, request, client_address):
        with self._conn_mu:
            full = self.active >= self.max_connections
            if not full:
                self.active += 1
        if full:
            self._reject(request)
            return
        try:
            super().process_request(request, client_address)  # a thread per connection
        except BaseException:
            with self._conn_mu:
                self.active -= 1
            raise

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self._conn_mu:
                self.active -= 1

    def _reject(self, sock) -> None:
        self.rejected += 1
        msg = f"the server is at its limit of {self.max_connections} open connections; retry later"
        body = json.dumps({"error": {"code": 503, "message": msg}}).encode()
        head = (
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n"
        )
        try:
            sock.setblocking(False)
            sock.send(head.encode() + body)  # a few hundred bytes: fits the send buffer
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            self.shutdown_request(sock)
            return
        # closed a moment later (service_actions), after reading what the client sent, so
        # that the close does not reset the connection before the client reads the 503
        self._closing.append((time.monotonic(), sock))
        if len(self._closing) > 1024:
            self._close_rejected(self._closing.popleft()[1])

    def _close_rejected(self, sock) -> None:
        try:
            while sock.recv(65536):
                pass
        except OSError:
            pass
        self.shutdown_request(sock)

    def service_actions(self) -> None:
        now = time.monotonic()
        while self._closing and now - self._closing[0][0] > 0.2:
            self._close_rejected(self._closing.popleft()[1])

    def server_close(self) -> None:
        while self._closing:
            self._close_rejected(self._closing.popleft()[1])
        super().server_close()

    # -- model ------------------------------------------------------------------------------
    def predict(self, arrays: list[np.ndarray], encoding: str = "json") -> dict:
        arrays = [
            saved_model.check_input(s, a, "serving")
            for s, a in zip(self.predictor.input_specs, arrays)
        ]
        outs = self.executables.run(arrays, self.lock)  # compiles (if new) outside the lock
        self.count += 1
        return encode_outputs(self.predictor.output_specs, outs, encoding)

    def warmup(self, up_to: int = 1) -> int:
        """Compile the batch buckets up to ``up_to`` rows before serving."""
        return self.executables.warmup(up_to)

    def limits(self) -> dict:
        ex = self.executables
        return {
            "max_body_bytes": self.max_body,
            "max_batch": ex.max_batch if ex.bucketing else None,
            "cache_size": ex.cache_size,
            "request_timeout_s": self.request_timeout,
            "max_connections": self.max_connections,
        }

    def metadata(self) -> dict:
        p = self.predictor
        return {
            "model": self.model_path,
            "inputs": [_spec_json(s) for s in p.input_specs],
            "outputs": [_spec_json(s) for s in p.output_specs],
            "device": str(p._device),
            **self.limits(),
            "buckets": self.executables.stats()["buckets"],
        }

    def health(self) -> dict:
        return {
            "status": "ok",
            "model": self.model_path,
            "uptime_s": round(time.time() - self.started, 3),
            "requests": self.count,
            "connections": self.active,
            "rejected_503": self.rejected,
            "timed_out_408": self.timed_out,
            **{k: v for k, v in self.executables.stats().items() if k != "buckets"},
        }


class _DeadlineReader(io.RawIOBase):
    """The connection's reads: an idle connection waits ``timeout`` s for a request's first
    byte; from then on the whole request (headers + body) must arrive within ``timeout`` s,
    however slowly it trickles in (a socket timeout alone restarts at every byte)."""

    def __init__(self, sock: socket.socket, timeout: float):
        self.sock = sock
        self.timeout = timeout
        self.deadline: float | None = None  # set at the first byte of a request
        self.expired = False

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        if self.deadline is None:
            wait = self.timeout
        else:
            wait = self.deadline - time.monotonic()
            if wait <= 0:
                self.expired = True
                raise TimeoutError("request deadline passed")
        self.sock.settimeout(wait)
        try:
            n = self.sock.recv_into(b)
        except TimeoutError:
            self.expired = True
            raise
        if n and self.deadline is None:
            self.deadline = time.monotonic() + self.timeout
        return n


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "paddle-compat-serving/0.1"

    def log_message(self, format, *args):  # noqa: A002 - BaseHTTPRequestHandler's signature
        if self.server.access_log:
            super().log_message(format, *args)

    def setup(self):
        super().setup()
        # small request/response pairs: no Nagle delay (it adds ~40 ms with delayed ACKs)
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.rfile.close()  # the socket's makefile: replaced by a reader with a deadline
        self._reader = _DeadlineReader(self.connection, self.server.request_timeout)
        self.rfile = io.BufferedReader(self._reader, 1 << 16)

    def handle_one_request(self):
        reader = self._reader
        reader.deadline = None  # each request gets its own deadline from its first byte
        self.requestline, self.request_version = "", self.protocol_version  # for a 408
        super().handle_one_request()  # a read timeout closes the connection there
        if reader.expired and reader.deadline is not None:  # mid-request: tell the client
            self.server.timed_out += 1
            self.request_version = self.protocol_version
            try:
                self._error(
                    408,
                    f"the request did not arrive within {self.server.request_timeout:g} s "
                    "of its first byte",
                    close=True,
                )
            except OSError:
                pass

    def _send(self, code: int, obj: dict, close: bool = False) -> None:
        body = json.dumps(obj, allow_nan=True).encode("utf-8")
        self.connection.settimeout(self.server.request_timeout)  # a client that never reads
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        head = getattr(self, "_headers_buffer", [])  # end_headers without its flush:
        self.wfile.write(b"".join(head) + b"\r\n" + body)  # headers and body in one write
        self._headers_buffer = []

    def _error(self, code: int, message: str, close: bool = False) -> None:
        self._send(code, {"error": {"code": code, "message": message}}, close)

    def do_GET(self):
        path = urlsplit(self.path).path
        if path == "/health":
            self._send(200, self.server.health())
        elif path == "/v1/metadata":
            self._send(200, self.server.metadata())
        else:
            self._error(
                404, f"no route GET {path}; routes: GET /health, GET /v1/metadata, POST /v1/predict"
            )

    def _drain(self, n: int) -> bool:
        """Read and drop ``n`` body bytes (so the client sees the answer); False if too big."""
        if n > 4 * self.server.max_body:
            return False
        while n > 0:
            chunk = self.rfile.read(min(n, 1 << 20))
            if not chunk:
                return False
            n -= len(chunk)
        return True

    def do_POST(self):
        path = urlsplit(self.path).path
        te = self.headers.get("Transfer-Encoding")
        length = self.headers.get("Content-Length")
        if te is not None or length is None:
            return self._error(
                411,
                "a Content-Length header is required (chunked bodies are not accepted)",
                close=True,
            )
        try:
            n = int(length)
            if n < 0:
                raise ValueError
        except ValueError:
            return self._error(400, f"bad Content-Length {length!r}", close=True)
        if path != "/v1/predict":
            ok = self._drain(n)
            return self._error(404, f"no route POST {path}; use POST /v1/predict", close=not ok)
        if n > self.server.max_body:
            ok = self._drain(n)
            return self._error(
                413,
                f"request body of {n} bytes exceeds the limit of {self.server.max_body} bytes",
                close=not ok,
            )
        body = self.rfile.read(n)
        if len(body) != n:
            return self._error(
                400, "the request body is shorter than its Content-Length", close=True
            )
        self._reader.deadline = None  # the request is in: the model's time is not the client's
        try:
            try:
                req = json.loads(body)
            except (ValueError, UnicodeDecodeError) as e:
                raise BadRequest(f"malformed JSON: {e}") from None
            except RecursionError:
                raise BadRequest("malformed JSON: nested too deeply") from None
            arrays = parse_inputs(req, self.server.predictor.input_specs)
            encoding = req.get("output_encoding", "json")
            if encoding not in ("json", "base64"):
                raise BadRequest(f'"output_encoding" must be "json" or "base64", got {encoding!r}')
            try:
                out = self.server.predict(arrays, encoding)
            except BatchTooLarge as e:
                raise BadRequest(str(e), 413) from None
            except ValueError as e:  # shapes the model rejects (e.g. unequal shared dims)
                raise BadRequest(str(e).replace("(InvalidArgument) ", "")) from None
        except BadRequest as e:
            return self._error(e.code, str(e))
        except Exception as e:  # the server keeps serving
            return self._error(500, f"{type(e).__name__}: {e}")
        self._send(200, {"outputs": out})

    def do_PUT(self):
        self._error(405, "method not allowed; use POST /v1/predict", close=True)

    do_DELETE = do_PATCH = do_PUT


def serve(
    model: str,
    port: int = 0,
    device: str = "cpu",
    max_body: int = DEFAULT_MAX_BODY,
    access_log: bool = False,
    warmup: bool | int = True,
    *,
    max_batch: int = DEFAULT_MAX_BATCH,
    cache_size: int = DEFAULT_CACHE_SIZE,
    request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
    max_connections: int = DEFAULT_MAX_CONNECTIONS,
) -> ModelServer:
    """A ModelServer for the saved model at ``model`` (not started: call ``serve_forever``).
    ``warmup``: compile the batch buckets up to this many rows first (True: 1, False/0:
    none)."""
    from ._predictor import Config, create_predictor

    cfg = Config(model)
    if device.startswith("gpu"):
        idx = int(device.split(":", 1)[1]) if ":" in device else 0
        cfg.enable_use_gpu(256, idx)
    pred = create_predictor(cfg)
    server = ModelServer(
        pred,
        port,
        max_body,
        model_path=model,
        access_log=access_log,
        max_batch=max_batch,
        cache_size=cache_size,
        request_timeout=request_timeout,
        max_connections=max_connections,
    )
    try:
        up_to = int(warmup)
        if up_to:
            try:
                server.warmup(up_to)
            except ValueError:  # a model whose other dynamic dims refuse size 1: compiled
                pass  # on the first request instead
    except BaseException:
        server.server_close()
        raise
    return server


__all__ = [
    "BadRequest",
    "ModelServer",
    "encode_outputs",
    "parse_inputs",
    "serve",
    "HOST",
    "DEFAULT_MAX_BATCH",
    "DEFAULT_CACHE_SIZE",
    "DEFAULT_REQUEST_TIMEOUT",
    "DEFAULT_MAX_CONNECTIONS",
]

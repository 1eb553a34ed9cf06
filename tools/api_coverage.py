"""API coverage: list the public names of ``paddle`` and ``paddle.Tensor`` and diff two lists.

Run under either venv, from a directory outside the repo for real Paddle:

    cd /tmp && /work/pdvenv/bin/python /work/main/tools/api_coverage.py dump > paddle.json
    cd /tmp && /work/venv/bin/python /work/main/tools/api_coverage.py dump --ref paddle.json \
        > ours.json
    python tools/api_coverage.py diff paddle.json ours.json [--json]

``dump`` prints ``{"namespaces": {ns: {name: {"kind": ..., "module": ...}}}}``: kinds are
``function``, ``class``, ``module``, ``value`` for modules and ``method``, ``property``,
``attribute`` for ``paddle.Tensor``. ``--ref`` also probes every name listed in a reference
dump with ``hasattr`` (names served by a module ``__getattr__`` are not in ``dir``).
``--ns`` adds namespaces (``paddle.linalg``, ``paddle.nn.functional``, ...).

``diff`` prints, per namespace and kind, how many of the reference's names exist in the
other dump and which are missing, grouped by the module that defines them in the reference
(e.g. ``paddle.tensor.math``).

The coverage report of issue 11 (``paddle``, ``paddle.Tensor``, ``paddle.linalg``,
``paddle.fft``, ``paddle.signal``):

    python tools/api_coverage.py record   # real Paddle's names -> tests/data/paddle_api.json
    python tools/api_coverage.py report   # ours vs that list -> docs/api_coverage.md

Every public name is implemented, on the reasoned not-supported list (``NOT_SUPPORTED`` in
below) or listed as missing; ``tests/test_api_coverage.py`` keeps the
report current and the missing list from growing.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import inspect
import io
import json
import subprocess
import sys
import types
import warnings
from pathlib import Path

DEFAULT_NS = ("paddle", "paddle.Tensor")
ROOT = Path(__file__).resolve().parents[1]
REPORT_NS = ("paddle", "paddle.Tensor", "paddle.linalg", "paddle.fft", "paddle.signal")
PADDLE_API = ROOT / "tests" / "data" / "paddle_api.json"
REPORT = ROOT / "docs" / "api_coverage.md"

# Public names of real Paddle that paddle-compat does not provide on purpose: name -> reason.
# (A name here that gets implemented fails tests/test_api_coverage.py: remove it.)
_INTERNAL_PATCH = "Paddle's internal patching hook, called once at its own import"
_SELECTED_ROWS = "SelectedRows / string / vocab tensors: Paddle's parameter-server internals"
_PIR = "Paddle's PIR program internals (static graphs are jax.jit traces here)"
NOT_SUPPORTED: dict[str, str] = {
    **{
        f"paddle.{n}": _INTERNAL_PATCH
        for n in (
            "monkey_patch_dtype",
            "monkey_patch_generated_methods_for_tensor",
            "monkey_patch_generated_methods_for_value",
            "monkey_patch_math_tensor",
            "monkey_patch_program",
            "monkey_patch_value",
            "monkey_patch_variable",
            "new_init",
            "original_init",
        )
    },
    **{
        f"paddle.Tensor.{n}": _SELECTED_ROWS
        for n in (
            "get_map_tensor",
            "get_selected_rows",
            "rows",
            "set_string_list",
            "set_vocab",
        )
    },
    **{f"paddle.{n}": _PIR for n in ("pir", "pir_utils", "IrGuard", "ir_guard")},
    "paddle.FLAGS_trace_api": "a C++ flag of Paddle's API tracer; paddle.get_flags lists ours",
    "paddle.pstring": "string tensors: JAX arrays hold numbers only",
    "paddle.raw": "raw (opaque byte) tensors: JAX arrays hold numbers only",
    "paddle.IPUPlace": "Graphcore IPUs: JAX has no IPU backend",
    "paddle.XPUPlace": "Kunlun XPUs: JAX has no XPU backend",
    "paddle.XPUPinnedPlace": "Kunlun XPUs: JAX has no XPU backend",
    "paddle.CustomPlace": "Paddle's custom-device plugins: JAX devices come from PJRT plugins",
    "paddle.decomposition": "Paddle's PIR op decomposition passes (XLA lowers every op itself)",
    "paddle.cuda_env": "Paddle's CUDA build environment probe",
    "paddle.common_ops_import": "an internal import helper module of Paddle",
    "paddle.library": "Paddle's custom C++ op library registration (no C++ ops here)",
    "paddle.classes": "Paddle's custom C++ class registry (no C++ classes here)",
    "paddle.ops": "Paddle's custom C++ op namespace (paddle.ops.<custom op>)",
    "paddle.onnx": (
        "paddle.onnx.export converts Paddle programs with paddle2onnx (not installed with "
        "Paddle either: it raises ImportError); the JAX exporter jax2onnx 0.17.1 pins "
        "orbax-checkpoint<0.11.37 (we need 0.12) and pulls in flax, equinox, onnxruntime, "
        "netron, huggingface-hub, so it cannot be an optional extra now"
    ),
}


def _kind_module(obj) -> str:
    if isinstance(obj, types.ModuleType):
        return "module"
    if inspect.isclass(obj):
        return "class"
    if callable(obj):
        return "function"
    return "value"


def _kind_member(cls, name: str) -> str:
    try:
        a = inspect.getattr_static(cls, name)
    except AttributeError:
        return "attribute"  # instance-only
    if isinstance(a, property) or type(a).__name__ in ("getset_descriptor", "member_descriptor"):
        return "property"
    if callable(a) or isinstance(a, staticmethod | classmethod):
        return "method"
    return "attribute"


def _origin(obj) -> str | None:
    m = getattr(obj, "__module__", None)
    if m is None:
        fn = getattr(obj, "__wrapped__", None) or getattr(obj, "__func__", None)
        m = getattr(fn, "__module__", None)
    return m if isinstance(m, str) else None


def _has(obj, name: str) -> bool:
    try:
        getattr(obj, name)
    except Exception:  # noqa: BLE001 - a lazy submodule that fails to import is missing
        return False
    return True


def _dump_module(modname: str, ref_names) -> dict:
    try:
        mod = importlib.import_module(modname)
    except ImportError:
        return {}
    names = {n for n in dir(mod) if not n.startswith("_")}
    names |= {n for n in ref_names if _has(mod, n)}
    out = {}
    for n in sorted(names):
        try:
            obj = getattr(mod, n)
        except Exception:  # noqa: BLE001 - a broken lazy attribute counts as missing
            continue
        origin = obj.__name__ if isinstance(obj, types.ModuleType) else _origin(obj)
        out[n] = {"kind": _kind_module(obj), "module": origin}
    return out


def _dump_tensor(ref_names) -> dict:
    import paddle

    cls = paddle.Tensor
    inst = paddle.to_tensor([1.0, 2.0])
    names = {n for n in dir(cls) if not n.startswith("_")}
    names |= {n for n in dir(inst) if not n.startswith("_")}
    names |= {n for n in ref_names if _has(cls, n) or _has(inst, n)}
    out = {}
    for n in sorted(names):
        try:
            obj = inspect.getattr_static(cls, n)
        except AttributeError:
            obj = None
        out[n] = {"kind": _kind_member(cls, n), "module": _origin(obj)}
    return out


def dump(namespaces, ref: dict | None) -> dict:
    warnings.simplefilter("ignore")
    with contextlib.redirect_stderr(io.StringIO()):
        import paddle

    res = {
        "version": getattr(paddle, "__version__", "?"),
        "impl": paddle.__name__,
        "namespaces": {},
    }
    res["all"] = {}
    for ns in namespaces:
        if ns != "paddle.Tensor":
            with contextlib.suppress(ImportError):
                public = getattr(importlib.import_module(ns), "__all__", None)
                if public is not None:
                    res["all"][ns] = sorted(public)
        ref_names = (ref or {}).get("namespaces", {}).get(ns, {}).keys()
        if ns == "paddle.Tensor":
            res["namespaces"][ns] = _dump_tensor(ref_names)
        else:
            res["namespaces"][ns] = _dump_module(ns, ref_names)
    return res


def diff(ref: dict, other: dict) -> dict:
    """{ns: {kind: {"total", "present", "missing": {origin module: [names]}}}}"""
    out = {}
    for ns, names in ref["namespaces"].items():
        have = other["namespaces"].get(ns, {})
        per = {}
        for n, info in names.items():
            k = per.setdefault(info["kind"], {"total": 0, "present": 0, "missing": {}})
            k["total"] += 1
            if n in have:
                k["present"] += 1
            else:
                k["missing"].setdefault(info["module"] or "?", []).append(n)
        out[ns] = per
    return out


def _print_diff(d: dict) -> None:
    for ns, per in d.items():
        for kind, k in sorted(per.items()):
            print(f"{ns} {kind}: {k['present']}/{k['total']} present")
        for kind, k in sorted(per.items()):
            for mod, names in sorted(k["missing"].items()):
                print(f"  missing {kind} [{mod}] ({len(names)}): {', '.join(sorted(names))}")


def record(python: str) -> dict:
    """Real Paddle's public names of ``REPORT_NS``: ``paddle`` by ``dir`` (less the stdlib and
    third-party modules it happens to import), the submodules by their ``__all__``."""
    out = subprocess.run(
        [python, str(Path(__file__).resolve()), "dump", *sum((["--ns", n] for n in REPORT_NS), [])],
        capture_output=True,
        text=True,
        cwd="/",
        check=True,
    ).stdout
    raw = json.loads(out)
    if raw["impl"] != "paddle" or not raw["version"].startswith("3.3"):
        sys.exit(f"expected real Paddle 3.3.x, got {raw['impl']} {raw['version']}")
    spaces = {}
    for ns in REPORT_NS:
        names = raw["namespaces"].get(ns, {})
        if ns in raw["all"] and ns != "paddle":
            names = {n: v for n, v in names.items() if n in raw["all"][ns]}
        elif ns == "paddle":
            names = {
                n: v
                for n, v in names.items()
                if v["kind"] != "module" or (v["module"] or "").startswith("paddle.")
            }
        spaces[ns] = names
    return {"version": raw["version"], "namespaces": spaces}


def coverage(ref: dict) -> dict:
    """{ns: {"implemented": [...], "not_supported": {name: reason}, "missing": {name: origin}}}
    for paddle-compat (imported here) against Paddle's recorded names."""
    warnings.simplefilter("ignore")
    import paddle

    inst = paddle.to_tensor([1.0])
    out = {}
    for ns, names in ref["namespaces"].items():
        try:
            owner = paddle.Tensor if ns == "paddle.Tensor" else importlib.import_module(ns)
        except ImportError:
            owner = None
        res = {"implemented": [], "not_supported": {}, "missing": {}}
        for n, info in sorted(names.items()):
            q = f"{ns}.{n}"
            has = owner is not None and (
                _has(owner, n) or (ns == "paddle.Tensor" and _has(inst, n))
            )
            if has:
                res["implemented"].append(n)
            elif q in NOT_SUPPORTED:
                res["not_supported"][n] = NOT_SUPPORTED[q]
            else:
                res["missing"][n] = info["module"] or "?"
        out[ns] = res
    return out


def report_markdown(cov: dict, version: str) -> str:
    lines = [
        "# API coverage: Paddle's public names",
        "",
        f"`python tools/api_coverage.py report`: every public name of real Paddle {version}'s "
        + ", ".join(f"`{ns}`" for ns in cov)
        + " (recorded in `tests/data/paddle_api.json`), checked against paddle-compat: "
        "implemented, not supported on purpose (with the reason), or missing (not yet "
        "implemented).",
        "",
        "| namespace | Paddle's names | implemented | not supported | missing |",
        "|---|---|---|---|---|",
    ]
    for ns, r in cov.items():
        total = len(r["implemented"]) + len(r["not_supported"]) + len(r["missing"])
        lines.append(
            f"| `{ns}` | {total} | {len(r['implemented'])} | {len(r['not_supported'])} "
            f"| {len(r['missing'])} |"
        )
    lines += ["", "## Not supported, and why", "", "| name | reason |", "|---|---|"]
    for ns, r in cov.items():
        for n, why in r["not_supported"].items():
            lines.append(f"| `{ns}.{n}` | {why} |")
    lines += ["", "## Missing (not yet implemented)", ""]
    for ns, r in cov.items():
        if not r["missing"]:
            continue
        by_origin: dict[str, list[str]] = {}
        for n, origin in r["missing"].items():
            by_origin.setdefault(origin, []).append(n)
        lines.append(f"### `{ns}` ({len(r['missing'])})")
        lines.append("")
        for origin, names in sorted(by_origin.items()):
            lines.append(f"- from `{origin}`: " + ", ".join(f"`{n}`" for n in sorted(names)))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump", help="print the public names as JSON")
    d.add_argument("--ns", action="append", default=[], help="extra namespace to list")
    d.add_argument("--ref", help="reference dump whose names are probed with hasattr")
    f = sub.add_parser("diff", help="compare a reference dump with another")
    f.add_argument("ref")
    f.add_argument("other")
    f.add_argument("--json", action="store_true", help="print the diff as JSON")
    r = sub.add_parser("record", help=f"real Paddle's names -> {PADDLE_API.relative_to(ROOT)}")
    r.add_argument("--paddle-python", default="/work/paddle-venv/bin/python")
    sub.add_parser("report", help=f"coverage of paddle-compat -> {REPORT.relative_to(ROOT)}")
    a = p.parse_args(argv)
    if a.cmd == "record":
        PADDLE_API.write_text(json.dumps(record(a.paddle_python), indent=1, sort_keys=True) + "\n")
    elif a.cmd == "report":
        ref = json.loads(PADDLE_API.read_text())
        REPORT.write_text(report_markdown(coverage(ref), ref["version"]))
        print(f"wrote {REPORT.relative_to(ROOT)}")
    elif a.cmd == "dump":
        ref = json.load(open(a.ref)) if a.ref else None
        extra = [ns for ns in a.ns if ns not in DEFAULT_NS]
        if ref:
            extra += [ns for ns in ref["namespaces"] if ns not in DEFAULT_NS and ns not in extra]
        json.dump(dump([*DEFAULT_NS, *extra], ref), sys.stdout, indent=1, sort_keys=True)
        print()
    else:
        res = diff(json.load(open(a.ref)), json.load(open(a.other)))
        if a.json:
            json.dump(res, sys.stdout, indent=1, sort_keys=True)
            print()
        else:
            _print_diff(res)
    return 0


if __name__ == "__main__":
    sys.exit(main())

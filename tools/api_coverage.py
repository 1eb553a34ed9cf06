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
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import inspect
import io
import json
import sys
import types
import warnings

DEFAULT_NS = ("paddle", "paddle.Tensor")


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
        out[n] = {"kind": _kind_module(obj), "module": _origin(obj)}
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
    for ns in namespaces:
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
    a = p.parse_args(argv)
    if a.cmd == "dump":
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

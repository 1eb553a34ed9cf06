"""The shape of the house: the registry owns every op name, nothing patches Tensor or Layer from
outside, the public surface is honest, files stay small, outer packages use declared seams."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

import paddle
from paddle_compat._core.registry import REGISTRY

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("paddle_compat", "parallel", "quant", "serving", "paddle", "tools", "benchmarks")
MAX_LINES = 800
sys.path.insert(0, str(ROOT / "tools"))
import house_report  # noqa: E402


def _py_files():
    for pkg in SOURCES:
        yield from sorted((ROOT / pkg).rglob("*.py"))


def test_no_source_file_over_800_lines():
    over = [
        f"{p.relative_to(ROOT)}: {n}"
        for p in _py_files()
        if (n := len(p.read_text().splitlines())) > MAX_LINES
    ]
    assert not over, f"split these files by sub-category (cap {MAX_LINES} lines): {over}"


# Tensor's methods are generated in one place (the registry's _methods.py); Layer defines its own
_PATCH = re.compile(
    r"setattr\((Tensor|Layer|Parameter),|^\s*(Tensor|Layer|Parameter)\.\w+\s*=", re.M
)
_MAY_PATCH = {"paddle_compat/_ops/_methods.py"}


def test_nothing_patches_tensor_or_layer_from_outside():
    found = [
        f"{p.relative_to(ROOT)}:{m.group(0).strip()}"
        for p in _py_files()
        for m in _PATCH.finditer(p.read_text())
        if str(p.relative_to(ROOT)) not in _MAY_PATCH
    ]
    assert not found, f"patches of Tensor/Layer outside their definitions: {found}"


def test_no_hand_lists_of_op_names():
    """Names come from the decorator: no module re-adds ops to a namespace by hand."""
    for p in (ROOT / "paddle_compat").rglob("*.py"):
        text = p.read_text()
        assert "REGISTRY[" not in text or p.name == "registry.py", p
        assert ".namespaces =" not in text, p


def test_registry_names_are_unique_and_public_names_resolve():
    seen: dict[str, str] = {}
    for _ in range(3):  # public modules imported here may register more ops (paddle.geometric)
        n = len(REGISTRY)
        for ns in {ns for od in list(REGISTRY.values()) for ns in od.namespaces}:
            importlib.import_module(ns.replace("paddle", "paddle_compat", 1))
        if len(REGISTRY) == n:
            break
    for od in REGISTRY.values():
        for ns in od.namespaces:
            mod = importlib.import_module(ns.replace("paddle", "paddle_compat", 1))
            for n in (od.name, *od.extra_names):
                key = f"{ns}.{n}"
                assert key not in seen, f"{key} declared by {seen[key]} and {od.name}"
                seen[key] = od.name
                assert getattr(mod, n) is od, key
            for n in od.inplace:
                assert callable(getattr(mod, n)), f"{ns}.{n}"
        for m in od.methods:
            assert callable(getattr(paddle.Tensor, m)), f"Tensor.{m}"


@pytest.mark.parametrize("name", ["onnx", "not_a_paddle_api"])
def test_missing_api_is_an_attribute_error(name):
    assert not hasattr(paddle, name)
    with pytest.raises(AttributeError, match=f"'{name}'"):
        getattr(paddle, name)


def test_missing_paddle_module_names_the_paddle_api():
    with pytest.raises(AttributeError, match=r"paddle\.onnx is not implemented"):
        paddle.onnx  # noqa: B018


def test_every_lazy_submodule_exists():
    for name in paddle._SUBMODULES:
        assert importlib.util.find_spec(f"paddle_compat.{name}") is not None, name
        assert hasattr(paddle, name), name


def test_import_of_a_missing_module_names_it():
    out = subprocess.run(
        [sys.executable, "-c", "import paddle.onnx"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode != 0
    assert "ModuleNotFoundError: No module named 'paddle.onnx'" in out.stderr
    assert "paddle_compat" not in out.stderr.splitlines()[-1]


def test_no_import_cycles():
    edges = house_report.imports(house_report.modules())
    assert house_report.cycles(edges) == []


@pytest.mark.parametrize("args", [["check"], ["format", "--check"]], ids=["lint", "format"])
def test_ruff_clean(args):
    pytest.importorskip("ruff", reason="ruff is in the test extra")
    out = subprocess.run(
        [sys.executable, "-m", "ruff", *args, *SOURCES, "tests"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_house_report_runs():
    r = house_report.report()
    assert r["files"] > 0 and r["files_over_cap"] == []


def test_outer_packages_use_only_declared_seams():
    """parallel/quant/serving reach the core only through paddle_compat._core.seams, and no
    package imports another's private modules."""
    assert house_report.report()["private_cross_import_list"] == []

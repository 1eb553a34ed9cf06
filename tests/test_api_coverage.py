"""docs/api_coverage.md is current: every public name of real Paddle 3.3.1's ``paddle``,
``paddle.Tensor``, ``paddle.linalg``, ``paddle.fft`` and ``paddle.signal`` is implemented,
on the reasoned not-supported list, or listed as missing (tools/api_coverage.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import api_coverage  # noqa: E402

REF = json.loads(api_coverage.PADDLE_API.read_text())
COVERAGE = api_coverage.coverage(REF)


def test_the_report_is_current():
    """Regenerate with ``python tools/api_coverage.py report`` after adding an API."""
    want = api_coverage.report_markdown(COVERAGE, REF["version"])
    assert api_coverage.REPORT.read_text() == want


def test_not_supported_names_are_not_implemented_and_exist_in_paddle():
    implemented = {f"{ns}.{n}" for ns, r in COVERAGE.items() for n in r["implemented"]}
    paddle_names = {f"{ns}.{n}" for ns, names in REF["namespaces"].items() for n in names}
    assert not set(api_coverage.NOT_SUPPORTED) & implemented
    assert set(api_coverage.NOT_SUPPORTED) <= paddle_names
    assert all(why.strip() for why in api_coverage.NOT_SUPPORTED.values())


def test_the_reference_covers_the_five_namespaces():
    sizes = {ns: len(names) for ns, names in REF["namespaces"].items()}
    assert sizes["paddle"] > 600 and sizes["paddle.Tensor"] > 500
    assert sizes["paddle.fft"] == 22 and sizes["paddle.linalg"] == 40

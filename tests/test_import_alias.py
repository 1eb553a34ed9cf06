"""``import paddle`` resolves to paddle_compat's module objects at any depth."""

import subprocess
import sys
import textwrap

import paddle
import paddle_compat


def test_same_module_objects():
    import paddle.nn.functional as F

    import paddle_compat.nn.functional as F2

    assert paddle is paddle_compat
    assert F is F2
    from paddle.io import DataLoader

    from paddle_compat.io import DataLoader as D2

    assert DataLoader is D2
    assert sys.modules["paddle.nn"] is sys.modules["paddle_compat.nn"]


def test_python_m_paddle_compat_runs_a_script(tmp_path):
    script = tmp_path / "s.py"
    script.write_text(
        textwrap.dedent("""
        import paddle, sys
        import paddle.nn.functional as F
        assert paddle.__name__ == "paddle_compat", paddle.__name__
        print(F.relu(paddle.to_tensor([-1.0, 2.0])).numpy().tolist(), sys.argv[1:])
    """)
    )
    out = subprocess.run(
        [sys.executable, "-m", "paddle_compat", str(script), "a", "b"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[0.0, 2.0] ['a', 'b']"


def test_install_routes_paddle_imports(tmp_path):
    code = (
        "import paddle_compat; paddle_compat.install(); import paddle.nn as nn, paddle; "
        "print(paddle is paddle_compat, nn is paddle_compat.nn)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=300
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True True"

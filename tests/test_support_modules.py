"""paddle.base / paddle.utils / paddle.version / paddle.sysconfig / paddle.compat beyond the
goldens (tests/cases/tensor_attributes.py): the imports scripts and libraries make, what
differs on purpose (no downloads, no C++ extensions, honest build facts) and the torch
proxy's scopes."""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import io
import os
import sys
import warnings

import pytest

import paddle

# imports seen in PaddleFormers, PaddleClas, PaddleSeg and Paddle's docstring examples
IMPORTS = [
    ("paddle.base", "core"),
    ("paddle.base", "framework"),
    ("paddle.base", "unique_name"),
    ("paddle.base", "dygraph"),
    ("paddle.base", "set_flags"),
    ("paddle.base", "ParamAttr"),
    ("paddle.base.framework", "Variable"),
    ("paddle.base.framework", "in_dynamic_or_pir_mode"),
    ("paddle.base.framework", "in_pir_mode"),
    ("paddle.base.framework", "use_pir_api"),
    ("paddle.base.framework", "EagerParamBase"),
    ("paddle.base.framework", "default_main_program"),
    ("paddle.base.framework", "get_flags"),
    ("paddle.base.framework", "_current_expected_place"),
    ("paddle.base.dygraph", "guard"),
    ("paddle.base.dygraph", "no_grad"),
    ("paddle.base.dygraph.base", "in_to_static_mode"),
    ("paddle.base.data_feeder", "convert_dtype"),
    ("paddle.base.param_attr", "ParamAttr"),
    ("paddle.base.core", "VarDesc"),
    ("paddle.base.core", "DataType"),
    ("paddle.base.core", "eager"),
    ("paddle.base.core", "default_cpu_generator"),
    ("paddle.base.core", "get_cuda_device_count"),
    ("paddle.base.core", "AmpLevel"),
    ("paddle.base.libpaddle", "DataType"),
    ("paddle.base.framework", "_dygraph_tracer"),
    ("paddle.base.dygraph", "Tracer"),
    ("paddle.compat.nn", "MultiheadAttention"),
    ("paddle.framework", "core"),
    ("paddle.framework", "ParamAttr"),
    ("paddle.framework", "_current_expected_place"),
    ("paddle.framework.recall_error", "LOSS_NAN_ERROR"),
    ("paddle.framework.recall_error", "LOSS_INF_ERROR"),
    ("paddle.framework.io", "save"),
    ("paddle.utils", "try_import"),
    ("paddle.utils", "map_structure"),
    ("paddle.utils", "flatten"),
    ("paddle.utils", "run_check"),
    ("paddle.utils", "require_version"),
    ("paddle.utils.download", "get_weights_path_from_url"),
    ("paddle.utils.download", "is_url"),
    ("paddle.utils.dlpack", "from_dlpack"),
    ("paddle.utils.unique_name", "guard"),
    ("paddle.utils.cpp_extension", "CUDAExtension"),
    ("paddle.version", "full_version"),
    ("paddle.sysconfig", "get_include"),
    ("paddle.compat", "sort"),
    ("paddle.compat.nn.functional", "softmax"),
    ("paddle", "batch"),
    ("paddle", "MmapStorage"),
    ("paddle", "enable_compat"),
    ("paddle", "disable_compat"),
    ("paddle", "use_compat_guard"),
]


@pytest.mark.parametrize("module,name", IMPORTS)
def test_imports(module, name):
    assert getattr(importlib.import_module(module), name) is not None


def _md5(data: bytes) -> str:
    return hashlib.md5(data).hexdigest()


def test_download_reads_only_the_local_copy(tmp_path):
    from paddle.utils import download

    url = "https://example.com/models/m.pdparams"
    with pytest.raises(RuntimeError, match="does not download") as e:
        download.get_path_from_url(url, str(tmp_path))
    assert str(tmp_path / "m.pdparams") in str(e.value) and "paddle.load" in str(e.value)
    (tmp_path / "m.pdparams").write_bytes(b"weights")
    assert download.get_path_from_url(url, str(tmp_path)) == str(tmp_path / "m.pdparams")
    assert download.get_path_from_url(url, str(tmp_path), _md5(b"weights")).endswith("m.pdparams")
    with pytest.raises(RuntimeError, match="md5"):
        download.get_path_from_url(url, str(tmp_path), _md5(b"other"))
    with pytest.raises(RuntimeError, match="weights"):
        download.get_weights_path_from_url("https://example.com/none/missing_ta.pdparams")
    assert download.WEIGHTS_HOME.endswith(os.path.join(".cache", "paddle", "hapi", "weights"))


@pytest.mark.parametrize("name", ["setup", "load", "CppExtension", "CUDAExtension"])
def test_cpp_extension_is_refused(name):
    from paddle.utils import cpp_extension

    with pytest.raises(NotImplementedError, match="custom operators"):
        getattr(cpp_extension, name)(sources=["op.cc"])


@pytest.mark.parametrize(
    "attr,value",
    [
        ("full_version", paddle.__version__),
        ("major", "3"),
        ("with_mkl", "OFF"),  # no MKL: XLA runs the kernels
        ("compat_version", paddle.__compat_version__),
        ("commit", f"paddle-compat {paddle.__compat_version__}"),
    ],
)
def test_version_values(attr, value):
    assert getattr(paddle.version, attr) == value


def test_version_show_and_sysconfig():
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        paddle.version.show()
    lines = buf.getvalue().splitlines()
    assert lines[0] == "full_version: 3.3.1" and "cuda: False" in lines
    import paddle_compat

    root = os.path.dirname(paddle_compat.__file__)
    assert paddle.sysconfig.get_include() == os.path.join(root, "include")
    assert paddle.sysconfig.get_lib() == os.path.join(root, "libs")


@pytest.mark.parametrize(
    "level,expect",
    [(0, "none"), (1, "warning"), (2, "error")],
)
def test_deprecated_levels(level, expect):
    @paddle.utils.deprecated(since="2.0", update_to="paddle.add", level=level)
    def f(x):
        """Doc."""
        return x

    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        if expect == "error":
            with pytest.raises(RuntimeError, match="has been deprecated"):
                f(1)
        else:
            assert f(1) == 1
    got = [x for x in w if x.category.__name__ == "VisibleDeprecationWarning"]
    assert len(got) == (1 if expect == "warning" else 0)
    assert 'Please use "paddle.add" instead.' in f.__doc__


def test_run_check_prints_success():
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        paddle.utils.run_check()
    assert "PaddlePaddle is installed successfully!" in buf.getvalue()


def test_in_to_static_mode_and_dygraph_guard():
    from paddle.base.dygraph.base import in_to_static_mode

    seen = []

    @paddle.jit.to_static
    def f(x):
        seen.append(in_to_static_mode())
        return x * 2

    f(paddle.to_tensor([1.0]))
    assert seen and all(seen) and not in_to_static_mode()
    before = paddle.get_device()
    with paddle.base.dygraph.guard(paddle.CPUPlace()):
        assert paddle.get_device() == "cpu"
    assert paddle.get_device() == before


def test_static_variable_is_never_created():
    Variable = paddle.base.framework.Variable
    assert not isinstance(paddle.to_tensor([1.0]), Variable)
    with pytest.raises(RuntimeError, match="static"):
        Variable()


def test_unique_name_switch_restores_parameter_names():
    un = paddle.utils.unique_name
    old = un.switch()
    try:
        a = paddle.nn.Linear(2, 2)
        assert a.weight.name == "linear_0.w_0"
    finally:
        un.switch(*old)
    with un.guard():  # a fresh checker: the name may be used again
        assert paddle.nn.Linear(2, 2).weight.name == "linear_0.w_0"


def test_tensor_name_counter_is_not_switched():
    n1 = int(paddle.to_tensor(1.0).name.rsplit("_", 1)[1])
    with paddle.utils.unique_name.guard():
        n2 = int(paddle.to_tensor(1.0).name.rsplit("_", 1)[1])
    assert n2 > n1


# -- the torch proxy ------------------------------------------------------------------------


@pytest.fixture
def pkg(tmp_path, monkeypatch):
    """Two throwaway modules that ``import torch``: ``ta_scoped`` and ``ta_blocked``."""
    for name in ("ta_scoped", "ta_blocked"):
        (tmp_path / f"{name}.py").write_text(
            "try:\n    import torch\n    KIND = type(torch).__name__\n"
            "except ModuleNotFoundError:\n    KIND = 'missing'\n"
        )
    monkeypatch.syspath_prepend(str(tmp_path))
    yield
    for name in ("ta_scoped", "ta_blocked"):
        sys.modules.pop(name, None)
    with contextlib.suppress(Exception), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        paddle.disable_compat()


def _torch_importable() -> bool:
    try:
        import torch  # noqa: F401
    except ModuleNotFoundError:
        return False
    return True


@pytest.mark.skipif(importlib.util.find_spec("torch") is not None, reason="real torch installed")
def test_proxy_scope_and_blocked_modules(pkg):
    paddle.enable_compat(scope={"ta_scoped"}, blocked_modules={"ta_blocked"})
    import ta_blocked
    import ta_scoped

    assert ta_scoped.KIND == "ProxyModule" and ta_blocked.KIND == "missing"
    sys.modules.pop("torch", None)
    assert not _torch_importable()  # not enabled globally
    paddle.disable_compat()
    with paddle.use_compat_guard():
        assert _torch_importable()
        with paddle.use_compat_guard(enable=False):
            assert not _torch_importable()
        assert _torch_importable()
    assert "torch" not in sys.modules and not _torch_importable()


def test_disable_without_enable_warns():
    with pytest.warns(UserWarning, match="not installed"):
        paddle.disable_compat()

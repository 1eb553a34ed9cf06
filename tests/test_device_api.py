"""paddle.device beyond the goldens (tests/cases/device_api.py): the namespace against Paddle
3.3.1's names, streams/events/synchronize on the CPU, and the GPU paths (memory statistics,
peak resets, properties, streams) against a stand-in JAX GPU device that reports
``memory_stats`` like XLA's. Tables of cases."""

from __future__ import annotations

import time

import jax
import numpy as np
import pytest

import paddle
from paddle_compat.device import _jax

D = paddle.device

PADDLE_DEVICE_ALL = {  # paddle.device.__all__ of Paddle 3.3.1
    "get_cudnn_version", "set_device", "get_device", "XPUPlace", "IPUPlace",
    "is_compiled_with_xpu", "is_compiled_with_ipu", "is_compiled_with_cinn",
    "is_compiled_with_cuda", "is_compiled_with_rocm", "is_compiled_with_distribute",
    "is_compiled_with_custom_device", "get_all_device_type", "get_all_custom_device_type",
    "get_available_device", "get_available_custom_device", "get_device_properties", "Stream",
    "Event", "current_stream", "set_stream", "stream_guard", "device_guard", "synchronize",
    "device_count", "empty_cache", "max_memory_allocated", "max_memory_reserved",
    "reset_max_memory_allocated", "reset_max_memory_reserved", "memory_allocated",
    "memory_reserved", "is_available", "is_current_stream_capturing", "get_device_name",
    "get_device_capability", "get_rng_state", "set_rng_state", "FloatTensor", "DoubleTensor",
    "HalfTensor", "BFloat16Tensor", "ByteTensor", "CharTensor", "ShortTensor", "IntTensor",
    "LongTensor", "BoolTensor", "device", "is_bf16_supported", "manual_seed",
    "reset_peak_memory_stats", "ipc_collect", "get_stream_from_external", "StreamContext",
}  # fmt: skip
PADDLE_DEVICE_EXTRA = {  # public in dir(paddle.device) too (modules, helpers)
    "Device", "amp", "cpu", "cuda", "current_device", "device_to_place", "extract_device_id",
    "get_default_device", "get_device_module", "manual_seed_all", "nvtx", "set_default_device",
    "stream", "xpu",
}  # fmt: skip
PADDLE_CUDA_ALL = {
    "Stream", "Event", "current_stream", "synchronize", "device_count", "empty_cache",
    "max_memory_allocated", "max_memory_reserved", "memory_allocated", "memory_reserved",
    "stream_guard", "get_device_properties", "get_device_name", "get_device_capability",
    "reset_max_memory_allocated", "reset_max_memory_reserved", "memory_summary", "vmm_compact",
}  # fmt: skip

NO_GPU = pytest.mark.skipif(bool(_jax.gpus()), reason="checks the CPU-only answers")


def test_namespace():
    assert set(D.__all__) == PADDLE_DEVICE_ALL
    missing = [n for n in PADDLE_DEVICE_ALL | PADDLE_DEVICE_EXTRA if not hasattr(D, n)]
    assert not missing
    assert set(D.cuda.__all__) == PADDLE_CUDA_ALL
    assert all(hasattr(D.cuda, n) for n in PADDLE_CUDA_ALL)
    assert D.FloatTensor is paddle.FloatTensor
    assert D.cuda.graphs.is_cuda_graph_supported() is False


def test_synchronize_waits_for_queued_work():
    x = paddle.randn([64, 64])
    y = x @ x  # dispatched asynchronously (maybe still deferred)
    D.synchronize()
    assert all(a.is_ready() for a in jax.live_arrays() if not a.is_deleted())
    np.testing.assert_allclose(y.numpy(), x.numpy() @ x.numpy(), rtol=1e-4, atol=1e-4)


def test_streams_and_events_on_cpu():
    s = D.current_stream()
    assert s == D.current_stream("cpu") and s.query()
    t = D.Stream("cpu", priority=1)
    with D.stream_guard(t):
        assert D.current_stream() is t
    assert D.current_stream() is s
    prev = D.set_stream(t)
    assert prev is s and D.current_stream() is t
    D.set_stream(s)
    start, end = D.Event(enable_timing=True), D.Event(enable_timing=True)
    start.record()
    time.sleep(0.02)
    end.record(s)
    assert 15 <= start.elapsed_time(end) < 2000
    with pytest.raises(ValueError, match="enable_timing"):
        D.Event().elapsed_time(D.Event())
    with pytest.raises(ValueError, match="priority"):
        D.Stream(priority=3)
    ev = s.record_event()
    assert ev.query()
    s.wait_event(ev)
    s.wait_stream(t)


class _FakeGpu:
    """A stand-in for a JAX GPU device: id, platform, device_kind, compute_capability,
    core_count and XLA-style memory_stats that the test drives."""

    platform = "gpu"

    def __init__(self, i):
        self.id, self.device_kind = i, "Fake GPU"
        self.compute_capability, self.core_count = "9.0", 132
        self.stats = {"bytes_in_use": 100, "peak_bytes_in_use": 500, "bytes_limit": 1 << 30,
                      "bytes_reserved": 700, "peak_bytes_reserved": 900}  # fmt: skip

    def memory_stats(self):
        return dict(self.stats)


@pytest.fixture
def fake_gpus(monkeypatch):
    gpus = [_FakeGpu(0), _FakeGpu(1)]
    monkeypatch.setattr(_jax, "_gpus", lambda: gpus)
    return gpus


def test_memory_stats_from_xla(fake_gpus):
    g = fake_gpus[1]
    assert D.memory_allocated("gpu:1") == 100 and D.cuda.memory_allocated(1) == 100
    assert D.max_memory_allocated(1) == 500
    assert D.memory_reserved(1) == 700 and D.max_memory_reserved(1) == 900
    D.reset_max_memory_allocated(1)
    g.stats["bytes_in_use"] = 300
    assert D.max_memory_allocated(1) == 300  # XLA's peak has not moved: the current use
    g.stats["peak_bytes_in_use"] = 800
    assert D.max_memory_allocated(1) == 800  # a new peak since the reset
    assert D.max_memory_allocated(0) == 500  # the other GPU was not reset
    with pytest.raises(ValueError, match="out of range"):
        D.memory_allocated(5)
    with pytest.raises(ValueError, match="gpu:x"):
        D.memory_allocated("cpu:0")


def test_gpu_answers(fake_gpus):
    assert D.device_count() == 2 and D.is_available()
    assert D.get_all_device_type() == ["gpu"]
    assert D.get_available_device() == ["gpu:0", "gpu:1"]
    p = D.get_device_properties("gpu:1")
    assert (p.name, p.major, p.minor, p.multi_processor_count) == ("Fake GPU", 9, 0, 132)
    assert repr(p).startswith("_gpuDeviceProperties(name='Fake GPU', major=9, minor=0")
    assert D.get_device_capability(0) == (9, 0) and D.get_device_name() == "Fake GPU"
    assert D.is_bf16_supported(False)
    assert isinstance(D.cuda.Stream(1), D.Stream) and D.cuda.Event().query()
    assert D.cuda.vmm_compact() == 0
    D.ipc_collect()  # a no-op with a GPU


SPEC_CASES = [  # (device, set_device's spec with no GPU)
    ("cpu", "cpu"), ("CPU", "cpu"), (None, "cpu"), (0, "cpu"), (paddle.CPUPlace(), "cpu"),
]  # fmt: skip


@NO_GPU
@pytest.mark.parametrize("device,want", SPEC_CASES)
def test_device_specs_without_gpu(device, want):
    assert D._spec(device) == want
    assert D.device_to_place(device) == paddle.CPUPlace()


def test_exit_waits_for_the_device_work_still_running(monkeypatch):
    """``place.wait_for_device_work`` (an exit hook): blocks until every live array is
    computed (JAX dispatches asynchronously); a forked child returns at once."""
    import jax.numpy as jnp

    from paddle_compat._core import place

    a = jnp.ones([256, 256])
    y = (a @ a) @ a  # dispatched, maybe still running
    place.wait_for_device_work()
    assert y.is_ready()
    monkeypatch.setattr(place, "_PID", -1)  # as in a forked child: nothing of its own to wait for
    place.wait_for_device_work()

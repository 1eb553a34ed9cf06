"""paddle.device on a CPU-only machine (Paddle 3.3.1's CPU build; paddle-compat where JAX
sees no GPU): what is there, device selection and its errors, the device context, Device
names, the random state round trip with paddle.get_rng_state, and the errors of the
GPU-only calls (goldens from real Paddle)."""

from _util import expect_error

import paddle

D = paddle.device


def case_what_is_there():
    names = [
        "get_cudnn_version", "is_compiled_with_xpu", "is_compiled_with_ipu",
        "is_compiled_with_cinn", "is_compiled_with_cuda", "is_compiled_with_rocm",
        "is_compiled_with_distribute", "get_all_device_type", "get_all_custom_device_type",
        "get_available_device", "get_available_custom_device", "device_count", "is_available",
        "is_current_stream_capturing", "is_bf16_supported", "current_device", "get_device",
    ]  # fmt: skip
    out = {n: getattr(D, n)() for n in names}
    out["custom_npu"] = D.is_compiled_with_custom_device("npu")
    out["bf16_no_emulation"] = D.is_bf16_supported(False)
    out["default"] = [str(D.get_default_device()), type(D.get_default_device()).__name__]
    out["cuda.device_count"] = D.cuda.device_count()
    out["cpu.device_count"] = D.cpu.device_count()
    out["xpu.device_count"] = D.xpu.device_count()
    out["module"] = D.get_device_module().__name__.split(".")[-1]
    return out


def case_get_device_of():
    x = paddle.to_tensor([1, 2, 3], place=paddle.CPUPlace())
    return [D.get_device(x), D.get_device(3), D.get_device("cpu"), D.get_device(None)]


def case_set_device():
    out = [repr(D.set_device(d)) for d in ("cpu", "CPU", paddle.CPUPlace(), 0, None)]
    out.append(D.get_device())
    for bad in ("gpu", "gpu:0", "xpu", "foo", "cuda:1"):
        out.append(expect_error(lambda bad=bad: D.set_device(bad)))
    out.append([repr(D.device_to_place(d)) for d in ("cpu", None)])
    out.append(expect_error(lambda: D.device_to_place("gpu:1")))
    D.set_device("cpu")
    return out


def case_device_context():
    out = []
    guard = D.device("cpu")
    with guard as g:
        out.append([D.get_device(), g, repr(guard.place), guard.prev_place_str])
    with D.device(None):
        out.append(D.get_device())
    with D.device_guard("cpu"):
        out.append(D.get_device())
    out.append(D.get_device())
    out.append(expect_error(lambda: D.device("gpu")))
    out.append(expect_error(lambda: D.device_guard("gpu:0")))
    return out


def case_device_names():
    out = []
    for args in (("cpu",), ("gpu", 1), ("gpu:1",), ("gpu:0",)):
        d = D.Device(*args)
        out.append([str(d), d.type, d.index, isinstance(d, str)])
    return out


def case_rng_state_round_trip():
    paddle.seed(7)
    st = D.get_rng_state()
    a = paddle.randn([2, 3])
    D.set_rng_state(st)
    b = paddle.randn([2, 3])
    paddle.set_rng_state(paddle.get_rng_state())
    c = paddle.randn([2])
    paddle.set_rng_state([st])  # a device state restores paddle's generator
    d = paddle.randn([2, 3])
    st2 = paddle.get_rng_state()[0]
    e = paddle.rand([2])
    D.set_rng_state(st2)  # and paddle's state restores the device's
    f = paddle.rand([2])
    D.manual_seed(11)
    g = paddle.rand([2])
    D.manual_seed_all(11)
    h = paddle.rand([2])
    D.cuda.manual_seed(11)
    i = paddle.rand([2])
    return [
        a,
        b,
        c,
        d,
        e,
        f,
        g,
        h,
        i,
        type(st).__name__,
        type(D.cuda.get_rng_state()).__name__,
        expect_error(lambda: D.set_rng_state(paddle.get_rng_state())),
        expect_error(lambda: D.set_rng_state(3)),
        expect_error(lambda: D.manual_seed(-1)),
    ]


def case_gpu_only_calls_on_cpu():
    calls = {
        "max_memory_allocated": lambda: D.max_memory_allocated(),
        "max_memory_reserved": lambda: D.max_memory_reserved(),
        "reset_max_memory_allocated": lambda: D.reset_max_memory_allocated(),
        "reset_max_memory_reserved": lambda: D.reset_max_memory_reserved(),
        "reset_peak_memory_stats": lambda: D.reset_peak_memory_stats(),
        "ipc_collect": lambda: D.ipc_collect(),
        "XPUPlace": lambda: D.XPUPlace(0),
        "IPUPlace": lambda: D.IPUPlace(),
        "cuda.synchronize": lambda: D.cuda.synchronize(),
        "cuda.empty_cache": lambda: D.cuda.empty_cache(),
        "cuda.max_memory_allocated": lambda: D.cuda.max_memory_allocated(),
        "cuda.memory_allocated": lambda: D.cuda.memory_allocated(),
        "cuda.memory_reserved": lambda: D.cuda.memory_reserved(),
        "cuda.get_device_name": lambda: D.cuda.get_device_name(),
        "cuda.get_device_capability": lambda: D.cuda.get_device_capability(),
        "cuda.get_device_properties": lambda: D.cuda.get_device_properties(),
        "cuda.vmm_compact": lambda: D.cuda.vmm_compact(),
        "cuda.Stream": lambda: D.cuda.Stream(),
        "cuda.Event": lambda: D.cuda.Event(),
        "cuda.create_stream": lambda: D.cuda.create_stream(),
        "cuda.create_event": lambda: D.cuda.create_event(),
        "cpu.max_memory_allocated": lambda: D.cpu.max_memory_allocated(),
        "xpu.synchronize": lambda: D.xpu.synchronize(),
        "xpu.empty_cache": lambda: D.xpu.empty_cache(),
        "set_stream(None)": lambda: D.set_stream(None),
    }
    return {k: expect_error(f) for k, f in calls.items()}


def case_stream_guards_accept_none():
    out = []
    for make in (D.stream_guard, D.StreamContext, D.stream):
        with make(None) as g:
            out.append(type(g).__name__)
    return out


def case_namespace():
    return sorted(D.__all__)

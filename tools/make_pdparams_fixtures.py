"""Write the paddle.save fixture files in tests/data/ with REAL Paddle 3.3.1, plus
tests/data/fixtures.json describing what real Paddle's paddle.load returns for each.

    /work/pdvenv/bin/python tools/make_pdparams_fixtures.py          # regenerate fixtures
    /work/pdvenv/bin/python tools/make_pdparams_fixtures.py --check DIR
        # load files that paddle_compat wrote into DIR (tests/test_save_load.py can write them:
        # PADDLE_COMPAT_FIXTURE_OUT=DIR pytest tests/test_save_load.py) with real Paddle and
        # compare with the manifest

The object builders (``OBJECTS``) only use numpy and a ``mk`` function, so tests/test_save_load.py
rebuilds the very same objects under paddle_compat and checks the bytes it writes are identical.
"""

from __future__ import annotations

import collections
import io
import json
import os
import pickle
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"


def _a(shape, seed, dtype="float32"):
    r = np.random.default_rng(seed)
    return (r.standard_normal(shape) * 3).astype(dtype)


# Each builder takes mk(array, name, dtype=None, param=False) -> a named Tensor/Parameter.
def linear(mk):
    return collections.OrderedDict(
        [
            ("weight", mk(_a([2, 3], 0), "linear_0.w_0", param=True)),
            ("bias", mk(_a([3], 1), "linear_0.b_0", param=True)),
        ]
    )


def mixed_dtypes(mk):
    return collections.OrderedDict(
        [
            ("fc.weight", mk(_a([2, 2], 2), "linear_1.w_0", param=True)),
            ("h", mk(_a([3], 3), "h_0", dtype="float16")),
            ("b", mk(_a([3], 4), "b_0", dtype="bfloat16")),
            ("d", mk(_a([2], 5, "float64"), "d_0")),
            ("i64", mk(np.array([1, -2, 3], "int64"), "i64_0")),
            ("i32", mk(np.array([[7, 8]], "int32"), "i32_0")),
            ("flag", mk(np.array([True, False]), "flag_0")),
            ("u8", mk(np.array([0, 255], "uint8"), "u8_0")),
            ("i8", mk(np.array([-5, 5], "int8"), "i8_0")),
            ("c", mk(np.array([1 + 2j, -1j], "complex64"), "c_0")),
            ("scalar", mk(np.array(2.5, "float32"), "scalar_0")),
            ("empty", mk(np.zeros([0, 3], "float32"), "empty_0")),
            ("bn._mean", mk(np.array([0.5, -0.5], "float32"), "batch_norm_0.w_1")),
        ]
    )


def adam(mk):
    sd = {}
    for p, shape in (("linear_0.w_0", [2, 3]), ("linear_0.b_0", [3])):
        sd[f"{p}_moment1_0"] = mk(_a(shape, 10), f"{p}_moment1_0")
    for p, shape in (("linear_0.w_0", [2, 3]), ("linear_0.b_0", [3])):
        sd[f"{p}_moment2_0"] = mk(np.abs(_a(shape, 11)), f"{p}_moment2_0")
    for k in ("beta1", "beta2"):
        for p in ("linear_0.w_0", "linear_0.b_0"):
            v = np.array([0.9 if k == "beta1" else 0.999], "float32")
            sd[f"{p}_{k}_pow_acc_0"] = mk(v, f"{p}_{k}_pow_acc_0")
    sd["LR_Scheduler"] = {"last_epoch": 1, "last_lr": 0.1}
    return sd


def sd_with_cfg(mk):
    return {"w": mk(_a([2], 20), "w_0"), "cfg": {"x": 1, "y": [1, 2], "z": "s"}}


def tensor(mk):
    return mk(_a([2, 2], 30), "x_0")


def tensor_bf16(mk):
    return mk(_a([3], 31), "x_bf16", dtype="bfloat16")


def param(mk):
    return mk(_a([2], 32), "linear_9.w_0", param=True)


def nested(mk):
    return {
        "a": mk(_a([2], 40), "ta"),
        "b": [mk(np.array([1, 2], "int64"), "tb"), {"c": mk(np.array(3.0, "float32"), "tc")}],
        "n": 5,
        "f": 1.5,
        "s": "str",
        "none": None,
        "t": (1, 2),
        "np": np.arange(3),
    }


def nested_tuple(mk):
    return (mk(_a([2], 41), "tt"), 2, ["x", mk(np.array([True]), "tb2")])


def numpy_only(mk):
    return {"x": np.ones(2, "float32"), "y": [np.arange(3), np.array(1.5)], "k": 1}


def scalars(mk):
    return [1, 2.5, "abc", True, None, {"k": "v"}, -(2**40), 1e-300]


def containers(mk):
    return {
        "od": collections.OrderedDict([("b", 1), ("a", 2)]),
        "set": {1, 2},
        "t": (),
        "npf": np.float32(1.5),
        "npi": np.int64(-3),
        "c": 1 + 2j,
    }


def name_tuple(mk):
    return ("manual_name", np.array([1.0, 2.0]))


def empty_state_dict(mk):
    return {}


# name -> (builder, protocol, save configs)
OBJECTS = {
    "linear.pdparams": (linear, 4, {}),
    "linear_p2.pdparams": (linear, 2, {}),
    "linear_p3.pdparams": (linear, 3, {}),
    "mixed_dtypes.pdparams": (mixed_dtypes, 4, {}),
    "adam.pdopt": (adam, 4, {}),
    "adam_p2.pdopt": (adam, 2, {}),
    "sd_with_cfg.pdparams": (sd_with_cfg, 4, {}),
    "tensor.pdtensor": (tensor, 4, {}),
    "tensor_p2.pdtensor": (tensor, 2, {}),
    "tensor_bf16.pdtensor": (tensor_bf16, 4, {}),
    "param.pdtensor": (param, 4, {}),
    "nested.pd": (nested, 4, {}),
    "nested_p2.pd": (nested, 2, {}),
    "nested_p3.pd": (nested, 3, {}),
    "nested_tuple.pd": (nested_tuple, 4, {}),
    "numpy_only.pd": (numpy_only, 4, {}),
    "scalars.pd": (scalars, 4, {}),
    "scalars_p2.pd": (scalars, 2, {}),
    "containers.pd": (containers, 4, {}),
    "containers_p2.pd": (containers, 2, {}),
    "name_tuple.pd": (name_tuple, 4, {}),
    "empty_state_dict.pdparams": (empty_state_dict, 4, {}),
    "binary_f32.pdtensor": (tensor, 4, {"use_binary_format": True}),
    "binary_bf16.pdtensor": (tensor_bf16, 4, {"use_binary_format": True}),
}


def describe(obj):
    """What a loaded object is, as JSON: types, dtypes, shapes, values, and Tensor names that
    came from the file (generated names are left out)."""
    if hasattr(obj, "stop_gradient") and hasattr(obj, "place") and hasattr(obj, "numpy"):
        a = np.asarray(obj.numpy())
        if str(obj.dtype).endswith("bfloat16") and a.dtype == np.uint16:  # Paddle's numpy()
            a = (a.astype(np.uint32) << 16).view(np.float32)
        name = obj.name
        if name.startswith(("generated_tensor", "eager_tmp")):
            name = None
        return {
            "T": str(obj.dtype).replace("paddle.", ""),
            "shape": list(a.shape),
            "data": _flat(a),
            "name": name,
            "stop_gradient": bool(obj.stop_gradient),
        }
    if isinstance(obj, np.ndarray):
        return {"N": str(obj.dtype), "shape": list(obj.shape), "data": _flat(obj)}
    if isinstance(obj, np.generic):
        return {"S": str(obj.dtype), "data": _flat(np.asarray(obj))}
    if isinstance(obj, dict):
        return {
            "dict": type(obj).__name__,
            "items": [[describe(k), describe(v)] for k, v in obj.items()],
        }
    if isinstance(obj, list | tuple):
        return {type(obj).__name__: [describe(v) for v in obj]}
    if isinstance(obj, set):
        return {"set": sorted(repr(v) for v in obj)}
    if isinstance(obj, complex):
        return {"complex": [obj.real, obj.imag]}
    if isinstance(obj, float):
        return {"float": repr(obj)}
    return obj


def _flat(a):
    a = np.asarray(a)
    if a.dtype.kind == "c":
        return [[float(v.real), float(v.imag)] for v in a.reshape(-1)]
    if a.dtype.kind == "f" or a.dtype.kind == "V" or str(a.dtype) == "bfloat16":
        return [repr(float(v)) for v in a.astype(np.float64).reshape(-1)]
    return a.reshape(-1).tolist()


def _real_paddle():
    os.chdir("/")
    sys.path = [p for p in sys.path if Path(p or ".").resolve() != ROOT]
    import paddle

    assert "paddle_compat" not in paddle.__file__, "run this with real Paddle"
    return paddle


def make_mk(paddle):
    def mk(arr, name, dtype=None, param=False):
        if param:
            t = paddle.create_parameter(list(arr.shape), dtype or str(arr.dtype))
            t.set_value(arr)
        else:
            t = paddle.to_tensor(arr, dtype=dtype)
        t.name = name
        return t

    return mk


def load_results(paddle, path):
    out = {}
    for mode in ({}, {"return_numpy": True}, {"keep_name_table": True}):
        key = "+".join(mode) or "default"
        try:
            out[key] = describe(paddle.load(str(path), **mode))
        except Exception as e:  # noqa: BLE001
            out[key] = {"error": type(e).__name__}
    return out


def main(argv):
    paddle = _real_paddle()
    mk = make_mk(paddle)
    if argv[:1] == ["--check"]:
        manifest = json.loads((DATA / "fixtures.json").read_text())
        bad = 0
        for name, entry in manifest["files"].items():
            path = Path(argv[1]) / name
            if not path.exists():
                continue
            got = load_results(paddle, path)
            status = "ok" if got == entry["load"] else "DIFFERS"
            bad += status != "ok"
            print(f"{name}: {status}")
        return 1 if bad else 0

    DATA.mkdir(parents=True, exist_ok=True)
    manifest = {"_paddle_version": paddle.__version__, "files": {}}
    for name, (builder, protocol, configs) in OBJECTS.items():
        path = DATA / name
        if path.exists():
            path.unlink()
        paddle.save(builder(mk), str(path), protocol=protocol, **configs)
        manifest["files"][name] = {
            "protocol": protocol,
            "configs": configs,
            "load": load_results(paddle, path),
        }

    # Made by real Layers/optimizers (loaded and described, not rebuilt byte for byte).
    paddle.seed(7)
    lin = paddle.nn.Sequential(paddle.nn.Linear(2, 3), paddle.nn.BatchNorm1D(3))
    lin[0].weight.set_value(_a([2, 3], 50))
    sched = paddle.optimizer.lr.StepDecay(0.1, step_size=2)
    opt = paddle.optimizer.Adam(learning_rate=sched, parameters=lin.parameters())
    lin(paddle.to_tensor(_a([4, 2], 51))).sum().backward()
    opt.step()
    sched.step()
    extra = {"real_model.pdparams": lin.state_dict(), "real_adam.pdopt": opt.state_dict()}
    for name, obj in extra.items():
        paddle.save(obj, str(DATA / name))
        manifest["files"][name] = {
            "protocol": 4,
            "configs": {},
            "rebuild": False,
            "load": load_results(paddle, DATA / name),
        }
    # A Tensor pickled with plain pickle (Paddle's Tensor.__reduce_ex__), read by paddle.load.
    t = paddle.to_tensor(_a([2], 52), stop_gradient=False)
    buf = io.BytesIO()
    pickle.dump({"t": t, "p": lin[0].bias}, buf, protocol=4)
    (DATA / "plain_pickle.pkl").write_bytes(buf.getvalue())
    manifest["files"]["plain_pickle.pkl"] = {
        "protocol": 4,
        "configs": {},
        "rebuild": False,
        "load": load_results(paddle, DATA / "plain_pickle.pkl"),
    }

    (DATA / "fixtures.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(manifest['files'])} fixtures to {DATA.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

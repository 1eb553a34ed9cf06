"""paddle.distributed's parameter-server datasets and DistAttr, here and under real Paddle.

- ``InMemoryDataset.load_into_memory`` of a MultiSlot text file (4 int64 slots, 1-3 values
  each): Paddle parses in C++ (one reader thread here); ours is a pure-Python parser.
- ``InMemoryDataset.local_shuffle`` of the loaded instances.
- ``DistAttr(mesh, specs)`` construction and ``str()``.

    .venv/bin/python benchmarks/bench_distributed_api.py [lines]
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def _write(path: str, lines: int) -> None:
    import random

    rng = random.Random(0)
    with open(path, "w") as f:
        for _ in range(lines):
            parts = []
            for _ in range(4):
                n = rng.randint(1, 3)
                parts.append(" ".join([str(n)] + [str(rng.randint(0, 10**9)) for _ in range(n)]))
            f.write(" ".join(parts) + "\n")


def measure(lines: int) -> dict:
    import paddle.distributed as dist

    import paddle

    paddle.enable_static()
    slots = [
        paddle.static.data(name=f"s{i}", shape=[None, 1], dtype="int64", lod_level=1)
        for i in range(4)
    ]
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "part-0")
        _write(path, lines)
        best = float("inf")
        for _ in range(3):  # a fresh dataset each time: Paddle's second load reads nothing
            ds = dist.InMemoryDataset()
            ds.init(batch_size=32, thread_num=1, use_var=slots)
            ds.set_filelist([path])
            t0 = time.perf_counter()
            ds.load_into_memory()
            best = min(best, time.perf_counter() - t0)
        assert int(ds.get_memory_data_size()) == lines
        out["load_ms"] = best * 1e3
        t0 = time.perf_counter()
        ds.local_shuffle()
        out["shuffle_ms"] = (time.perf_counter() - t0) * 1e3
    paddle.disable_static()
    from _timing import best_us

    mesh = dist.ProcessMesh([[0, 1, 2, 3], [4, 5, 6, 7]], dim_names=["dp", "mp"])
    out["dist_attr_us"] = best_us(lambda: dist.DistAttr(mesh, ["dp", None, "mp"]), n=200)
    a = dist.DistAttr(mesh, ["dp", None, "mp"])
    out["dist_attr_str_us"] = best_us(lambda: str(a), n=200)
    return out


def main() -> None:
    if "--inner" in sys.argv:
        lines = int(sys.argv[sys.argv.index("--inner") + 1])
        print(json.dumps(measure(lines)))
        return
    lines = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    from _timing import paddle_side

    ours = measure(lines)
    theirs = paddle_side(__file__, str(lines))
    print(f"{'':28s} {'ours':>10s} {'paddle':>10s} {'ratio':>7s}")
    for key, unit in (
        ("load_ms", f"load_into_memory {lines} lines (ms)"),
        ("shuffle_ms", "local_shuffle (ms)"),
        ("dist_attr_us", "DistAttr() (us)"),
        ("dist_attr_str_us", "str(DistAttr) (us)"),
    ):
        p = theirs.get(key)
        ratio = f"{ours[key] / p:6.2f}x" if p else "  n/a"
        p_text = f"{p:10.1f}" if p else f"{'n/a':>10s}"
        print(f"{unit:28s} {ours[key]:10.1f} {p_text} {ratio}")


if __name__ == "__main__":
    main()

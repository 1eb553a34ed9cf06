import gc
import os
import sys

# An 8-device CPU mesh for distributed tests; must be set before jax is imported.
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

# A test worker compiles thousands of programs. Each live XLA:CPU executable takes about three
# memory mappings, and Linux stops a process at vm.max_map_count (65530 by default) with a
# segfault inside XLA, so past MAX_MAPS a worker drops JAX's compiled-program caches and the
# segment store's (what is used again is read back from disk).
MAX_MAPS, CHECK_EVERY = 45000, 20
_tests_since_check = 0


def _memory_maps() -> int | None:
    try:
        with open("/proc/self/maps", "rb") as f:
            return sum(1 for _ in f)
    except OSError:  # not Linux
        return None


def pytest_runtest_teardown(item, nextitem):
    global _tests_since_check
    _tests_since_check += 1
    if _tests_since_check < CHECK_EVERY:
        return
    _tests_since_check = 0
    maps = _memory_maps()
    jax = sys.modules.get("jax")
    if maps is not None and maps > MAX_MAPS and jax is not None:
        jax.clear_caches()
        store = sys.modules.get("paddle_compat._core.segment_store")
        if store is not None:  # eager kernels' programs, held outside JAX's caches
            store.drop_tables()
        gc.collect()

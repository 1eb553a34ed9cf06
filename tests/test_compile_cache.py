"""The persistent compilation cache is on by default and follows PADDLE_COMPAT_CACHE_DIR."""

from __future__ import annotations

import jax
import pytest

from paddle_compat._core import compile_cache


@pytest.fixture
def restore_jax_cache():
    keys = (
        "jax_compilation_cache_dir",
        "jax_persistent_cache_min_compile_time_secs",
        "jax_persistent_cache_min_entry_size_bytes",
    )
    saved = {k: getattr(jax.config, k) for k in keys}
    yield
    for k, v in saved.items():
        jax.config.update(k, v)


@pytest.mark.parametrize("value", ["0", "off", "", "false"])
def test_env_switches_it_off(monkeypatch, restore_jax_cache, value):
    monkeypatch.setenv(compile_cache.ENV, value)
    assert compile_cache.configure() is None


def test_env_moves_it(monkeypatch, restore_jax_cache, tmp_path):
    monkeypatch.setenv(compile_cache.ENV, str(tmp_path / "xla"))
    assert compile_cache.configure() == str(tmp_path / "xla")
    assert jax.config.jax_compilation_cache_dir == str(tmp_path / "xla")
    assert jax.config.jax_persistent_cache_min_compile_time_secs == 0.0
    assert (tmp_path / "xla").is_dir()


def test_default_dir_and_users_own_jax_setting(monkeypatch, restore_jax_cache, tmp_path):
    monkeypatch.delenv(compile_cache.ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    jax.config.update("jax_compilation_cache_dir", None)
    monkeypatch.delenv("JAX_COMPILATION_CACHE_DIR", raising=False)
    assert compile_cache.configure() == str(tmp_path / "paddle_compat" / "xla")
    jax.config.update("jax_compilation_cache_dir", str(tmp_path / "mine"))
    assert compile_cache.configure() is None  # a cache the user set up is left alone
    assert jax.config.jax_compilation_cache_dir == str(tmp_path / "mine")

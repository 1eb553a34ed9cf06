"""paddle.reader's multiprocess reader, the legacy paddle.dataset readers' no-download errors and
local files, and paddle.hub's cache-only sources (beyond tests/cases/reader_dataset_hub.py)."""

from __future__ import annotations

import io
import os
import tarfile
import time
import zipfile

import numpy as np
import paddle.dataset as D
import paddle.reader as R
import pytest

import paddle


def _reader(values):
    return lambda: iter(values)


# JAX warns on any fork; the readers run plain Python in the children
pytestmark = pytest.mark.filterwarnings("ignore:os.fork:RuntimeWarning")


@pytest.mark.parametrize("use_pipe", [True, False])
def test_multiprocess_reader_merges_forked_readers(use_pipe):
    readers = [_reader([(i, "a")] * 3) for i in range(3)]
    out = list(R.multiprocess_reader(readers, use_pipe=use_pipe, queue_size=4)())
    # JSON through pipes turns tuples into lists; the queue pickles them
    expected = [[i, "a"] if use_pipe else (i, "a") for i in range(3) for _ in range(3)]
    assert sorted(out) == sorted(expected)


@pytest.mark.parametrize("use_pipe", [True, False])
def test_multiprocess_reader_refuses_none_samples(use_pipe, capfd):
    with pytest.raises(ValueError, match="multiprocess_reader failed"):
        list(R.multiprocess_reader([_reader([1, None])], use_pipe=use_pipe)())
    capfd.readouterr()  # the child's traceback


def test_multiprocess_reader_needs_a_list():
    with pytest.raises(AssertionError, match="list or tuple"):
        R.multiprocess_reader(_reader([1]))


def test_xmap_order_survives_uneven_work():
    def slow(x):
        time.sleep(0.002 * (x % 3))
        return x

    assert list(R.xmap_readers(slow, _reader(range(24)), 4, 2, order=True)()) == list(range(24))


@pytest.fixture
def data_home(tmp_path, monkeypatch):
    monkeypatch.setattr(D.common, "DATA_HOME", str(tmp_path))
    return tmp_path


@pytest.mark.parametrize(
    "call",
    [
        lambda: D.mnist.train(),
        lambda: D.mnist.fetch(),
        lambda: D.cifar.train10(),
        lambda: D.cifar.test100(),
        lambda: D.uci_housing.train(),
        lambda: D.imdb.word_dict(),
        lambda: D.imikolov.build_dict(),
        lambda: D.voc2012.val(),
        lambda: D.flowers.train(),
    ],
)
@pytest.mark.filterwarnings("ignore::UserWarning")  # Paddle's deprecation notices
def test_legacy_readers_never_download(data_home, call):
    with pytest.raises(RuntimeError, match="does not download"):
        call()


def test_download_errors_name_the_file(data_home):
    (data_home / "m").mkdir()
    (data_home / "m" / "f.bin").write_bytes(b"abc")
    with pytest.raises(RuntimeError, match=r"f\.bin has md5 900150983cd24fb0d6963f7d28e17f72"):
        D.common.download("http://x.org/f.bin", "m", "0" * 32)
    assert D.common.download("http://x.org/f.bin", "m", D.common.md5file(data_home / "m" / "f.bin"))
    with pytest.raises(AttributeError, match="module_name"):
        D.common.download("http://x.org/f.bin", "../up", "0")


def _png(array) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(array).save(buf, format="PNG")
    return buf.getvalue()


def test_voc2012_reader_on_a_local_tarball(tmp_path):
    image = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3)
    label = np.array([[0, 1, 2], [3, 4, 255]], np.uint8)
    members = {
        D.voc2012.SET_FILE.format("val"): b"img1\n",
        D.voc2012.DATA_FILE.format("img1"): _png(image),
        D.voc2012.LABEL_FILE.format("img1"): _png(label),
    }
    path = tmp_path / "voc.tar"
    with tarfile.open(path, "w") as tf:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    ((got_image, got_label),) = list(D.voc2012.reader_creator(str(path), "val")())
    np.testing.assert_array_equal(got_image, image)
    np.testing.assert_array_equal(got_label, label)


@pytest.mark.parametrize("source", ["github", "gitee"])
def test_hub_remote_sources_use_only_the_cache(tmp_path, monkeypatch, source):
    import paddle.hub as hub

    monkeypatch.setattr(hub, "HUB_DIR", str(tmp_path))
    with pytest.raises(RuntimeError, match="does not download"):
        hub.list("owner/repo", source=source)
    branch = "main" if source == "github" else "master"
    cached = tmp_path / f"owner_repo_{branch}"
    cached.mkdir()
    (cached / "hubconf.py").write_text("def model():\n    'doc'\n    return 7\n")
    assert hub.list("owner/repo", source=source) == ["model"]
    assert hub.load("owner/repo:" + branch, "model", source=source) == 7
    with pytest.raises(RuntimeError, match="force_reload"):
        hub.help("owner/repo", "model", source=source, force_reload=True)


def test_load_state_dict_from_url_reads_the_cache_only(tmp_path):
    import paddle.hub as hub

    with pytest.raises(RuntimeError, match="does not download"):
        hub.load_state_dict_from_url("https://x.org/w.pdparams", model_dir=str(tmp_path))
    paddle.save({"b": paddle.to_tensor([1.0, 2.0])}, str(tmp_path / "inner.pdparams"))
    with zipfile.ZipFile(tmp_path / "w.zip", "w") as z:  # Paddle's legacy one-file zip
        z.write(tmp_path / "inner.pdparams", "inner.pdparams")
    os.remove(tmp_path / "inner.pdparams")
    sd = hub.load_state_dict_from_url("https://x.org/a/w.zip", model_dir=str(tmp_path))
    np.testing.assert_array_equal(sd["b"].numpy(), [1.0, 2.0])
    sd = hub.load_state_dict_from_url("https://x.org/a/w.zip", str(tmp_path), map_location="cpu")
    assert sd["b"].place.is_cpu_place()

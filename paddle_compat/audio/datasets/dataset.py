"""The base of ``paddle.audio.datasets``: labelled audio files, returned raw or as features."""

from __future__ import annotations

import os
import zipfile

import paddle_compat as paddle

from ...io import Dataset
from ..features import MFCC, LogMelSpectrogram, MelSpectrogram, Spectrogram

feat_funcs = {
    "raw": None,
    "melspectrogram": MelSpectrogram,
    "mfcc": MFCC,
    "logmelspectrogram": LogMelSpectrogram,
    "spectrogram": Spectrogram,
}


def _extract_local_archive(archive: dict, root: str) -> None:
    """Unpack a dataset's zip archive found in ``root`` (Paddle's cache). paddle-compat never
    downloads: ``paddle.utils.download`` raises a RuntimeError naming the file to fetch when
    the archive is not there (or its md5 differs)."""
    from ...utils import download

    path = download.get_path_from_url(archive["url"], root, archive["md5"], decompress=True)
    with zipfile.ZipFile(path) as zf:
        zf.extractall(os.path.dirname(path))


class AudioClassificationDataset(Dataset):
    """Audio files with integer labels; items are ``(feature, label)`` where the feature is the
    waveform (``feat_type='raw'``) or one of ``paddle.audio.features`` configured by the extra
    keyword arguments."""

    def __init__(
        self,
        files: list[str],
        labels: list[int],
        feat_type: str = "raw",
        sample_rate: int | None = None,
        **kwargs,
    ):
        super().__init__()
        if feat_type not in feat_funcs:
            raise RuntimeError(
                f"Unknown feat_type: {feat_type}, it must be one in {list(feat_funcs.keys())}"
            )
        self.files = files
        self.labels = labels
        self.feat_type = feat_type
        self.sample_rate = sample_rate
        self.feat_config = kwargs

    def _get_data(self, input_file: str):
        raise NotImplementedError

    def _convert_to_record(self, idx):
        waveform, self.sample_rate = paddle.audio.load(self.files[idx])
        if len(waveform.shape) == 2:
            waveform = waveform.squeeze(0)
        waveform = paddle.to_tensor(waveform, dtype=paddle.float32)
        feat_func = feat_funcs[self.feat_type]
        if feat_func is None:
            feat = waveform
        else:
            config = dict(self.feat_config)
            if self.feat_type != "spectrogram":
                config["sr"] = self.sample_rate
            feat = feat_func(**config)(waveform.unsqueeze(0)).squeeze(0)
        return {"feat": feat, "label": self.labels[idx]}

    def __getitem__(self, idx):
        record = self._convert_to_record(idx)
        return record["feat"], record["label"]

    def __len__(self):
        return len(self.files)

"""``paddle.audio.datasets.TESS``: the Toronto emotional speech set, read from Paddle's cache
(``paddle.dataset.common.DATA_HOME``); never downloaded."""

from __future__ import annotations

import os
from typing import NamedTuple

from ...dataset.common import DATA_HOME
from .dataset import AudioClassificationDataset, _extract_local_archive

__all__ = []


class TESS(AudioClassificationDataset):
    """TESS: ``<speaker>_<word>_<emotion>.wav`` files in 7 emotion classes, assigned to
    ``n_folds`` folds in the order ``os.walk`` lists them; ``mode='train'`` takes the folds other
    than ``split``. The files are read from ``DATA_HOME/TESS_Toronto_emotional_speech_set``."""

    archive = {
        "url": "https://bj.bcebos.com/paddleaudio/datasets/TESS_Toronto_emotional_speech_set.zip",
        "md5": "1465311b24d1de704c4c63e4ccc470c7",
    }
    label_list = ["angry", "disgust", "fear", "happy", "neutral", "ps", "sad"]
    audio_path = "TESS_Toronto_emotional_speech_set"

    class meta_info(NamedTuple):
        speaker: str
        word: str
        emotion: str

    def __init__(self, mode="train", n_folds=5, split=1, feat_type="raw", archive=None, **kwargs):
        assert isinstance(n_folds, int) and (n_folds >= 1), (
            f"the n_folds should be integer and n_folds >= 1, but got {n_folds}"
        )
        assert split in range(1, n_folds + 1), (
            f"The selected split should be integer and should be 1 <= split <= {n_folds}, "
            f"but got {split}"
        )
        if archive is not None:
            self.archive = archive
        files, labels = self._get_data(mode, n_folds, split)
        super().__init__(files=files, labels=labels, feat_type=feat_type, **kwargs)

    def _get_meta_info(self, files):
        return [self.meta_info(*os.path.basename(f)[:-4].split("_")) for f in files]

    def _get_data(self, mode, n_folds, split):
        root = os.path.join(DATA_HOME, self.audio_path)
        if not os.path.isdir(root):
            _extract_local_archive(self.archive, DATA_HOME)
        wav_files = [
            os.path.join(d, name)
            for d, _, names in os.walk(root)
            for name in names
            if name.endswith(".wav")
        ]
        files, labels = [], []
        for idx, sample in enumerate(self._get_meta_info(wav_files)):
            target = self.label_list.index(sample.emotion)
            in_split = idx % n_folds + 1 == split
            if in_split != (mode == "train"):
                files.append(wav_files[idx])
                labels.append(target)
        return files, labels

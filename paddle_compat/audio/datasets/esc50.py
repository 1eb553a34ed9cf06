"""``paddle.audio.datasets.ESC50``: the ESC-50 environmental sound classification set, read from
Paddle's cache (``paddle.dataset.common.DATA_HOME``); never downloaded."""

from __future__ import annotations

import os
from typing import NamedTuple

from ...dataset.common import DATA_HOME
from .dataset import AudioClassificationDataset, _extract_local_archive

__all__ = []


class ESC50(AudioClassificationDataset):
    """ESC-50: 2000 five-second clips in 50 classes and 5 folds; ``mode='train'`` takes the
    folds other than ``split``, any other mode takes fold ``split``. The files are read from
    ``DATA_HOME/ESC-50-master`` (or its zip archive there)."""

    archive = {
        "url": "https://paddleaudio.bj.bcebos.com/datasets/ESC-50-master.zip",
        "md5": "7771e4b9d86d0945acce719c7a59305a",
    }
    # fmt: off
    label_list = [
        # Animals
        "Dog", "Rooster", "Pig", "Cow", "Frog", "Cat", "Hen", "Insects (flying)", "Sheep",
        "Crow",
        # Natural soundscapes & water sounds
        "Rain", "Sea waves", "Crackling fire", "Crickets", "Chirping birds", "Water drops",
        "Wind", "Pouring water", "Toilet flush", "Thunderstorm",
        # Human, non-speech sounds
        "Crying baby", "Sneezing", "Clapping", "Breathing", "Coughing", "Footsteps",
        "Laughing", "Brushing teeth", "Snoring", "Drinking, sipping",
        # Interior/domestic sounds
        "Door knock", "Mouse click", "Keyboard typing", "Door, wood creaks", "Can opening",
        "Washing machine", "Vacuum cleaner", "Clock alarm", "Clock tick", "Glass breaking",
        # Exterior/urban noises
        "Helicopter", "Chainsaw", "Siren", "Car horn", "Engine", "Train", "Church bells",
        "Airplane", "Fireworks", "Hand saw",
    ]
    # fmt: on
    meta = os.path.join("ESC-50-master", "meta", "esc50.csv")
    audio_path = os.path.join("ESC-50-master", "audio")

    class meta_info(NamedTuple):
        filename: str
        fold: str
        target: str
        category: str
        esc10: str
        src_file: str
        take: str

    def __init__(self, mode="train", split=1, feat_type="raw", archive=None, **kwargs):
        assert split in range(1, 6), (
            f"The selected split should be integer, and 1 <= split <= 5, but got {split}"
        )
        if archive is not None:
            self.archive = archive
        files, labels = self._get_data(mode, split)
        super().__init__(files=files, labels=labels, feat_type=feat_type, **kwargs)

    def _get_meta_info(self):
        with open(os.path.join(DATA_HOME, self.meta)) as f:
            return [self.meta_info(*line.strip().split(",")) for line in f.readlines()[1:]]

    def _get_data(self, mode, split):
        audio_dir = os.path.join(DATA_HOME, self.audio_path)
        if not os.path.isdir(audio_dir) or not os.path.isfile(os.path.join(DATA_HOME, self.meta)):
            _extract_local_archive(self.archive, DATA_HOME)
        files, labels = [], []
        for sample in self._get_meta_info():
            in_split = int(sample.fold) == split
            if in_split != (mode == "train"):
                files.append(os.path.join(audio_dir, sample.filename))
                labels.append(int(sample.target))
        return files, labels

"""UCI Housing: 13 normalized features and the median house value, from ``housing.data``
(whitespace-separated numbers, 14 per row); the first 80% of rows are 'train'."""

from __future__ import annotations

import numpy as np

from ...io import Dataset
from ...vision.datasets._local import default_dtype, local_file

__all__: list[str] = []

URL = "http://paddlemodels.bj.bcebos.com/uci_housing/housing.data"
MD5 = "d4accdce7a25600298819f8e28e8d593"
feature_names = [
    "CRIM",
    "ZN",
    "INDUS",
    "CHAS",
    "NOX",
    "RM",
    "AGE",
    "DIS",
    "RAD",
    "TAX",
    "PTRATIO",
    "B",
    "LSTAT",
]


class UCIHousing(Dataset):
    """UCI housing regression data: items are (features [13], target [1]) in the default float
    dtype; features are centred on their mean and divided by their range (over all rows)."""

    def __init__(
        self, data_file: str | None = None, mode: str = "train", download: bool = True
    ) -> None:
        assert mode.lower() in ("train", "test"), (
            f"mode should be 'train' or 'test', but got {mode}"
        )
        self.mode = mode.lower()
        self.data_file = local_file(data_file, URL, MD5, "uci_housing", download, "data_file")
        self._load_data()
        self.dtype = default_dtype()

    def _load_data(self, feature_num: int = 14, ratio: float = 0.8) -> None:
        data = np.fromfile(self.data_file, sep=" ")
        data = data.reshape(data.shape[0] // feature_num, feature_num)
        top, bottom = data.max(axis=0), data.min(axis=0)
        mean = data.sum(axis=0) / data.shape[0]
        for i in range(feature_num - 1):
            data[:, i] = (data[:, i] - mean[i]) / (top[i] - bottom[i])
        split = int(data.shape[0] * ratio)
        self.data = data[:split] if self.mode == "train" else data[split:]

    def __getitem__(self, idx: int):
        row = self.data[idx]
        return np.array(row[:-1]).astype(self.dtype), np.array(row[-1:]).astype(self.dtype)

    def __len__(self) -> int:
        return len(self.data)

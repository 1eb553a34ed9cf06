"""MovieLens 1M (``ml-1m.zip``): user features, movie features and the rating of every rating
line, split into train/test by numpy's global random stream (as Paddle does)."""

from __future__ import annotations

import re
import zipfile

import numpy as np

from ...io import Dataset
from ...vision.datasets._local import local_file

__all__: list[str] = []

age_table = [1, 18, 25, 35, 45, 50, 56]

URL = "https://dataset.bj.bcebos.com/movielens%2Fml-1m.zip"
MD5 = "c4d9eecfca2ab87c1945afe126590906"

_TITLE_YEAR = re.compile(r"^(.*)\((\d+)\)$")


class MovieInfo:
    """A movie's id, categories and title (without its year)."""

    def __init__(self, index: str, categories: list[str], title: str) -> None:
        self.index = int(index)
        self.categories = categories
        self.title = title

    def value(self, categories_dict, movie_title_dict):
        """[[id], category ids, title word ids]."""
        return [
            [self.index],
            [categories_dict[c] for c in self.categories],
            [movie_title_dict[w.lower()] for w in self.title.split()],
        ]

    def __str__(self) -> str:
        return f"<MovieInfo id({self.index}), title({self.title}), categories({self.categories})>"

    __repr__ = __str__


class UserInfo:
    """A user's id, gender, age bucket (index into ``age_table``) and job id."""

    def __init__(self, index: str, gender: str, age: str, job_id: str) -> None:
        self.index = int(index)
        self.is_male = gender == "M"
        self.age = age_table.index(int(age))
        self.job_id = int(job_id)

    def value(self):
        """[[id], [0 male / 1 female], [age bucket], [job id]]."""
        return [[self.index], [0 if self.is_male else 1], [self.age], [self.job_id]]

    def __str__(self) -> str:
        gender = "M" if self.is_male else "F"
        return (
            f"<UserInfo id({self.index}), gender({gender}), age({age_table[self.age]}), "
            f"job({self.job_id})>"
        )

    __repr__ = __str__


def _lines(package: zipfile.ZipFile, name: str):
    with package.open(name) as f:
        for line in f:
            yield line.decode(encoding="latin").strip().split("::")


class Movielens(Dataset):
    """MovieLens 1M ratings (``mode`` 'train' or 'test'): items are 8 int64 arrays ([user id],
    [gender], [age bucket], [job], [movie id], category ids, title word ids) and the float64
    [rating * 2 - 5]. ``np.random.seed(rand_seed)`` then one ``np.random.random()`` per rating
    line picks the test lines (< ``test_ratio``). Category and title-word ids follow Python's
    set order, which changes with the string hash seed (as in Paddle)."""

    def __init__(
        self,
        data_file: str | None = None,
        mode: str = "train",
        test_ratio: float = 0.1,
        rand_seed: int = 0,
        download: bool = True,
    ) -> None:
        assert mode.lower() in ("train", "test"), f"mode should be 'train', 'test', but got {mode}"
        self.mode = mode.lower()
        self.data_file = local_file(data_file, URL, MD5, "sentiment", download, "data_file")
        self.test_ratio = test_ratio
        self.rand_seed = rand_seed
        np.random.seed(rand_seed)
        self._load_meta_info()
        self._load_data()

    def _load_meta_info(self) -> None:
        self.movie_info, self.user_info = {}, {}
        title_words, categories = set(), set()
        with zipfile.ZipFile(self.data_file) as package:
            for movie_id, title, cats in _lines(package, "ml-1m/movies.dat"):
                cats = cats.split("|")
                categories.update(cats)
                title = _TITLE_YEAR.match(title).group(1)
                self.movie_info[int(movie_id)] = MovieInfo(movie_id, cats, title)
                title_words.update(w.lower() for w in title.split())
            for uid, gender, age, job, _ in _lines(package, "ml-1m/users.dat"):
                self.user_info[int(uid)] = UserInfo(uid, gender, age, job)
        self.movie_title_dict = {w: i for i, w in enumerate(title_words)}
        self.categories_dict = {c: i for i, c in enumerate(categories)}

    def _load_data(self) -> None:
        self.data = []
        is_test = self.mode == "test"
        with zipfile.ZipFile(self.data_file) as package:
            for fields in _lines(package, "ml-1m/ratings.dat"):
                if (np.random.random() < self.test_ratio) != is_test:
                    continue
                uid, movie_id, rating, _ = fields
                movie = self.movie_info[int(movie_id)]
                user = self.user_info[int(uid)]
                self.data.append(
                    user.value()
                    + movie.value(self.categories_dict, self.movie_title_dict)
                    + [[float(rating) * 2 - 5.0]]
                )

    def __getitem__(self, idx: int):
        return tuple(np.array(d) for d in self.data[idx])

    def __len__(self) -> int:
        return len(self.data)

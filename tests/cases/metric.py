"""paddle.metric: Accuracy / Precision / Recall / Auc running counts, their names and errors, and
the accuracy op (goldens from real Paddle)."""

import numpy as np
import paddle.metric as M
from _util import expect_error

import paddle

SCORES = np.array([[0.1, 0.9, 0.0], [0.8, 0.2, 0.0], [0.3, 0.3, 0.4], [0.5, 0.5, 0.0]], "float32")
LABELS = np.array([[1], [1], [0], [1]], "int64")
BAD_PREDS, BAD_LABELS = ([0.1], np.array([1])), (np.array([0.1]), [1])  # lists are refused
EDGES = np.array([0.5, 0.49999, 0.50001, 1.5, -0.5, 0.9, 0.2, 1.0])  # rounding edges


def case_accuracy_op():
    x, y = paddle.to_tensor(SCORES), paddle.to_tensor(LABELS)
    correct, total = paddle.zeros([1], "int32"), paddle.zeros([1], "int32")
    out = {f"k{k}": M.accuracy(x, y, k=k) for k in (1, 2, 3)}
    out["k_too_big"] = expect_error(lambda: M.accuracy(x, y, k=4))
    out["k0"] = expect_error(lambda: M.accuracy(x, y, k=0))
    out["counts"] = [M.accuracy(x, y, correct=correct, total=total), correct, total]
    out["f64"] = M.accuracy(paddle.to_tensor(SCORES.astype("float64")), y)
    out["label_1d"] = expect_error(lambda: M.accuracy(x, paddle.to_tensor(LABELS[:, 0])))
    bad = {
        "label_2_cols": (x, paddle.to_tensor(np.concatenate([LABELS, LABELS], 1))),
        "rows_differ": (x, paddle.to_tensor(LABELS[:1])),
        "float_label": (x, paddle.to_tensor(LABELS.astype("float32"))),
        "rank3_input": (x.unsqueeze(0), y),
    }
    out.update({k: expect_error(lambda a=a: M.accuracy(*a)) for k, a in bad.items()})
    empty = paddle.to_tensor(np.zeros((0, 3), "float32"))
    out["empty"] = M.accuracy(empty, paddle.to_tensor(np.zeros((0, 1), "int64")))
    return out


def case_accuracy_metric():
    x = paddle.to_tensor(SCORES)
    acc = M.Accuracy(topk=(1, 2))
    out = {"name": acc.name(), "empty": acc.accumulate()}
    labels = [LABELS, LABELS[:, 0], np.eye(3, dtype="float32")[LABELS[:, 0]]]
    out["compute"] = [acc.compute(x, paddle.to_tensor(lab)) for lab in labels]
    out["update"] = [acc.update(c) for c in out["compute"][:2]]
    out["update_np"] = acc.update(np.array([[1.0, 0.0], [0.0, 0.0]]))
    out["accumulate"] = acc.accumulate()
    out["counts"] = [acc.total, acc.count]
    acc.reset()
    out["reset"] = [acc.accumulate(), acc.total, acc.count]
    top1 = M.Accuracy()
    out["top1"] = [top1.update(top1.compute(x, paddle.to_tensor(LABELS))), top1.accumulate()]
    out["clipped_k"] = M.Accuracy(topk=(1, 5)).compute(x, paddle.to_tensor(LABELS))
    out["names"] = [M.Accuracy(name="my").name(), M.Accuracy((1, 3), "my").name()]
    out["names"].append(M.Accuracy(topk=[2]).name())
    return out


def case_precision_recall():
    out = {}
    for cls in (M.Precision, M.Recall):
        m = cls()
        out[cls.__name__] = {"name": m.name(), "empty": m.accumulate()}
        m.update(EDGES, np.ones(len(EDGES), "int64"))
        m.update(paddle.to_tensor([[0.7], [0.2], [0.9]]), paddle.to_tensor([[1], [0], [2]]))
        out[cls.__name__]["value"] = m.accumulate()
        out[cls.__name__]["counts"] = {k: v for k, v in vars(m).items() if k != "_name"}
        m.reset()
        out[cls.__name__]["reset"] = m.accumulate()
        out[cls.__name__]["bad_preds"] = expect_error(lambda c=cls: c().update(*BAD_PREDS))
        out[cls.__name__]["bad_labels"] = expect_error(lambda c=cls: c().update(*BAD_LABELS))
    for cls in (M.Precision, M.Recall):  # more predictions than labels: the first ones count
        m = cls()
        m.update(np.array([[0.9], [0.2], [0.9]]), np.array([[1], [1]]))
        out[f"{cls.__name__}_first_rows"] = m.accumulate()
        out[f"{cls.__name__}_fewer_preds"] = expect_error(
            lambda c=cls: c().update(np.array([0.9]), np.array([1, 1]))
        )
    out["named"] = [M.Precision(name="p2").name(), M.Recall(name="r2").name()]
    return out


def case_auc():
    rng = np.random.default_rng(0)
    p1 = rng.random(200)
    preds = np.stack([1 - p1, p1], axis=1)
    labels = (rng.random(200) < p1).astype("int64").reshape(-1, 1)
    out = {}
    for n in (4095, 10):
        m = M.Auc(num_thresholds=n)
        m.update(preds, labels)
        m.update(paddle.to_tensor(preds[:50]), paddle.to_tensor(labels[:50, 0]))
        out[f"t{n}"] = m.accumulate()
    small = M.Auc(num_thresholds=10)
    small.update(np.array([[0.9, 0.1], [0.3, 0.7], [0.4, 0.6], [0.8, 0.2], [0, 1.0]]),
                 np.array([[0], [1], [2], [0], [1]]))  # fmt: skip
    out["stats"] = [small._stat_pos, small._stat_neg, small.accumulate()]
    one_class = M.Auc()
    one_class.update(np.array([[0.2, 0.8]]), np.array([1]))
    out["one_class"] = [M.Auc().accumulate(), one_class.accumulate()]
    out["names"] = [M.Auc().name(), M.Auc(curve="PR", name="a").name()]
    out["area"] = M.Auc().trapezoid_area(3.0, 1.0, 2.0, 4.0)
    out["bad_labels"] = expect_error(lambda: M.Auc().update(np.array([[0.5, 0.5]]), [0]))
    return out


def case_metric_base():
    class Incomplete(M.Metric):
        pass

    class Counting(M.Metric):
        def reset(self):
            self.n = 0

        def update(self, x):
            self.n += len(x)
            return self.n

        def accumulate(self):
            return self.n

        def name(self):
            return "count"

    m = Counting()
    m.reset()
    m.update([1, 2])
    return {
        "abstract": expect_error(Incomplete),
        "compute": M.Metric.compute(m, 1, "a"),
        "counting": [m.update([3]), m.accumulate(), m.name()],
        "all": sorted(M.__all__),
    }

"""paddle.vision.models vs real Paddle: for each family the state_dict keys/shapes (so real
``.pdparams`` load), the printed structure, the seeded initial weights (summary statistics:
Paddle's init rules and random stream), and the eval-mode forward on a small input with weights
set from numpy. Small variants and inputs keep this fast on a 2-core CPU; the other variants
are covered by keys/shapes, the pretrained-weight tables and Paddle's doc examples."""

import hashlib

import numpy as np
import paddle.vision.models as M
from _util import expect_error, randn, rng

import paddle

FWD_TOL = (2e-4, 2e-5)  # deep float32 conv stacks: summation order differs between backends
TOLERANCE = {
    name: FWD_TOL
    for name in (
        "case_resnet18",
        "case_resnext50_32x4d",
        "case_vgg11_bn",
        "case_alexnet",
        "case_densenet121",
        "case_squeezenet1_0",
        "case_squeezenet1_1",
        "case_googlenet",
        "case_inception_v3",
        "case_mobilenet_v1",
        "case_mobilenet_v2",
        "case_mobilenet_v3_small",
        "case_shufflenet_v2_x0_25",
        "case_intermediate_layer_getter",
    )
}
TOLERANCE["case_lenet"] = (1e-5, 1e-6)


def _keys(model) -> dict:
    """``"key shape"`` per state_dict entry, and each (dtype, stop_gradient) pair's count."""
    keys, kinds = [], {}
    for k, v in model.state_dict().items():
        keys.append(f"{k} {'x'.join(map(str, v.shape))}")
        kind = f"{str(v.dtype).replace('paddle.', '')} stop_gradient={bool(v.stop_gradient)}"
        kinds[kind] = kinds.get(kind, 0) + 1
    return {"keys": keys, "kinds": kinds}


def _init_stats(model, full: bool = True) -> dict:
    """The initial weights, summarized: mean |w| per parameter (7 significant digits; only the
    first two and last four unless ``full``) and the sum of squares of every state entry."""
    params = list(model.named_parameters())
    if not full:
        params = params[:2] + params[-4:]
    mean_abs = {
        k: float(f"{np.abs(np.asarray(p.numpy(), dtype=np.float64)).mean():.7g}") for k, p in params
    }
    sq = [(np.asarray(v.numpy(), dtype=np.float64) ** 2).sum() for v in model.state_dict().values()]
    return {"mean_abs": mean_abs, "sum_sq": float(sum(sq))}


def _set_weights(model, seed: int = 0):
    """Variance-preserving values from numpy, identical in both frameworks: He-normal conv and
    linear weights (Paddle's Linear weight is [in, out]), norm scales in [0.5, 1.5], biases
    and running means in [-0.1, 0.1], running variances in [0.5, 1.5]."""
    r = rng(seed)
    for key, t in model.state_dict().items():
        shape = list(t.shape)
        last = key.rsplit(".", 1)[-1]
        if last.endswith("_variance"):
            v = r.uniform(0.5, 1.5, shape)
        elif last.endswith("_mean") or (len(shape) == 1 and last == "bias"):
            v = r.uniform(-0.1, 0.1, shape)
        elif len(shape) == 1:
            v = r.uniform(0.5, 1.5, shape)
        else:
            fan_in = shape[0] if len(shape) == 2 else int(np.prod(shape[1:]))
            v = r.standard_normal(shape) * np.sqrt(2.0 / fan_in)
        t.set_value(v.astype("float32"))
    return model


def _model_case(make, *input_shape, seed=0, init: bool | str = "summary", train=False):
    """Build with ``paddle.seed(seed)``; record keys, repr and initial-weight statistics
    (``init``: "full", "summary" or False); set weights from numpy and run the eval-mode
    forward (with ``train``, also one training-mode forward on the same input and the first
    BatchNorm's updated running stats)."""
    paddle.seed(seed)
    model = make()
    res = {"state": _keys(model), "repr": repr(model)}
    if init:
        res["init"] = _init_stats(model, full=init == "full")
    _set_weights(model, seed)
    model.eval()
    x = paddle.to_tensor(randn(*input_shape, seed=seed + 1))
    with paddle.no_grad():
        res["out"] = model(x)
        if train:
            model.train()
            res["train_out"] = model(x)
            bn = next(m for m in model.sublayers() if "BatchNorm" in type(m).__name__)
            res["train_stats"] = [bn._mean, bn._variance]
    return res


def _keys_case(*makes) -> list:
    """Per model: the number of state entries, a digest of all ``"key shape"`` lines and
    dtype/stop_gradient counts, and the last three lines (for a readable failure)."""
    out = []
    for make in makes:
        k = _keys(make())
        digest = hashlib.sha1("\n".join(k["keys"]).encode()).hexdigest()
        out.append(
            {"n": len(k["keys"]), "sha1": digest, "kinds": k["kinds"], "tail": k["keys"][-3:]}
        )
    return out


# ---- LeNet, ResNet, VGG, AlexNet ------------------------------------------------------------
def case_lenet():
    return _model_case(lambda: M.LeNet(), 2, 1, 28, 28, init="full")


def case_lenet_headless():
    return _keys_case(lambda: M.LeNet(num_classes=0))


def case_resnet18():
    return _model_case(lambda: M.resnet18(num_classes=10), 2, 3, 64, 64, train=True)


def case_resnext50_32x4d():
    return _model_case(lambda: M.resnext50_32x4d(num_classes=10), 1, 3, 32, 32, init=False)


def case_resnet_keys():
    return _keys_case(
        lambda: M.resnet34(num_classes=0),
        lambda: M.resnet50(num_classes=0, with_pool=False),
    )


def case_vgg11_bn():
    model = lambda: M.vgg11(batch_norm=True, num_classes=0, with_pool=False)  # noqa: E731
    return _model_case(model, 1, 3, 32, 32)


def case_vgg_keys():
    return _keys_case(lambda: M.vgg16(num_classes=0), lambda: M.vgg19(num_classes=0))


def case_alexnet():
    return _model_case(lambda: M.AlexNet(num_classes=0), 1, 3, 63, 63, init="full")


# ---- DenseNet, SqueezeNet, GoogLeNet, InceptionV3 -------------------------------------------
def case_densenet121():
    return _model_case(lambda: M.densenet121(num_classes=10), 1, 3, 32, 32)


def case_densenet_keys():
    return _keys_case(lambda: M.densenet161(num_classes=0))


def case_squeezenet1_0():
    return _model_case(lambda: M.squeezenet1_0(num_classes=10), 1, 3, 64, 64, init="full")


def case_squeezenet1_1():
    return _model_case(lambda: M.squeezenet1_1(num_classes=10, with_pool=False), 1, 3, 64, 64)


def case_googlenet():
    # the auxiliary heads' linear layers fix the input at 224x224
    return _model_case(lambda: M.googlenet(num_classes=10), 1, 3, 224, 224, init="full")


def case_googlenet_headless():
    return _keys_case(lambda: M.GoogLeNet(num_classes=0, with_pool=False))


def case_inception_v3():
    return _model_case(lambda: M.inception_v3(num_classes=10), 1, 3, 75, 75)


# ---- MobileNets, ShuffleNetV2 ---------------------------------------------------------------
def case_mobilenet_v1():
    return _model_case(lambda: M.mobilenet_v1(scale=0.25, num_classes=10), 1, 3, 32, 32)


def case_mobilenet_v2():
    return _model_case(lambda: M.mobilenet_v2(scale=0.25, num_classes=10), 1, 3, 32, 32)


def case_mobilenet_v3_small():
    return _model_case(lambda: M.mobilenet_v3_small(scale=0.5, num_classes=10), 1, 3, 32, 32)


def case_mobilenet_keys():
    return _keys_case(
        lambda: M.MobileNetV1(num_classes=0),
        lambda: M.MobileNetV2(scale=1.4, num_classes=0),
        lambda: M.MobileNetV3Large(num_classes=0, with_pool=False),
    )


def case_shufflenet_v2_x0_25():
    return _model_case(lambda: M.shufflenet_v2_x0_25(num_classes=10), 1, 3, 32, 32)


def case_shufflenet_keys():
    return _keys_case(
        lambda: M.shufflenet_v2_x0_33(num_classes=0),
        lambda: M.ShuffleNetV2(scale=0.5),
        lambda: M.shufflenet_v2_swish(num_classes=0),
    )


# ---- pretrained tables, helpers, errors -----------------------------------------------------
def case_model_urls():
    import importlib

    mods = (
        "alexnet densenet googlenet inceptionv3 mobilenetv1 mobilenetv2 mobilenetv3 resnet "
        "shufflenetv2 squeezenet vgg"
    ).split()
    return {m: importlib.import_module(f"paddle.vision.models.{m}").model_urls for m in mods}


def case_all_names():
    return sorted(M.__all__)


def case_intermediate_layer_getter():
    from paddle.vision.models._utils import IntermediateLayerGetter

    paddle.seed(3)
    model = _set_weights(M.LeNet(), 3).eval()
    getter = IntermediateLayerGetter(model, {"features": "feat", "fc": "logits"})
    with paddle.no_grad():
        return getter(paddle.to_tensor(randn(1, 1, 28, 28, seed=4)))


def case_make_divisible():
    from paddle.vision.models._utils import _make_divisible

    return [_make_divisible(v) for v in (3, 8, 11.2, 12, 27.9, 32 * 0.35, 1280 * 1.4)]


def case_errors():
    from paddle.vision.models.resnet import BasicBlock

    return {
        "no_pretrained_v1": expect_error(lambda: M.mobilenet_v1(pretrained=True, scale=0.25)),
        "no_pretrained_v3": expect_error(lambda: M.mobilenet_v3_small(pretrained=True, scale=0.5)),
        "densenet_layers": expect_error(lambda: M.DenseNet(layers=100)),
        "squeezenet_version": expect_error(lambda: M.SqueezeNet("1.2")),
        "shufflenet_scale": expect_error(lambda: M.ShuffleNetV2(scale=0.75)),
        "shufflenet_act": expect_error(lambda: M.ShuffleNetV2(scale=0.25, act="gelu")),
        "basic_dilation": expect_error(lambda: BasicBlock(8, 8, dilation=2)),
    }

"""paddle.inference on JAX: Config, create_predictor, Predictor and its Tensor handles over the
artifact ``paddle.jit.save`` writes (``paddle_compat._export``).

The predictor runs ``jax.jit(exported.call)(params, inputs)``: one XLA executable per input
shape (compiled on first use, shared by clones), parameters resident on the chosen device.
Options that have a meaning on JAX act (device choice); the others are recorded, reported by
their getters, and documented as no-ops in docs/serving.md.
"""

from __future__ import annotations

import enum
import warnings

import jax
import numpy as np

from paddle_compat._core import seams
from paddle_compat._core.seams import saved_model


# -- enums (names and values as Paddle's) ---------------------------------------------------------
class PaddleDType(enum.IntEnum):
    """paddle.inference.DataType."""

    FLOAT32 = 0
    INT64 = 1
    INT32 = 2
    UINT8 = 3
    INT8 = 4
    FLOAT16 = 5
    BOOL = 6
    FLOAT64 = 7
    BFLOAT16 = 8

    def __str__(self) -> str:
        return f"PaddleDType.{self.name}"


class PaddlePlace(enum.IntEnum):
    """paddle.inference.PlaceType."""

    UNK = -1
    CPU = 0
    GPU = 1
    XPU = 2
    CUSTOM = 4

    def __str__(self) -> str:
        return f"PaddlePlace.{self.name}"


class Precision(enum.IntEnum):
    """paddle.inference.PrecisionType."""

    Float32 = 0
    Int8 = 1
    Half = 2
    Bfloat16 = 3

    def __str__(self) -> str:
        return f"Precision.{self.name}"


DataType = PaddleDType
PlaceType = PaddlePlace
PrecisionType = Precision

_DTYPE_NAMES = {
    PaddleDType.FLOAT32: "float32",
    PaddleDType.INT64: "int64",
    PaddleDType.INT32: "int32",
    PaddleDType.UINT8: "uint8",
    PaddleDType.INT8: "int8",
    PaddleDType.FLOAT16: "float16",
    PaddleDType.BOOL: "bool",
    PaddleDType.FLOAT64: "float64",
    PaddleDType.BFLOAT16: "bfloat16",
}
_DTYPE_OF_NAME = {v: k for k, v in _DTYPE_NAMES.items()}


def get_num_bytes_of_data_type(dtype: PaddleDType) -> int:
    """Bytes per element of an inference DataType."""
    return saved_model.np_dtype(_DTYPE_NAMES[PaddleDType(dtype)]).itemsize


def get_version() -> str:
    """Version text of the inference library."""
    from paddle_compat import __compat_version__, __version__

    return (
        f"version: {__version__}\npaddle-compat: {__compat_version__}\n"
        f"jax: {jax.__version__}\nbackend: XLA ({jax.default_backend()})\n"
    )


def get_trt_compile_version() -> tuple[int, int, int]:
    """TensorRT is not used (XLA compiles the model): (0, 0, 0) as a Paddle build without it."""
    return (0, 0, 0)


def get_trt_runtime_version() -> tuple[int, int, int]:
    return (0, 0, 0)


# -- Config ------------------------------------------------------------------------------------
def _gpu_devices() -> list:
    try:
        return list(jax.devices("gpu"))
    except RuntimeError:
        return []


class Config:
    """paddle.inference.Config: where the model is and how to run it.

    ``Config(prog_file, params_file)``, ``Config(model_dir)`` (a directory holding one saved
    model, or, as an extension, the path prefix given to ``paddle.jit.save``) or ``Config()``
    then ``set_model``.
    """

    Precision = Precision
    Float32 = Precision.Float32
    Int8 = Precision.Int8
    Half = Precision.Half
    Bfloat16 = Precision.Bfloat16

    def __init__(
        self, model_dir_or_prog_file: str | None = None, params_file: str | None = None
    ) -> None:
        self._model_dir = ""
        self._prog_file = ""
        self._params_file = ""
        if params_file is not None:
            self.set_model(model_dir_or_prog_file, params_file)
        elif model_dir_or_prog_file is not None:
            self.set_model(model_dir_or_prog_file)
        self._use_gpu = False
        self._gpu_id = 0
        self._gpu_mem_mb = 0
        self._gpu_precision = Precision.Float32
        self._custom_device: tuple[str, int] | None = None
        self._cpu_threads = 1
        self._mkldnn = True
        self._mkldnn_fc_passes = True
        self._ir_optim = True
        self._ir_debug = False
        self._memory_optim = False
        self._glog_disabled = False
        self._profile = False
        self._feed_fetch_ops = False
        self._specify_input_names = True
        self._optim_cache_dir = ""
        self._new_ir = True
        self._new_executor = True
        self._optimization_level = 2
        self._deleted_passes: list[str] = []
        self._notes: set[str] = set()
        self._batch_buckets: tuple[int, int] | None = None

    # model location
    def set_model(self, model_dir_or_prog_file: str, params_file: str | None = None) -> None:
        """Set the model directory (one argument) or program + params files (two)."""
        if params_file is None:
            self._model_dir, self._prog_file, self._params_file = (
                str(model_dir_or_prog_file),
                "",
                "",
            )
        else:
            self._model_dir = ""
            self._prog_file, self._params_file = str(model_dir_or_prog_file), str(params_file)

    def set_prog_file(self, path: str) -> None:
        self._prog_file = str(path)

    def set_params_file(self, path: str) -> None:
        self._params_file = str(path)

    def model_dir(self) -> str:
        return self._model_dir

    def prog_file(self) -> str:
        return self._prog_file

    def params_file(self) -> str:
        return self._params_file

    def model_from_memory(self) -> bool:
        return False

    def set_model_buffer(self, *args) -> None:
        raise NotImplementedError(
            "paddle-compat: Config.set_model_buffer is not supported (a saved model is a "
            "manifest + StableHLO + params files); pass the files' paths instead."
        )

    # devices (real meaning on JAX)
    def enable_use_gpu(
        self,
        memory_pool_init_size_mb: int,
        device_id: int = 0,
        precision_mode: Precision = Precision.Float32,
    ) -> None:
        """Run on GPU ``device_id`` (JAX's GPU devices). Without a GPU visible to JAX this
        warns and keeps the CPU, as a CPU build of Paddle does."""
        gpus = _gpu_devices()
        self._gpu_mem_mb = int(memory_pool_init_size_mb)
        self._gpu_precision = Precision(precision_mode)
        if not gpus:
            warnings.warn(
                "paddle.inference: no GPU is visible to JAX; the predictor runs on CPU.",
                stacklevel=2,
            )
            self._use_gpu = False
            return
        if not 0 <= int(device_id) < len(gpus):
            raise ValueError(
                f"(InvalidArgument) GPU device id {device_id} is out of range: "
                f"{len(gpus)} GPU(s) visible."
            )
        self._use_gpu, self._gpu_id = True, int(device_id)

    def disable_gpu(self) -> None:
        self._use_gpu = False

    def use_gpu(self) -> bool:
        return self._use_gpu

    def gpu_device_id(self) -> int:
        return self._gpu_id

    def memory_pool_init_size_mb(self) -> int:
        return self._gpu_mem_mb

    def fraction_of_gpu_memory_for_pool(self) -> float:
        return 0.0

    def enable_xpu(self, *args, **kwargs) -> None:
        warnings.warn(
            "paddle.inference: XPU is not available on JAX; running on CPU/GPU.", stacklevel=2
        )

    def use_xpu(self) -> bool:
        return False

    def xpu_device_id(self) -> int:
        return 0

    def enable_custom_device(self, device_type: str, device_id: int = 0, *args) -> None:
        """Run on a JAX platform by name (``"tpu"``, ``"gpu"``...)."""
        try:
            devs = jax.devices(device_type)
        except RuntimeError as e:
            raise ValueError(
                f"(Unavailable) custom device {device_type!r} is not a JAX platform here: {e}"
            ) from None
        if not 0 <= int(device_id) < len(devs):
            raise ValueError(
                f"(InvalidArgument) {device_type} device id {device_id} is out of "
                f"range: {len(devs)} visible."
            )
        self._custom_device = (device_type, int(device_id))

    def use_custom_device(self) -> bool:
        return self._custom_device is not None

    def _jax_device(self):
        if self._custom_device is not None:
            return jax.devices(self._custom_device[0])[self._custom_device[1]]
        if self._use_gpu:
            return _gpu_devices()[self._gpu_id]
        try:
            return jax.devices("cpu")[0]
        except RuntimeError:
            return jax.devices()[0]

    # CPU / graph options: recorded; XLA decides (no-ops documented in docs/serving.md)
    def set_cpu_math_library_num_threads(self, n: int) -> None:
        self._cpu_threads = int(n)

    def cpu_math_library_num_threads(self) -> int:
        return self._cpu_threads

    def enable_mkldnn(self) -> None:
        self._mkldnn = True

    enable_onednn = enable_mkldnn

    def disable_mkldnn(self) -> None:
        self._mkldnn = False

    disable_onednn = disable_mkldnn

    def mkldnn_enabled(self) -> bool:
        return self._mkldnn

    onednn_enabled = mkldnn_enabled

    def disable_mkldnn_fc_passes(self) -> None:
        """Paddle: leave out oneDNN's fully-connected fusion passes. Recorded only: XLA
        compiles the model and there are no oneDNN passes to drop."""
        self._mkldnn_fc_passes = False

    disable_onednn_fc_passes = disable_mkldnn_fc_passes

    def set_mkldnn_cache_capacity(self, capacity: int) -> None:
        pass

    set_onednn_cache_capacity = set_mkldnn_cache_capacity

    def enable_mkldnn_bfloat16(self) -> None:
        pass

    def enable_mkldnn_int8(self, *args) -> None:
        pass

    def mkldnn_int8_enabled(self) -> bool:
        return False

    def switch_ir_optim(self, x: bool = True) -> None:
        self._ir_optim = bool(x)

    def ir_optim(self) -> bool:
        return self._ir_optim

    def switch_ir_debug(self, x: bool = True, passes=None) -> None:
        self._ir_debug = bool(x)

    def enable_memory_optim(self, x: bool = True) -> None:
        self._memory_optim = bool(x)

    def enable_profile(self) -> None:
        self._profile = True

    def disable_glog_info(self) -> None:
        self._glog_disabled = True

    def glog_info_disabled(self) -> bool:
        return self._glog_disabled

    def switch_use_feed_fetch_ops(self, x: bool = True) -> None:
        self._feed_fetch_ops = bool(x)

    def use_feed_fetch_ops_enabled(self) -> bool:
        return self._feed_fetch_ops

    def switch_specify_input_names(self, x: bool = True) -> None:
        self._specify_input_names = bool(x)

    def specify_input_name(self) -> bool:
        return self._specify_input_names

    def set_optim_cache_dir(self, path: str) -> None:
        self._optim_cache_dir = str(path)

    def enable_new_ir(self, x: bool = True) -> None:
        self._new_ir = bool(x)

    def new_ir_enabled(self) -> bool:
        return self._new_ir

    def enable_new_executor(self, x: bool = True) -> None:
        self._new_executor = bool(x)

    def set_optimization_level(self, level: int = 2) -> None:
        self._optimization_level = int(level)

    def delete_pass(self, name: str) -> None:
        self._deleted_passes.append(str(name))

    def enable_low_precision_io(self, x: bool = True) -> None:
        pass

    def enable_cinn(self) -> None:
        pass

    # TensorRT / ONNX Runtime / OpenVINO: XLA compiles the model instead
    def _engine_note(self, what: str) -> None:
        if what not in self._notes:
            self._notes.add(what)
            warnings.warn(
                f"paddle.inference: {what} is not used by paddle-compat (XLA compiles "
                "the saved StableHLO program); the option is ignored.",
                stacklevel=3,
            )

    def enable_tensorrt_engine(self, *args, **kwargs) -> None:
        self._engine_note("TensorRT")

    def tensorrt_engine_enabled(self) -> bool:
        return False

    def set_trt_dynamic_shape_info(self, *args, **kwargs) -> None:
        pass

    def tensorrt_dynamic_shape_enabled(self) -> bool:
        return False

    def enable_tensorrt_memory_optim(self, *args, **kwargs) -> None:
        pass

    def enable_tuned_tensorrt_dynamic_shape(self, *args, **kwargs) -> None:
        pass

    def collect_shape_range_info(self, *args, **kwargs) -> None:
        pass

    def shape_range_info_collected(self) -> bool:
        return False

    def enable_onnxruntime(self) -> None:
        self._engine_note("ONNX Runtime")

    def onnxruntime_enabled(self) -> bool:
        return False

    def disable_onnxruntime(self) -> None:
        pass

    def enable_ort_optimization(self) -> None:
        pass

    def enable_openvino_engine(self, *args, **kwargs) -> None:
        self._engine_note("OpenVINO")

    def openvino_engine_enabled(self) -> bool:
        return False

    # paddle-compat extension (not in Paddle's Config): batch buckets + bounded compile cache
    def enable_batch_buckets(self, max_batch: int = 64, cache_size: int = 32) -> None:
        """paddle-compat extension: pad the batch (leading dynamic) dim to the next power of two
        up to ``max_batch`` (zero rows, outputs sliced back; a larger batch is a ValueError),
        keep at most ``cache_size`` compiled shapes (least recently used dropped) and compile
        a new shape outside any lock. Off by default (Paddle's behaviour: every batch size
        runs as given); the HTTP server turns it on. See docs/serving.md."""
        if int(max_batch) < 1 or int(cache_size) < 1:
            raise ValueError(
                f"(InvalidArgument) enable_batch_buckets: max_batch and cache_size must be "
                f">= 1, got {max_batch} and {cache_size}."
            )
        self._batch_buckets = (int(max_batch), int(cache_size))

    def disable_batch_buckets(self) -> None:
        """paddle-compat extension: every batch size compiles its own executable (default)."""
        self._batch_buckets = None

    def batch_buckets_enabled(self) -> bool:
        """paddle-compat extension: whether ``enable_batch_buckets`` is on."""
        return self._batch_buckets is not None

    def _compiler_options(self, device) -> dict:
        """XLA options with a meaning here: on CPU, one math thread (Paddle's default) compiles
        single-threaded Eigen kernels; more threads use XLA's intra-op thread pool."""
        if getattr(device, "platform", "cpu") != "cpu":
            return {}
        return {"xla_cpu_multi_thread_eigen": self._cpu_threads > 1}

    def summary(self) -> str:
        """A table of the settings, as Paddle prints it."""
        dev = self._jax_device()
        rows = [
            [("model_dir", self._model_dir)]
            if self._model_dir
            else [("model_file", self._prog_file), ("params_file", self._params_file)],
            [
                ("cpu_math_thread", str(self._cpu_threads)),
                ("enable_mkldnn", str(self._mkldnn).lower()),
            ],
            [("use_gpu", str(self._use_gpu).lower())]
            + (
                [
                    ("gpu_device_id", str(self._gpu_id)),
                    ("memory_pool_init_size", f"{self._gpu_mem_mb}MB"),
                ]
                if self._use_gpu
                else []
            ),
            [("use_xpu", "false")],
            [
                ("ir_optim", str(self._ir_optim).lower()),
                ("ir_debug", str(self._ir_debug).lower()),
                ("memory_optim", str(self._memory_optim).lower()),
                ("enable_profile", str(self._profile).lower()),
                ("enable_log", str(not self._glog_disabled).lower()),
            ],
            [("runtime", f"XLA (jax {jax.__version__})"), ("device", str(dev))],
        ]
        w1 = max(len("Option"), *(len(k) for g in rows for k, _ in g))
        w2 = max(len("Value"), *(len(v) for g in rows for _, v in g))
        sep = f"+-{'-' * w1}-+-{'-' * w2}-+"
        out = [sep, f"| {'Option':<{w1}} | {'Value':<{w2}} |", sep]
        for g in rows:
            out += [f"| {k:<{w1}} | {v:<{w2}} |" for k, v in g] + [sep]
        return "\n".join(out) + "\n"

    def _artifact(self) -> saved_model.Artifact:
        paddle_program = seams.paddle_program()  # programs exported by Paddle itself
        if paddle_program.is_paddle_program(self._prog_file or self._model_dir or ""):
            return paddle_program.load_artifact(
                self._prog_file or self._model_dir, self._params_file or None
            )
        if self._prog_file:
            return saved_model.load(
                prog_file=self._prog_file, params_file=self._params_file or None
            )
        return saved_model.load(self._model_dir or None)


AnalysisConfig = Config


# -- Tensor handles ----------------------------------------------------------------------------
class Tensor:
    """paddle.inference.Tensor: a named input or output slot of a Predictor."""

    def __init__(self, spec: saved_model.IOSpec, is_input: bool, device) -> None:
        self._spec = spec
        self._is_input = is_input
        self._device = device
        self._value = None  # numpy (inputs, owned copy) or jax array (outputs)
        self._dims: list[int] | None = None
        self._lod: list = []

    def reshape(self, shape) -> None:
        """Set the shape of the data to feed (``copy_from_cpu`` also sets it)."""
        if isinstance(shape, int | np.integer):
            shape = [int(shape)]
        self._dims = [int(d) for d in shape]

    def copy_from_cpu(self, data) -> None:
        """Feed a numpy array (copied: later changes to ``data`` do not reach the model)."""
        if not self._is_input:
            raise RuntimeError(
                f"(PreconditionNotMet) '{self._spec.name}' is an output; "
                "copy_from_cpu feeds inputs."
            )
        if not isinstance(data, np.ndarray):
            if hasattr(data, "numpy") and callable(data.numpy):
                data = data.numpy()
            else:
                raise TypeError(
                    "In copy_from_cpu, we only support numpy ndarray data type, "
                    f"but got {type(data).__name__}."
                )
        self._value = np.array(data, copy=True, order="C")
        self._dims = list(self._value.shape)

    def share_external_data(self, tensor) -> None:
        """Feed a paddle Tensor without a host copy."""
        from paddle_compat._core.seams import Tensor as PTensor

        if not isinstance(tensor, PTensor):
            raise TypeError(
                f"share_external_data takes a paddle.Tensor, got {type(tensor).__name__}."
            )
        self._value = tensor._value
        self._dims = list(tensor.shape)

    def copy_to_cpu(self) -> np.ndarray:
        """The data as a new numpy array (outputs: after ``Predictor.run``)."""
        if self._value is None:
            raise RuntimeError(
                f"(PreconditionNotMet) '{self._spec.name}' holds no data yet"
                + (
                    "; call Predictor.run() first."
                    if not self._is_input
                    else "; feed it with copy_from_cpu."
                )
            )
        return np.array(self._value)

    def shape(self) -> list[int]:
        if self._dims is None:
            return [0]
        return list(self._dims)

    def type(self) -> PaddleDType:
        dt = (
            self._value.dtype if self._value is not None else saved_model.np_dtype(self._spec.dtype)
        )
        return _DTYPE_OF_NAME.get(str(np.dtype(dt)), PaddleDType.FLOAT32)

    def lod(self) -> list:
        return list(self._lod)

    def set_lod(self, lod) -> None:
        self._lod = [list(x) for x in lod]

    def __repr__(self) -> str:
        kind = "input" if self._is_input else "output"
        return f"<paddle.inference.Tensor {kind} '{self._spec.name}' shape={self.shape()}>"


# -- Predictor ---------------------------------------------------------------------------------
class Predictor:
    """paddle.inference.Predictor: runs a saved model (``create_predictor(config)``)."""

    def __init__(self, config: Config, _share: Predictor | None = None) -> None:
        self._config = config
        if _share is not None:
            self._art, self._device, self._params = _share._art, _share._device, _share._params
        else:
            try:
                self._art = config._artifact()
            except saved_model.ArtifactError as e:
                raise RuntimeError(f"(NotFound) {e}") from None
            self._device = config._jax_device()
            self._params = [jax.device_put(a, self._device) for a in self._art.arrays()]
        options = config._compiler_options(self._device)
        self._fn = self._art.callable(options)
        self._exec = None  # batch buckets (Config.enable_batch_buckets), shared by clones
        if _share is not None and _share._config._batch_buckets == config._batch_buckets:
            self._exec = _share._exec
        elif config._batch_buckets is not None:
            from ._buckets import Executables

            max_batch, cache_size = config._batch_buckets
            self._exec = Executables(
                self._art.exported,
                self._params,
                self._art.inputs,
                max_batch=max_batch,
                cache_size=cache_size,
                compiler_options=options,
            )
        self._inputs = {s.name: Tensor(s, True, self._device) for s in self._art.inputs}
        self._outputs = {s.name: Tensor(s, False, self._device) for s in self._art.outputs}
        self._in_list = list(self._inputs.values())
        self._in_dtypes = [saved_model.np_dtype(s.dtype) for s in self._art.inputs]
        self._out_list = list(self._outputs.values())

    def get_input_names(self) -> list[str]:
        return list(self._inputs)

    def get_output_names(self) -> list[str]:
        return list(self._outputs)

    def get_input_handle(self, name: str) -> Tensor:
        h = self._inputs.get(name)
        if h is None:
            raise RuntimeError(
                f"(PreconditionNotMet) The variable named {name} is not found in the scope of "
                f"the executor. Inputs: {self.get_input_names()}."
            )
        return h

    def get_output_handle(self, name: str) -> Tensor:
        h = self._outputs.get(name)
        if h is None:
            raise RuntimeError(
                f"(PreconditionNotMet) The variable named {name} is not found in the scope of "
                f"the executor. Outputs: {self.get_output_names()}."
            )
        return h

    @property
    def input_specs(self) -> list[saved_model.IOSpec]:
        return list(self._art.inputs)

    @property
    def output_specs(self) -> list[saved_model.IOSpec]:
        return list(self._art.outputs)

    def _call(self, arrays: list) -> list:
        arrays = [
            a
            if a.dtype == want and saved_model.shape_matches(s, a.shape)
            else saved_model.check_input(s, a)
            for s, want, a in zip(self._art.inputs, self._in_dtypes, arrays)
        ]
        if self._exec is not None:
            from ._buckets import BatchTooLarge

            try:
                return self._exec.run(arrays)
            except BatchTooLarge as e:
                raise ValueError(
                    f"(InvalidArgument) {e}: Config.enable_batch_buckets(max_batch=...)."
                ) from None
        try:  # numpy inputs follow the (committed) parameters onto their device
            return self._fn(self._params, arrays)
        except ValueError as e:  # e.g. two inputs whose shared dynamic dims differ
            raise ValueError(
                f"(InvalidArgument) the inputs do not fit the saved model: "
                f"{saved_model.shape_error_text(e, self._art.input_names)}"
            ) from None

    def run(self, inputs: list | None = None):
        """Run the model. Without arguments: on the data fed to the input handles (outputs in
        the output handles; returns None). With a list of paddle Tensors: returns the outputs
        as a list of paddle Tensors."""
        if inputs is None:
            arrays = []
            for h in self._in_list:
                if h._value is None:
                    raise RuntimeError(
                        f"(PreconditionNotMet) input '{h._spec.name}' has no data: call "
                        f"get_input_handle('{h._spec.name}').copy_from_cpu(...) before run()."
                    )
                arrays.append(h._value)
            outs = self._call(arrays)
            for h, o in zip(self._out_list, outs):
                h._value, h._dims = o, list(o.shape)
            return None
        from paddle_compat._core.seams import Tensor as PTensor

        if isinstance(inputs, PTensor | np.ndarray):
            inputs = [inputs]
        if len(inputs) != len(self._in_list):
            raise ValueError(
                f"(InvalidArgument) wrong feed input size, need {len(self._in_list)} but get "
                f"{len(inputs)}."
            )
        arrays = [x._value if isinstance(x, PTensor) else np.asarray(x) for x in inputs]
        outs = self._call(arrays)
        for h, o in zip(self._out_list, outs):
            h._value, h._dims = o, list(o.shape)
        return [PTensor(o) for o in outs]

    def clone(self, stream=None) -> Predictor:
        """A predictor sharing this one's model, weights and compiled programs, with its own
        input/output handles (one per thread)."""
        return Predictor(self._config, _share=self)

    def clear_intermediate_tensor(self) -> None:
        pass

    def try_shrink_memory(self) -> int:
        return 0

    def __repr__(self) -> str:
        return (
            f"<paddle.inference.Predictor inputs={self.get_input_names()} "
            f"outputs={self.get_output_names()} device={self._device}>"
        )


def create_predictor(config: Config) -> Predictor:
    """Create a Predictor for ``config``'s model."""
    if not isinstance(config, Config):
        raise TypeError(
            f"create_predictor takes a paddle.inference.Config, got {type(config).__name__}."
        )
    return Predictor(config)


class PredictorPool:
    """``size`` predictors over one model (clones sharing weights); ``retrieve(i)``."""

    def __init__(self, config: Config, size: int = 1) -> None:
        first = create_predictor(config)
        self._preds = [first] + [first.clone() for _ in range(int(size) - 1)]

    def retrieve(self, idx: int) -> Predictor:
        return self._preds[idx]

    retrive = retrieve  # the spelling of Paddle's older C++ API

"""serving: the saved-model format of ``paddle.jit.save``, ``paddle.inference`` (Config,
create_predictor, Predictor) and an HTTP server (``python -m serving --model PATH --port N``).
See docs/serving.md."""

from paddle_compat._core.seams import saved_model

from ._predictor import (
    AnalysisConfig,
    Config,
    DataType,
    PlaceType,
    Precision,
    PrecisionType,
    Predictor,
    PredictorPool,
    Tensor,
    create_predictor,
    get_num_bytes_of_data_type,
    get_trt_compile_version,
    get_trt_runtime_version,
    get_version,
)

ArtifactError = saved_model.ArtifactError

__all__ = [
    "AnalysisConfig",
    "ArtifactError",
    "Config",
    "DataType",
    "PlaceType",
    "Precision",
    "PrecisionType",
    "Predictor",
    "PredictorPool",
    "Tensor",
    "create_predictor",
    "get_num_bytes_of_data_type",
    "get_trt_compile_version",
    "get_trt_runtime_version",
    "get_version",
]

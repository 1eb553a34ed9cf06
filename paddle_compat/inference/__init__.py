"""paddle.inference: re-export of the ``serving`` package's predictor API (imported when
``paddle.inference`` is first used)."""

from serving import (  # noqa: F401
    AnalysisConfig,
    Config,
    DataType,
    PlaceType,
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

__all__ = [
    "Config",
    "DataType",
    "PlaceType",
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

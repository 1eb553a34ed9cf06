"""``paddle.framework.recall_error``: the error strings Paddle's trainers raise on bad losses."""

AADIFF_ERROR = "PaddleRecall error(101): AAdiff"
LOSS_NAN_ERROR = "PaddleRecall error(102): LossNan"
SHARDING_PAD_NON_ZERO_ERROR = "PaddleRecall error(103): ShardingPadNonZero"
LOSS_INF_ERROR = "PaddleRecall error(104): LossInf"

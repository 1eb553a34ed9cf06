"""Public ops without a row, each with the reason (the coverage test accepts nothing else)."""

from __future__ import annotations

_RANDOM = (
    "random: values come from the RNG, whose algorithm differs from Paddle's; "
    "distributions are checked in tests/test_random.py"
)
# (dropout-like ops have rows for their deterministic cases: eval mode, p=0, p=1)

SKIPS: dict[str, str] = {
    **{
        n: "returns (out, softmax or None): checked against Paddle 3.3.1 in "
        "tests/goldens/nn_attention.json"
        for n in ("flash_attention", "flash_attn_qkvpacked")
    },
    "flash_attn_unpadded": "Paddle 3.3.1's CPU build has no kernel for it; checked against the "
    "math definition in tests/test_nn_attention.py",
    "fp8_fp8_half_gemm_fused": "Paddle 3.3.1's CPU build has no kernel for it; checked against "
    "numpy in tests/test_tensor_misc.py",
    "softmax_mask_fuse_upper_triangle": "Paddle 3.3.1's CPU build has no kernel for it; checked "
    "against numpy in tests/test_geometric.py",
    **{
        n: "random: Paddle's CPU samplers seed from std::random_device on every call (not "
        "reproducible); checked in tests/test_geometric.py"
        for n in ("sample_neighbors", "weighted_sample_neighbors", "graph_khop_sampler")
    },
    "pca_lowrank": "randomized (Paddle draws a Gaussian sketch from its RNG)",
    "svd_lowrank": "randomized (Paddle draws a Gaussian sketch from its RNG)",
    **{
        n: _RANDOM
        for n in (
            "bernoulli",
            "bernoulli_",
            "binomial",
            "cauchy_",
            "geometric_",
            "log_normal",
            "log_normal_",
            "multinomial",
            "normal",
            "normal_",
            "poisson",
            "rand",
            "rand_like",
            "randint",
            "randint_like",
            "randn",
            "randn_like",
            "randperm",
            "standard_gamma",
            "standard_normal",
            "uniform",
            "gumbel_softmax",
        )
    },
}
_VISION = (
    "paddle.vision.ops: values, gradients and errors in tests/cases/vision_ops.py; tracing and "
    "data-dependent checks in tests/test_vision_ops.py"
)
SKIPS.update(
    {
        n: _VISION
        for n in (
            "box_coder",
            "decode_jpeg",
            "deform_conv2d",
            "distribute_fpn_proposals",
            "generate_proposals",
            "matrix_nms",
            "nms",
            "prior_box",
            "psroi_pool",
            "read_file",
            "roi_align",
            "roi_pool",
            "yolo_box",
            "yolo_loss",
        )
    }
)
SKIPS.update(
    {
        "rms_norm": "Paddle 3.3.1's CPU build has no rms_norm kernel (NotFound): checked against "
        "the documented formula in tests/test_nn_loss_extra.py",
        "adaptive_log_softmax_with_loss": "takes nested lists of tail weights and a cutoffs "
        "list: values, gradients and errors against Paddle 3.3.1 in tests/cases/nn_loss_extra.py",
        "margin_cross_entropy": "Paddle 3.3.1's CPU build has no kernel: checked against its "
        "documented GPU output and the kernel's formulas in tests/test_nn_loss_margin.py, argument "
        "errors in tests/cases/nn_loss_margin.py",
        "class_center_sample": "random negatives from an OS-seeded engine per call, as in Paddle: "
        "deterministic cases in tests/cases/nn_loss_margin.py",
    }
)

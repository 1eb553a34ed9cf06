"""paddle.distributed in one process, as real Paddle 3.3.1 answers it on CPU: the parallel
environment, groups, fleet (init, DistributedStrategy, topology, distributed_optimizer),
DataParallel as a wrapper, recompute (values, gradients, stop_gradient rules), dist.Strategy,
shard_optimizer argument checks, and DistModel on a 1-process mesh."""

import numpy as np
import paddle.distributed as dist
from _util import expect_error, randn
from paddle.distributed import fleet
from paddle.distributed.fleet.utils import recompute

import paddle


def _mlp(seed=0):
    net = paddle.nn.Sequential(paddle.nn.Linear(4, 6), paddle.nn.Tanh(), paddle.nn.Linear(6, 3))
    for i, p in enumerate(net.parameters()):
        p.set_value(randn(*p.shape, seed=seed + i) * 0.5)
    return net


def case_env_single_process():
    env = dist.ParallelEnv()
    before = [dist.get_rank(), dist.get_world_size(), dist.is_initialized()]
    ret = dist.init_parallel_env()
    return {
        "before": before,
        "init_ret": ret is None,
        "after": [dist.get_rank(), dist.get_world_size(), dist.is_initialized()],
        "env": [
            env.rank,
            env.world_size,
            env.local_rank,
            env.nranks,
            env.nrings,
            env.pg_timeout,
            env.trainer_endpoints,
            env.current_endpoint,
        ],
        "available": dist.is_available(),
    }


def case_env_errors():
    return {
        "barrier": expect_error(lambda: dist.barrier()),
        "backend": expect_error(lambda: dist.get_backend()),
        "rank_bad_group": expect_error(lambda: dist.get_rank("x")),
    }


def case_new_group():
    g = dist.new_group([0])
    return [g.rank, g.nranks, g.ranks, g.world_size, g.is_member(), type(g).__name__]


def case_strategy_defaults():
    s = fleet.DistributedStrategy()
    hc = s.hybrid_configs
    return {
        "flags": [
            s.amp,
            s.recompute,
            s.sharding,
            s.pipeline,
            s.gradient_merge,
            s.lamb,
            s.lars,
            s.dgc,
            s.a_sync,
            s.fuse_all_reduce_ops,
            s.find_unused_parameters,
            s.tensor_parallel,
            s.without_graph_optimization,
            s.heter_ccl_mode,
        ],
        "values": [s.fuse_grad_size_in_MB, s.nccl_comm_num],
        "hybrid": [
            hc["dp_degree"],
            hc["mp_degree"],
            hc["pp_degree"],
            hc["sharding_degree"],
            hc["sep_degree"],
        ],
        "amp": s.amp_configs,
        "recompute_cfg": s.recompute_configs,
        "sharding_cfg": s.sharding_configs,
        "pipeline_cfg": s.pipeline_configs,
        "tp_cfg": s.tensor_parallel_configs,
        "gm_cfg": s.gradient_merge_configs,
    }


def case_strategy_setting():
    s = fleet.DistributedStrategy()
    s.hybrid_configs = {"dp_degree": 2, "mp_degree": 4}
    got = s.hybrid_configs
    got["dp_degree"] = 7  # a copy: the strategy is unchanged
    s.amp = 1  # not a bool: Paddle warns and keeps the old value
    s.recompute = True
    s.sharding_configs = {"stage": 2}
    s.fuse_grad_size_in_MB = 64

    def bad_attr():
        s.foo_bar = 3

    def bad_key():
        s.hybrid_configs = {"bogus": 1}

    return {
        "hybrid": [
            s.hybrid_configs["dp_degree"],
            s.hybrid_configs["mp_degree"],
            s.hybrid_configs["pp_degree"],
        ],
        "amp": s.amp,
        "recompute": s.recompute,
        "stage": s.sharding_configs["stage"],
        "fuse": s.fuse_grad_size_in_MB,
        "bad_attr": expect_error(bad_attr),
        "bad_key": expect_error(bad_key),
    }


def case_fleet_collective_single_process():
    f = fleet.init(is_collective=True)
    hcg = fleet.get_hybrid_communicate_group()
    net = _mlp()
    opt = paddle.optimizer.SGD(0.1, parameters=net.parameters())
    dopt = fleet.distributed_optimizer(opt)
    x = paddle.to_tensor(randn(5, 4, seed=7))
    losses = []
    for _ in range(3):
        loss = (net(x) ** 2).mean()
        loss.backward()
        dopt.step()
        dopt.clear_grad()
        losses.append(loss)
    return {
        "init": type(f).__name__,
        "index": fleet.worker_index(),
        "num": fleet.worker_num(),
        "first": fleet.is_first_worker(),
        "world": fleet.world_size(),
        "same_opt": dopt is opt,
        "lr": dopt.get_lr(),
        "hcg": [
            hcg.get_data_parallel_world_size(),
            hcg.get_model_parallel_world_size(),
            hcg.get_pipe_parallel_world_size(),
            hcg.get_sharding_parallel_world_size(),
            hcg.get_data_parallel_rank(),
            hcg.get_model_parallel_rank(),
            hcg.get_stage_id(),
            hcg.get_parallel_mode(),
        ],
        "losses": losses,
        "w": net[0].weight,
    }


def case_data_parallel_wrapper():
    net = _mlp(3)
    dp = dist.DataParallel(net)  # paddle.DataParallel is the same class
    x = paddle.to_tensor(randn(4, 4, seed=9))
    out = dp(x)
    loss = out.sum()
    loss.backward()
    with dp.no_sync():
        pass
    return {
        "type": type(dp).__name__,
        "layers": dp._layers is net,
        "keys": list(dp.state_dict().keys()),
        "names": [n for n, _ in dp.named_parameters()],
        "repr": repr(dp),
        "out": out,
        "grad": net[2].weight.grad,
        "scale_loss": dp.scale_loss(loss) is loss,
        "bad": expect_error(lambda: dist.DataParallel("x")),
    }


def _block_run(use_rc, **kw):
    net = _mlp(11)
    head = paddle.nn.Linear(3, 2)
    head.weight.set_value(randn(3, 2, seed=20))
    x = paddle.to_tensor(randn(5, 4, seed=21), stop_gradient=False)
    h = recompute(net, x, **kw) if use_rc else net(x)
    loss = (head(h) ** 2).sum()
    loss.backward()
    return [loss, h, x.grad, net[0].weight.grad, net[2].bias.grad, head.weight.grad]


def case_recompute_matches_plain():
    return {
        "plain": _block_run(False),
        "recompute": _block_run(True),
        "non_reentrant": _block_run(True, use_reentrant=False),
        "no_rng": _block_run(True, preserve_rng_state=False),
    }


def case_recompute_stop_gradient_rules():
    net = _mlp(13)
    x = paddle.to_tensor(randn(2, 4, seed=1))  # needs no gradient
    y_reentrant = recompute(net, x)
    y_plain = recompute(net, x, use_reentrant=False)
    xg = paddle.to_tensor(randn(2, 4, seed=2), stop_gradient=False)
    with paddle.no_grad():
        y_nograd = recompute(net, xg)

    def two(a, b):
        return a * b, a + b

    outs = recompute(two, xg, x)
    return {
        "reentrant": y_reentrant.stop_gradient,
        "non_reentrant": y_plain.stop_gradient,
        "no_grad": y_nograd.stop_gradient,
        "tuple": [type(outs).__name__, len(outs), outs[0].stop_gradient],
        "values": [y_reentrant, y_plain, outs[0], outs[1]],
        "bad_kwarg": expect_error(lambda: recompute(net, xg, foo=1)),
    }


def case_dist_strategy():
    s = dist.Strategy()
    s2 = dist.Strategy(
        {
            "sharding": {"enable": True, "stage": 2, "degree": 4},
            "gradient_merge": {"enable": True, "k_steps": 4},
        }
    )
    return {
        "sharding": [s.sharding.enable, s.sharding.stage, s.sharding.degree],
        "gm": [s.gradient_merge.enable, s.gradient_merge.k_steps, s.gradient_merge.avg],
        "pipeline": [
            s.pipeline.enable,
            s.pipeline.schedule_mode,
            s.pipeline.micro_batch_size,
            s.pipeline.accumulate_steps,
        ],
        "amp": [s.amp.enable, s.amp.dtype, s.amp.level, s.amp.init_loss_scaling],
        "fused": [s.fused_passes.enable],
        "full_graph": s.full_graph,
        "s2": [
            s2.sharding.enable,
            s2.sharding.stage,
            s2.sharding.degree,
            s2.gradient_merge.enable,
            s2.gradient_merge.k_steps,
        ],
    }


def case_shard_optimizer_errors():
    net = _mlp()
    opt = paddle.optimizer.AdamW(parameters=net.parameters())
    return {
        "none": expect_error(lambda: dist.shard_optimizer(None)),
        "stage_no_mesh": expect_error(lambda: dist.shard_optimizer(opt, dist.ShardingStage1("dp"))),
    }


class _Pairs(paddle.io.Dataset):
    def __init__(self):
        rs = np.random.RandomState(3)
        self.x = rs.rand(12, 4).astype("float32")
        self.y = rs.rand(12, 3).astype("float32")

    def __getitem__(self, i):
        return self.x[i], self.y[i]

    def __len__(self):
        return 12


def case_dist_model_one_process_mesh():
    mesh = dist.ProcessMesh([0], dim_names=["dp"])
    net = dist.shard_layer(_mlp(17), mesh)
    opt = paddle.optimizer.SGD(0.1, parameters=net.parameters())
    loader = paddle.io.DataLoader(_Pairs(), batch_size=4)
    dm = dist.to_static(net, loader, paddle.nn.MSELoss(), opt)
    batches = list(loader)
    before = expect_error(lambda: dm(*batches[0]))
    dm.train()
    losses = [dm(x, y) for x, y in batches]
    sd = dm.state_dict("param")
    return {
        "before_mode": before,
        "losses": losses,
        "keys": sorted(sd.keys()),
        "w": sd["0.weight"],
        "bad_input": expect_error(lambda: dm(np.ones((4, 4)))),
    }

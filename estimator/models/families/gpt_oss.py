"""gpt-oss: biased attention with per-head sinks, biased router and experts (fused gate_up)."""

from __future__ import annotations

from ...errors import EstimatorError
from ..types import Architecture, Linear
from .common import Config, attention, build, dims, integer, sliding, tie


def build_gpt_oss(name: str, cfg: Config) -> Architecture:
    c = dims(cfg)
    h, L = c.h, c.L
    E = integer(cfg, "num_local_experts")
    k = integer(cfg, "num_experts_per_tok")
    if k > E:
        raise EstimatorError("config_bad_value", field="num_experts_per_tok", value=str(k))
    I_e = integer(cfg, "intermediate_size")
    linears = attention(c, qkv_bias=True, o_bias=True, fused=False)
    linears.append(Linear("router", "router", h, E, L, L, True))
    linears += [
        Linear("expert", "gate_up_proj", h, 2 * I_e, L * E, L * k, True),
        Linear("expert", "down_proj", I_e, h, L * E, L * k, True),
    ]
    return build(
        name,
        cfg,
        c,
        tie_embeddings=tie(cfg, False),
        linears=tuple(linears),
        other_params=L * (2 * h + c.n_q) + h,
        num_experts=E,
        experts_per_token=k,
        mlp_active_width=k * I_e,
        **sliding(cfg, L),
    )

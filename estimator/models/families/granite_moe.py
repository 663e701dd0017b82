"""IBM Granite 3 MoE (granitemoe): Llama-style attention, every layer a mixture of experts with
fused gate/up experts (input_linear, 2·I wide) and no shared MLP, RMSNorms, tied embeddings
(transformers modeling_granitemoe.py: GraniteMoeParallelExperts, GraniteMoeTopKGating)."""

from __future__ import annotations

from ..types import Architecture, Linear
from .common import Config, attention, build, dims, flag, integer, tie
from .moe import expert_counts


def build_granite_moe(name: str, cfg: Config) -> Architecture:
    c = dims(cfg)
    h, L = c.h, c.L
    E, k = expert_counts(cfg, "num_local_experts")
    I_e = integer(cfg, "intermediate_size")
    bias = flag(cfg, "attention_bias", False)
    linears = attention(c, qkv_bias=bias, o_bias=bias, fused=False)
    linears += [
        Linear("router", "router", h, E, L, L),
        Linear("expert", "input_linear", h, 2 * I_e, L * E, L * k),
        Linear("expert", "output_linear", I_e, h, L * E, L * k),
    ]
    return build(
        name,
        cfg,
        c,
        tie_embeddings=tie(cfg, True),
        linears=tuple(linears),
        other_params=L * 2 * h + h,
        num_experts=E,
        experts_per_token=k,
        mlp_active_width=k * I_e,
    )

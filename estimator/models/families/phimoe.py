"""Phi-3.5-MoE (phimoe): Mixtral's experts with biased attention, LayerNorms with bias and a
biased lm_head (transformers modeling_phimoe.py: attention_bias, lm_head_bias)."""

from __future__ import annotations

from ..types import Architecture, Linear
from .common import Config, attention, build, dims, flag, gated_mlp, integer, tie
from .moe import expert_counts


def build_phimoe(name: str, cfg: Config) -> Architecture:
    c = dims(cfg)
    h, L = c.h, c.L
    E, k = expert_counts(cfg, "num_local_experts")
    I_e = integer(cfg, "intermediate_size")
    bias = flag(cfg, "attention_bias", True)
    linears = attention(c, qkv_bias=bias, o_bias=bias, fused=False)
    linears.append(Linear("router", "gate", h, E, L, L))
    linears += gated_mlp("expert", h, I_e, L * E, L * k)
    # Two LayerNorms per layer and the final one, weight and bias each; the lm_head's bias.
    other = L * 4 * h + 2 * h + (c.V if flag(cfg, "lm_head_bias", True) else 0)
    return build(
        name,
        cfg,
        c,
        tie_embeddings=tie(cfg, False),
        linears=tuple(linears),
        other_params=other,
        num_experts=E,
        experts_per_token=k,
        mlp_active_width=k * I_e,
    )

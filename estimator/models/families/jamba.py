"""Jamba (AI21): Mamba 1 layers with one attention layer in `attn_layer_period`, and a mixture
of experts every `expert_layer_period`-th layer (transformers modeling_jamba.py,
configuration_jamba.py: layers_block_type, layers_num_experts)."""

from __future__ import annotations

import math

from ..types import FULL, STATE, Architecture, Linear
from .common import Config, attention, build, dims, flag, gated_mlp, integer, tie
from .moe import expert_counts
from .ssm import mamba1


def build_jamba(name: str, cfg: Config) -> Architecture:
    c = dims(cfg)
    h, L = c.h, c.L
    a_period = integer(cfg, "attn_layer_period", 8)
    a_offset = integer(cfg, "attn_layer_offset", 4, low=0)
    e_period = integer(cfg, "expert_layer_period", 2)
    e_offset = integer(cfg, "expert_layer_offset", 1, low=0)
    attn = [i % a_period == a_offset for i in range(L)]
    moe = [i % e_period == e_offset for i in range(L)]
    n_attn, n_moe = sum(attn), sum(moe)
    E, k = expert_counts(cfg, "num_experts")
    I = integer(cfg, "intermediate_size")
    d_state = integer(cfg, "mamba_d_state", 16)
    expand = integer(cfg, "mamba_expand", 2)
    rank = cfg.get("mamba_dt_rank", "auto")
    dt_rank = math.ceil(h / 16) if rank == "auto" else integer(cfg, "mamba_dt_rank")
    mixer = mamba1(
        h,
        L - n_attn,
        d_inner=expand * h,
        d_state=d_state,
        dt_rank=dt_rank,
        kernel=integer(cfg, "mamba_d_conv", 4),
        conv_bias=flag(cfg, "mamba_conv_bias", True),
        proj_bias=flag(cfg, "mamba_proj_bias", False),
        inner_norms=True,
    )
    linears = attention(c, qkv_bias=False, o_bias=False, fused=False, layers=n_attn)
    linears += mixer.linears
    if L - n_moe:
        linears += gated_mlp("mlp", h, I, L - n_moe, L - n_moe)
    linears.append(Linear("router", "router", h, E, n_moe, n_moe))
    linears += gated_mlp("expert", h, I, n_moe * E, n_moe * k)
    return build(
        name,
        cfg,
        c,
        tie_embeddings=tie(cfg, False),
        linears=tuple(linears),
        other_params=L * 2 * h + h + mixer.other,
        num_experts=E,
        experts_per_token=k,
        mlp_active_width=k * I,
        layer_kinds=tuple(FULL if a else STATE for a in attn),
        state_elements=mixer.state,
    )

"""GLM-4.5 / GLM-4.6 (glm4_moe): GQA attention with q/k/v bias and partial RoPE, DeepSeek-style
MoE (dense first layers, a shared expert, a scored router with a correction bias)
(transformers modeling_glm4_moe.py). The multi-token-prediction layer the checkpoint ships
(num_nextn_predict_layers) is not part of the model that generates, as for DeepSeek-V3."""

from __future__ import annotations

from ..types import Architecture, Linear
from .common import Config, attention, build, dims, flag, gated_mlp, integer, tie
from .deepseek import deepseek_moe_layers
from .moe import expert_counts


def build_glm_moe(name: str, cfg: Config) -> Architecture:
    c = dims(cfg)
    h, L = c.h, c.L
    E, k = expert_counts(cfg, "n_routed_experts")
    I_e = integer(cfg, "moe_intermediate_size")
    shared = integer(cfg, "n_shared_experts", 0, low=0)
    n_moe = sum(deepseek_moe_layers(cfg, L))
    n_dense = L - n_moe
    linears = attention(c, qkv_bias=flag(cfg, "attention_bias", True), o_bias=False, fused=False)
    if n_dense:
        linears += gated_mlp("mlp", h, integer(cfg, "intermediate_size"), n_dense, n_dense)
    linears.append(Linear("router", "gate", h, E, n_moe, n_moe))
    linears += gated_mlp("expert", h, I_e, n_moe * E, n_moe * k)
    if shared:
        linears += gated_mlp("shared_expert", h, shared * I_e, n_moe, n_moe)
    qk_norm = 2 * c.d if flag(cfg, "use_qk_norm", False) else 0
    other = L * (2 * h + qk_norm) + h + n_moe * E  # + e_score_correction_bias
    return build(
        name,
        cfg,
        c,
        tie_embeddings=tie(cfg, False),
        linears=tuple(linears),
        other_params=other,
        num_experts=E,
        experts_per_token=k,
        mlp_active_width=(k + shared) * I_e,
    )

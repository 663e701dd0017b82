"""Mixtral, Qwen2-MoE, Qwen3-MoE: Llama-style attention, every (sparse) layer a mixture of
experts (transformers' modeling_mixtral / modeling_qwen2_moe / modeling_qwen3_moe)."""

from __future__ import annotations

from ...errors import EstimatorError
from ..types import Architecture, Linear
from .common import Config, attention, build, dims, gated_mlp, integer, integers, sliding, tie


def expert_counts(cfg: Config, experts_key: str) -> tuple[int, int]:
    """(experts, experts per token), checked against each other."""
    E = integer(cfg, experts_key)
    k = integer(cfg, "num_experts_per_tok")
    if k > E:
        raise EstimatorError("config_bad_value", field="num_experts_per_tok", value=str(k))
    return E, k


def sparse_layers(cfg: Config, L: int) -> list[bool]:
    """MoE layers by the Mixtral/Qwen-MoE rule: all but `mlp_only_layers`, every
    `decoder_sparse_step`-th (transformers Qwen2MoeDecoderLayer)."""
    step = integer(cfg, "decoder_sparse_step", 1)
    dense_only = set(integers(cfg, "mlp_only_layers"))
    return [i not in dense_only and (i + 1) % step == 0 for i in range(L)]


def build_moe(name: str, cfg: Config) -> Architecture:
    model_type = str(cfg["model_type"])
    c = dims(cfg)
    h, L = c.h, c.L
    E, k = expert_counts(cfg, "num_local_experts" if model_type == "mixtral" else "num_experts")
    I_e = integer(cfg, "intermediate_size" if model_type == "mixtral" else "moe_intermediate_size")
    n_moe = sum(sparse_layers(cfg, L))
    n_dense = L - n_moe
    linears = attention(c, qkv_bias=model_type == "qwen2_moe", o_bias=False, fused=False)
    if n_dense:
        linears += gated_mlp("mlp", h, integer(cfg, "intermediate_size"), n_dense, n_dense)
    linears.append(Linear("router", "gate", h, E, n_moe, n_moe))
    linears += gated_mlp("expert", h, I_e, n_moe * E, n_moe * k)
    active_width = k * I_e
    if model_type == "qwen2_moe" and cfg.get("shared_expert_intermediate_size"):
        shared = integer(cfg, "shared_expert_intermediate_size")
        linears += gated_mlp("shared_expert", h, shared, n_moe, n_moe)
        linears.append(Linear("router", "shared_expert_gate", h, 1, n_moe, n_moe))
        active_width += shared
    qk_norm = 2 * c.d if model_type == "qwen3_moe" else 0
    return build(
        name,
        cfg,
        c,
        tie_embeddings=tie(cfg, False),
        linears=tuple(linears),
        other_params=L * (2 * h + qk_norm) + h,
        num_experts=E,
        experts_per_token=k,
        mlp_active_width=active_width,
        **sliding(cfg, L),
    )

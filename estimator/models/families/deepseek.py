"""DeepSeek-V2/V3 and Kimi K2 (a DeepSeek-V3 architecture): multi-head latent attention and
DeepSeekMoE with shared experts (transformers modeling_deepseek_v3.py)."""

from __future__ import annotations

from ..types import Architecture, Linear, Mla
from .common import Config, Dims, build, gated_mlp, integer, optional, tie
from .moe import expert_counts


def deepseek_moe_layers(cfg: Config, L: int) -> list[bool]:
    """MoE layers by the DeepSeek rule: from `first_k_dense_replace`, every `moe_layer_freq`-th."""
    first = integer(cfg, "first_k_dense_replace", 0, low=0)
    freq = integer(cfg, "moe_layer_freq", 1)
    return [i >= first and i % freq == 0 for i in range(L)]


def build_deepseek(name: str, cfg: Config) -> Architecture:
    h = integer(cfg, "hidden_size")
    L = integer(cfg, "num_hidden_layers")
    n_h = integer(cfg, "num_attention_heads")
    mla = Mla(
        kv_lora_rank=integer(cfg, "kv_lora_rank"),
        q_lora_rank=optional(cfg, "q_lora_rank"),
        qk_rope_head_dim=integer(cfg, "qk_rope_head_dim"),
        qk_nope_head_dim=integer(cfg, "qk_nope_head_dim"),
        v_head_dim=integer(cfg, "v_head_dim"),
    )
    qk = mla.qk_nope_head_dim + mla.qk_rope_head_dim
    linears: list[Linear] = []
    other = L * (2 * h + mla.kv_lora_rank) + h
    if mla.q_lora_rank:
        linears += [
            Linear("attention", "q_a_proj", h, mla.q_lora_rank, L, L),
            Linear("attention", "q_b_proj", mla.q_lora_rank, n_h * qk, L, L),
        ]
        other += L * mla.q_lora_rank
    else:
        linears.append(Linear("attention", "q_proj", h, n_h * qk, L, L))
    linears += [
        Linear("attention", "kv_a_proj_with_mqa", h, mla.kv_lora_rank + mla.qk_rope_head_dim, L, L),
        Linear(
            "attention",
            "kv_b_proj",
            mla.kv_lora_rank,
            n_h * (mla.qk_nope_head_dim + mla.v_head_dim),
            L,
            L,
        ),
        Linear("attention", "o_proj", n_h * mla.v_head_dim, h, L, L),
    ]
    E, k = expert_counts(cfg, "n_routed_experts")
    I_e = integer(cfg, "moe_intermediate_size")
    shared = integer(cfg, "n_shared_experts", 0, low=0)
    n_moe = sum(deepseek_moe_layers(cfg, L))
    n_dense = L - n_moe
    if n_dense:
        linears += gated_mlp("mlp", h, integer(cfg, "intermediate_size"), n_dense, n_dense)
    linears.append(Linear("router", "gate", h, E, n_moe, n_moe))
    if cfg.get("topk_method") == "noaux_tc":
        other += n_moe * E  # e_score_correction_bias
    linears += gated_mlp("expert", h, I_e, n_moe * E, n_moe * k)
    if shared:
        linears += gated_mlp("shared_expert", h, shared * I_e, n_moe, n_moe)
    c = Dims(h=h, L=L, V=integer(cfg, "vocab_size"), n_q=n_h, n_kv=n_h, d=qk)
    return build(
        name,
        cfg,
        c,
        tie_embeddings=tie(cfg, False),
        linears=tuple(linears),
        other_params=other,
        mla=mla,
        num_experts=E,
        experts_per_token=k,
        mlp_active_width=(k + shared) * I_e,
    )

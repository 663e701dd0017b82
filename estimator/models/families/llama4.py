"""Llama 4 (llama4_text): MoE layers with a shared expert, interleaved with dense layers every
`interleave_moe_layer_step`, and chunked attention on three layers of four
(transformers modeling_llama4.py / configuration_llama4.py defaults: moe_layers,
no_rope_layers, attention_chunk_size)."""

from __future__ import annotations

from ..types import Architecture, Linear
from .common import Config, attention, build, chunked, dims, gated_mlp, integer, integers, tie
from .moe import expert_counts


def build_llama4(name: str, cfg: Config) -> Architecture:
    c = dims(cfg)
    h, L = c.h, c.L
    E, k = expert_counts(cfg, "num_local_experts")
    I_e = integer(cfg, "intermediate_size")
    step = integer(cfg, "interleave_moe_layer_step", 1)
    moe = (
        set(integers(cfg, "moe_layers")) if cfg.get("moe_layers") else set(range(step - 1, L, step))
    )
    n_moe = sum(1 for i in range(L) if i in moe)
    n_dense = L - n_moe
    linears = attention(c, qkv_bias=False, o_bias=False, fused=False)
    if n_dense:
        linears += gated_mlp("mlp", h, integer(cfg, "intermediate_size_mlp"), n_dense, n_dense)
    linears.append(Linear("router", "router", h, E, n_moe, n_moe))
    linears += [
        Linear("expert", "gate_up_proj", h, 2 * I_e, n_moe * E, n_moe * k),
        Linear("expert", "down_proj", I_e, h, n_moe * E, n_moe * k),
    ]
    linears += gated_mlp("shared_expert", h, I_e, n_moe, n_moe)
    # Layers that use RoPE attend within chunks; every `no_rope_layer_interval`-th is global.
    if cfg.get("no_rope_layers"):
        rope = [bool(v) for v in integers(cfg, "no_rope_layers", L)]
    else:
        interval = integer(cfg, "no_rope_layer_interval", 4)
        rope = [(i + 1) % interval != 0 for i in range(L)]
    return build(
        name,
        cfg,
        c,
        tie_embeddings=tie(cfg, False),
        linears=tuple(linears),
        other_params=L * 2 * h + h,
        num_experts=E,
        experts_per_token=k,
        mlp_active_width=(k + 1) * I_e,
        **chunked(cfg, L, rope),
    )

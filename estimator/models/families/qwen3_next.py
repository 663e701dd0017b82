"""Qwen3-Next: three Gated DeltaNet (linear attention) layers to one gated full-attention layer
(`full_attention_interval`), every layer a Qwen-MoE block with a shared expert
(transformers modeling_qwen3_next.py).

Full attention: q_proj doubled for the output gate, q/k norms over head_dim. Gated DeltaNet:
in_proj_qkvz h -> 2·key_dim + 2·value_dim, in_proj_ba h -> 2·v_heads, a bias-free depthwise
conv1d over 2·key_dim + value_dim channels, dt_bias and A_log per value head, a gated norm over
the value head dim, out_proj value_dim -> h. Its state per sequence: the conv window and one
key_dim x value_dim matrix per value head.
"""

from __future__ import annotations

from ..types import FULL, STATE, Architecture, Linear
from .common import Config, build, dims, gated_mlp, integer, strings, tie
from .moe import expert_counts


def build_qwen3_next(name: str, cfg: Config) -> Architecture:
    c = dims(cfg)
    h, L, d = c.h, c.L, c.d
    if cfg.get("layer_types"):
        full = [t == "full_attention" for t in strings(cfg, "layer_types", L)]
    else:
        interval = integer(cfg, "full_attention_interval", 4)
        full = [(i + 1) % interval == 0 for i in range(L)]
    n_full = sum(full)
    n_lin = L - n_full
    nk, nv = integer(cfg, "linear_num_key_heads"), integer(cfg, "linear_num_value_heads")
    dk, dv = integer(cfg, "linear_key_head_dim"), integer(cfg, "linear_value_head_dim")
    kernel = integer(cfg, "linear_conv_kernel_dim")
    key_dim, value_dim = nk * dk, nv * dv
    conv = 2 * key_dim + value_dim
    linears = [
        Linear("attention", "q_proj", h, 2 * c.n_q * d, n_full, n_full),
        Linear("attention", "k_proj", h, c.n_kv * d, n_full, n_full),
        Linear("attention", "v_proj", h, c.n_kv * d, n_full, n_full),
        Linear("attention", "o_proj", c.n_q * d, h, n_full, n_full),
        Linear("attention", "in_proj_qkvz", h, 2 * key_dim + 2 * value_dim, n_lin, n_lin),
        Linear("attention", "in_proj_ba", h, 2 * nv, n_lin, n_lin),
        Linear("attention", "out_proj", value_dim, h, n_lin, n_lin),
    ]
    E, k = expert_counts(cfg, "num_experts")
    I_e = integer(cfg, "moe_intermediate_size")
    shared = integer(cfg, "shared_expert_intermediate_size")
    linears.append(Linear("router", "gate", h, E, L, L))
    linears += gated_mlp("expert", h, I_e, L * E, L * k)
    linears += gated_mlp("shared_expert", h, shared, L, L)
    linears.append(Linear("router", "shared_expert_gate", h, 1, L, L))
    other = L * 2 * h + h + n_full * 2 * d + n_lin * (conv * kernel + 2 * nv + dv)
    return build(
        name,
        cfg,
        c,
        tie_embeddings=tie(cfg, False),
        linears=tuple(linears),
        other_params=other,
        num_experts=E,
        experts_per_token=k,
        mlp_active_width=k * I_e + shared,
        layer_kinds=tuple(FULL if f else STATE for f in full),
        state_elements=conv * (kernel - 1) + nv * dk * dv,
    )

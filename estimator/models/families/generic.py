"""Any decoder-only config with the usual fields, counted as a Llama-shaped model: GQA attention,
a gated MLP (or a mixture of experts when the config names experts), two norms per layer.

A family with its own builder is counted exactly; this one is the fallback for a model_type we
have not transcribed, and the answer says so ("generic architecture").
"""

from __future__ import annotations

from dataclasses import replace

from ...errors import EstimatorError
from ..types import Architecture, Linear
from .common import Config, attention, build, dims, flag, gated_mlp, integer, sliding, tie
from .moe import expert_counts

REQUIRED = ("hidden_size", "num_hidden_layers", "num_attention_heads", "vocab_size")
_EXPERTS = ("num_experts", "num_local_experts", "n_routed_experts")


def can_build(cfg: Config) -> bool:
    return all(cfg.get(key) is not None for key in REQUIRED) and (
        cfg.get("intermediate_size") is not None or cfg.get("moe_intermediate_size") is not None
    )


def build_generic(name: str, cfg: Config) -> Architecture:
    if not can_build(cfg):
        missing = [k for k in (*REQUIRED, "intermediate_size") if cfg.get(k) is None]
        raise EstimatorError(
            "unsupported_architecture", model_type=str(cfg.get("model_type"))[:40], missing=missing
        )
    c = dims(cfg)
    h, L = c.h, c.L
    bias = flag(cfg, "attention_bias", False)
    linears = attention(c, qkv_bias=bias, o_bias=bias, fused=False)
    experts_key = next((k for k in _EXPERTS if cfg.get(k)), None)
    E = k = 0
    if experts_key:
        E, k = expert_counts(cfg, experts_key)
        I_e = integer(cfg, "moe_intermediate_size", cfg.get("intermediate_size"))
        linears.append(Linear("router", "gate", h, E, L, L))
        linears += gated_mlp("expert", h, I_e, L * E, L * k)
        width = k * I_e
        shared = cfg.get("shared_expert_intermediate_size")
        if shared:
            linears += gated_mlp(
                "shared_expert", h, integer(cfg, "shared_expert_intermediate_size"), L, L
            )
            width += shared
    else:
        width = integer(cfg, "intermediate_size")
        linears += gated_mlp("mlp", h, width, L, L)
    arch = build(
        name,
        cfg,
        c,
        tie_embeddings=tie(cfg, False),
        linears=tuple(linears),
        other_params=L * 2 * h + h,
        num_experts=E,
        experts_per_token=k,
        mlp_active_width=width,
        **sliding({**cfg, "model_type": "generic"}, L),
    )
    return replace(arch, generic=True)

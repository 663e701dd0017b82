"""IBM Granite 4 (granitemoehybrid): Mamba 2 and attention layers as `layer_types` lists them,
each followed by a mixture of experts with a shared MLP, or the shared MLP alone when the model
has no experts (transformers modeling_granitemoehybrid.py)."""

from __future__ import annotations

from ..types import FULL, STATE, Architecture, Linear
from .common import Config, attention, build, dims, flag, integer, strings, tie
from .moe import expert_counts
from .ssm import mamba2


def build_granite_hybrid(name: str, cfg: Config) -> Architecture:
    c = dims(cfg)
    h, L = c.h, c.L
    types = strings(cfg, "layer_types", L) if cfg.get("layer_types") else ["attention"] * L
    n_m = sum(t == "mamba" for t in types)
    n_a = L - n_m
    linears = attention(
        c,
        qkv_bias=flag(cfg, "attention_bias", False),
        o_bias=flag(cfg, "attention_bias", False),
        fused=False,
        layers=n_a,
    )
    other = L * 2 * h + h
    state = 0
    if n_m:
        heads = integer(cfg, "mamba_n_heads")
        expand = integer(cfg, "mamba_expand", 2)
        head_dim = (
            expand * h // heads
            if cfg.get("mamba_d_head") in (None, "auto")
            else integer(cfg, "mamba_d_head")
        )
        mixer = mamba2(
            h,
            n_m,
            heads=heads,
            head_dim=head_dim,
            d_state=integer(cfg, "mamba_d_state"),
            groups=integer(cfg, "mamba_n_groups", 1),
            kernel=integer(cfg, "mamba_d_conv", 4),
            conv_bias=flag(cfg, "mamba_conv_bias", True),
            proj_bias=flag(cfg, "mamba_proj_bias", False),
        )
        linears += mixer.linears
        other += mixer.other
        state = mixer.state
    shared = integer(cfg, "shared_intermediate_size")
    linears += [
        Linear("shared_expert", "input_linear", h, 2 * shared, L, L),
        Linear("shared_expert", "output_linear", shared, h, L, L),
    ]
    E = k = 0
    width = shared
    if cfg.get("num_local_experts"):
        E, k = expert_counts(cfg, "num_local_experts")
        I_e = integer(cfg, "intermediate_size")
        linears += [
            Linear("router", "router", h, E, L, L),
            Linear("expert", "input_linear", h, 2 * I_e, L * E, L * k),
            Linear("expert", "output_linear", I_e, h, L * E, L * k),
        ]
        width += k * I_e
    return build(
        name,
        cfg,
        c,
        tie_embeddings=tie(cfg, False),
        linears=tuple(linears),
        other_params=other,
        num_experts=E,
        experts_per_token=k,
        mlp_active_width=width,
        layer_kinds=tuple(STATE if t == "mamba" else FULL for t in types),
        state_elements=state,
    )

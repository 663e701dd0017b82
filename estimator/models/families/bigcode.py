"""BigCode's StarCoder models.

gpt_bigcode (StarCoder, SantaCoder; transformers modeling_gpt_bigcode.py): GPT-2 blocks with
multi-query attention (one K/V head), learned position embeddings, LayerNorms with bias, a
biased 4h GELU MLP and a tied lm_head. starcoder2 (modeling_starcoder2.py): GQA with RoPE,
biases on every projection (use_bias), LayerNorms with bias, a biased plain MLP, tied.
"""

from __future__ import annotations

from ..types import Architecture, Linear
from .common import Config, attention, build, dims, flag, integer, plain_mlp, sliding, tie


def build_gpt_bigcode(name: str, cfg: Config) -> Architecture:
    multi_query = flag(cfg, "multi_query", True)
    n_q = integer(cfg, "num_attention_heads")
    c = dims({**cfg, "num_key_value_heads": 1 if multi_query else n_q})
    h, L = c.h, c.L
    ff = integer(cfg, "n_inner", 4 * h) if cfg.get("n_inner") is not None else 4 * h
    positions = integer(cfg, "n_positions")
    linears = [
        Linear("attention", "c_attn", h, h + 2 * c.n_kv * c.d, L, L, True),
        Linear("attention", "c_proj", h, h, L, L, True),
        Linear("mlp", "c_fc", h, ff, L, L, True),
        Linear("mlp", "c_proj", ff, h, L, L, True),
    ]
    # wpe, then ln_1 and ln_2 per layer and ln_f (weight and bias each).
    other = positions * h + L * 4 * h + 2 * h
    return build(
        name,
        {**cfg, "max_position_embeddings": positions},
        c,
        tie_embeddings=tie(cfg, True),
        linears=tuple(linears),
        other_params=other,
        mlp_active_width=ff,
    )


def build_starcoder2(name: str, cfg: Config) -> Architecture:
    c = dims(cfg)
    h, L = c.h, c.L
    bias = flag(cfg, "use_bias", True)
    I = integer(cfg, "intermediate_size")
    linears = attention(c, qkv_bias=bias, o_bias=bias, fused=False)
    linears += plain_mlp("mlp", h, I, L, L, bias=bias)
    return build(
        name,
        cfg,
        c,
        tie_embeddings=tie(cfg, True),
        linears=tuple(linears),
        other_params=L * 4 * h + 2 * h,
        mlp_active_width=I,
        **sliding({**cfg, "model_type": "mistral"}, L),
    )

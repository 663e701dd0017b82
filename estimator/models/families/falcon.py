"""Falcon (7B/40B/180B): fused QKV, dense h->h, GELU MLP 4h, LayerNorms with bias, tied."""

from __future__ import annotations

from ..types import Architecture, Linear
from .common import Config, build, dims, flag, integer, tie


def build_falcon(name: str, cfg: Config) -> Architecture:
    new_arch = flag(cfg, "new_decoder_architecture", False)
    if not new_arch and flag(cfg, "multi_query", True):
        cfg = {**cfg, "num_key_value_heads": 1}
    c = dims(cfg)
    h, L = c.h, c.L
    ff = integer(cfg, "ffn_hidden_size", 4 * h)
    bias = flag(cfg, "bias", False)
    linears = [
        Linear("attention", "query_key_value", h, (c.n_q + 2 * c.n_kv) * c.d, L, L, bias),
        Linear("attention", "dense", c.n_q * c.d, h, L, L, bias),
        Linear("mlp", "dense_h_to_4h", h, ff, L, L, bias),
        Linear("mlp", "dense_4h_to_h", ff, h, L, L, bias),
    ]
    two_norms = new_arch or not flag(cfg, "parallel_attn", True)
    layer_norms = (2 if two_norms else 1) * 2 * h
    return build(
        name,
        cfg,
        c,
        tie_embeddings=tie(cfg, True),
        linears=tuple(linears),
        other_params=L * layer_norms + 2 * h,
        mlp_active_width=ff,
    )

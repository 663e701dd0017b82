"""Qwen (v1, remote code): fused c_attn with bias, w1/w2 each intermediate_size // 2."""

from __future__ import annotations

from ..types import Architecture, Linear
from .common import Config, build, dims, integer, tie


def build_qwen1(name: str, cfg: Config) -> Architecture:
    cfg = {**cfg, "head_dim": cfg.get("kv_channels")}
    c = dims(cfg)
    h, L = c.h, c.L
    ff = integer(cfg, "intermediate_size") // 2
    linears = [
        Linear("attention", "c_attn", h, 3 * c.n_q * c.d, L, L, True),
        Linear("attention", "c_proj", c.n_q * c.d, h, L, L),
        Linear("mlp", "w1", h, ff, L, L),
        Linear("mlp", "w2", h, ff, L, L),
        Linear("mlp", "c_proj", ff, h, L, L),
    ]
    ctx = cfg.get("max_position_embeddings") or cfg.get("seq_length")
    return build(
        name,
        {**cfg, "max_position_embeddings": ctx},
        c,
        tie_embeddings=tie(cfg, False),
        linears=tuple(linears),
        other_params=L * 2 * h + h,
        mlp_active_width=ff,
    )

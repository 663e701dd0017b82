"""TII Falcon-H1 (falcon_h1): every layer runs attention and a Mamba 2 mixer side by side on the
same normed input, adds them, then a gated MLP; two RMSNorms per layer (transformers
modeling_falcon_h1.py: FalconH1DecoderLayer, FalconH1Mixer, FalconH1MLP).

The mixer's width is `mamba_d_ssm` (`mamba_expand` x hidden when null), split in `mamba_n_heads` heads
of `mamba_d_head`; its gated RMSNorm exists only with `mamba_rms_norm`, its out_proj's bias
follows `projectors_bias`. The muP multipliers are scalars of the config and the mup_vector a
non-persistent buffer: neither is a weight. Each layer keeps both a per-token KV cache and a
fixed Mamba state per sequence."""

from __future__ import annotations

from ...errors import EstimatorError
from ..types import FULL, Architecture
from .common import Config, attention, build, dims, flag, gated_mlp, integer, tie
from .ssm import mamba2


def build_falcon_h1(name: str, cfg: Config) -> Architecture:
    c = dims(cfg)
    h, L = c.h, c.L
    heads = integer(cfg, "mamba_n_heads")
    # FalconH1Config's mamba_d_ssm defaults to 1024; an explicit null means mamba_expand x h.
    width = (
        integer(cfg, "mamba_expand", 2) * h
        if "mamba_d_ssm" in cfg and cfg["mamba_d_ssm"] is None
        else integer(cfg, "mamba_d_ssm", 1024)
    )
    head_dim = (
        width // heads
        if cfg.get("mamba_d_head") in (None, "auto")
        else integer(cfg, "mamba_d_head")
    )
    if heads * head_dim != width:
        raise EstimatorError("config_bad_value", field="mamba_d_head", value=str(head_dim))
    mixer = mamba2(
        h,
        L,
        heads=heads,
        head_dim=head_dim,
        d_state=integer(cfg, "mamba_d_state"),
        groups=integer(cfg, "mamba_n_groups", 1),
        kernel=integer(cfg, "mamba_d_conv", 4),
        conv_bias=flag(cfg, "mamba_conv_bias", True),
        proj_bias=flag(cfg, "mamba_proj_bias", False),
        out_bias=flag(cfg, "projectors_bias", False),
        norm=flag(cfg, "mamba_rms_norm", False),
    )
    bias = flag(cfg, "attention_bias", False)
    I = integer(cfg, "intermediate_size")
    linears = attention(c, qkv_bias=bias, o_bias=bias, fused=False)
    linears += mixer.linears
    linears += gated_mlp("mlp", h, I, L, L, bias=flag(cfg, "mlp_bias", False))
    return build(
        name,
        cfg,
        c,
        tie_embeddings=tie(cfg, False),
        linears=tuple(linears),
        other_params=L * 2 * h + h + mixer.other,
        mlp_active_width=I,
        layer_kinds=(FULL,) * L,
        state_elements=mixer.state,
        parallel_state=True,
    )

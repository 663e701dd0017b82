"""NVIDIA Nemotron-H and Nemotron Nano 2 (nemotron_h): one mixer per layer as
`hybrid_override_pattern` spells it (M Mamba 2, * attention, - a squared-ReLU MLP), one RMSNorm
before each (transformers modeling_nemotron_h.py)."""

from __future__ import annotations

from ...errors import EstimatorError
from ..types import FULL, NO_MIXER, STATE, Architecture
from .common import Config, Dims, attention, build, flag, integer, plain_mlp, tie
from .ssm import mamba2


def build_nemotron_h(name: str, cfg: Config) -> Architecture:
    pattern = cfg.get("hybrid_override_pattern")
    L = integer(cfg, "num_hidden_layers")
    if not isinstance(pattern, str) or len(pattern) != L or set(pattern) - set("M*-E"):
        raise EstimatorError(
            "config_bad_value", field="hybrid_override_pattern", value=str(pattern)[:40]
        )
    if "E" in pattern:  # Nemotron 3's MoE layers: not transcribed yet
        raise EstimatorError("unsupported_architecture", model_type="nemotron_h (MoE)")
    h = integer(cfg, "hidden_size")
    n_q = integer(cfg, "num_attention_heads")
    d = integer(cfg, "head_dim", h // n_q) if cfg.get("head_dim") else h // n_q
    c = Dims(h, L, integer(cfg, "vocab_size"), n_q, integer(cfg, "num_key_value_heads", n_q), d)
    n_m, n_a, n_mlp = pattern.count("M"), pattern.count("*"), pattern.count("-")
    mixer = mamba2(
        h,
        n_m,
        heads=integer(cfg, "mamba_num_heads"),
        head_dim=integer(cfg, "mamba_head_dim"),
        d_state=integer(cfg, "ssm_state_size"),
        groups=integer(cfg, "n_groups"),
        kernel=integer(cfg, "conv_kernel"),
        conv_bias=flag(cfg, "use_conv_bias", True),
        proj_bias=flag(cfg, "use_bias", False),
    )
    I = integer(cfg, "intermediate_size")
    bias = flag(cfg, "attention_bias", False)
    linears = attention(c, qkv_bias=bias, o_bias=bias, fused=False, layers=n_a)
    linears += mixer.linears
    linears += plain_mlp("mlp", h, I, n_mlp, n_mlp, bias=flag(cfg, "mlp_bias", False))
    kinds = {"M": STATE, "*": FULL, "-": NO_MIXER}
    return build(
        name,
        cfg,
        c,
        tie_embeddings=tie(cfg, False),
        linears=tuple(linears),
        other_params=L * h + h + mixer.other,
        mlp_active_width=I,
        layer_kinds=tuple(kinds[ch] for ch in pattern),
        state_elements=mixer.state,
    )

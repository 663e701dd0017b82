"""Llama 3.2 Vision's text model (mllama_text_model): Llama self-attention layers with
cross-attention layers at the indices `cross_attention_layers` lists, counted in
`num_hidden_layers` (transformers modeling_mllama.py: MllamaTextModel,
MllamaCrossAttentionDecoderLayer).

A cross-attention layer has the same q/k/v/o shapes, an RMSNorm over the head dimension on q
and on k, a gated MLP, two RMSNorms and two scalar tanh gates (attention and MLP). The input
embedding holds `vocab_size + 8` rows (the image token and seven learnable ones); the lm_head
`vocab_size`. The cross layers attend over the projected image tokens only, so they keep no
per-token cache of the text: the tokens they keep are set by the vision tower (vision.py)."""

from __future__ import annotations

from ...errors import EstimatorError
from ..types import CROSS, FULL, Architecture
from .common import Config, attention, build, dims, gated_mlp, integer, integers, tie

# Rows the input embedding holds beyond vocab_size (MllamaTextModel: vocab_size + 8).
EXTRA_EMBEDDINGS = 8


def build_mllama(name: str, cfg: Config) -> Architecture:
    c = dims(cfg)
    h, L, d = c.h, c.L, c.d
    cross = set(integers(cfg, "cross_attention_layers"))
    if any(i >= L for i in cross):
        raise EstimatorError(
            "config_bad_value", field="cross_attention_layers", value=str(sorted(cross))[:40]
        )
    I = integer(cfg, "intermediate_size")
    linears = attention(c, qkv_bias=False, o_bias=False, fused=False)
    linears += gated_mlp("mlp", h, I, L, L)
    other = L * 2 * h + h + len(cross) * (2 * d + 2) + EXTRA_EMBEDDINGS * h
    return build(
        name,
        cfg,
        c,
        tie_embeddings=tie(cfg, False),
        linears=tuple(linears),
        other_params=other,
        mlp_active_width=I,
        layer_kinds=tuple(CROSS if i in cross else FULL for i in range(L)),
    )

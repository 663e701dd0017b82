"""Dense decoders of the Llama shape: attention (GQA), an MLP, norms; the families differ in
their norms, biases, tied embeddings and MLP kind (transformers' modeling_<family>.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..types import Architecture
from .common import Config, Dims, attention, build, dims, flag, gated_mlp, integer, plain_mlp
from .common import sliding as sliding_layers
from .common import tie as tied


def _no_qk_norm(c: Dims) -> int:
    return 0


@dataclass(frozen=True, slots=True)
class Dense:
    """One family's variant of the dense decoder."""

    norms: int = 2  # norm vectors per layer, in units of h
    qk_norm: Callable[[Dims], int] = _no_qk_norm  # q/k norm parameters per layer
    tie: bool = False  # the config class's default for tie_word_embeddings
    qkv_bias: bool = False  # default when the config has no attention_bias
    o_bias: str = "same"  # same (as q/k/v), never, or a config key of its own
    gated: bool = True  # SwiGLU/GeGLU (gate, up, down) or plain (up, down)
    norm_bias: bool = False  # LayerNorm with a bias doubles every norm
    fused: bool = False  # fused qkv / gate_up (counts are the same; names differ)
    mlp_bias: bool = False  # default when the config has no mlp_bias
    head_bias: bool = False  # the lm_head carries a bias of vocab_size
    width: str = "intermediate_size"  # the config key of the MLP width
    reads_bias: bool = True  # False when the modeling file ignores the config's attention_bias


def _head_norm(c: Dims) -> int:
    return 2 * c.d


def _width_norm(c: Dims) -> int:
    return (c.n_q + c.n_kv) * c.d


FAMILIES: dict[str, Dense] = {
    "llama": Dense(),
    "mistral": Dense(),
    "internlm2": Dense(),
    "internlm3": Dense(),
    "smollm3": Dense(tie=True),
    "granite": Dense(),
    # EXAONE 3/3.5 (remote code): ln_1/ln_2 RMSNorms, c_fc_0/c_fc_1 gated MLP, no biases.
    "exaone": Dense(),
    "ernie4_5": Dense(tie=True),
    "qwen2": Dense(qkv_bias=True, o_bias="never"),
    "qwen3": Dense(qk_norm=_head_norm),
    "phi3": Dense(fused=True),
    "gemma": Dense(tie=True),
    "gemma2": Dense(norms=4, tie=True),
    "gemma3_text": Dense(norms=4, qk_norm=_head_norm, tie=True),
    "olmo2": Dense(qk_norm=_width_norm),
    "olmo3": Dense(qk_norm=_width_norm),
    "glm": Dense(qkv_bias=True, o_bias="never", fused=True),
    "glm4": Dense(norms=4, qkv_bias=True, o_bias="never", fused=True),
    "seed_oss": Dense(qkv_bias=True, o_bias="attention_out_bias"),
    # Cohere: one LayerNorm (weight only) before the parallel attention and MLP.
    "cohere": Dense(norms=1, tie=True),
    "cohere2": Dense(norms=1, tie=True),
    # Nemotron(-4, Minitron): LayerNorm1p with bias, non-gated squared-ReLU MLP.
    "nemotron": Dense(gated=False, norm_bias=True),
    # Phi-1/1.5/2 (modeling_phi.py): one biased LayerNorm before the parallel attention and
    # GELU MLP, biases on every linear, a biased lm_head.
    "phi": Dense(
        norms=1, qkv_bias=True, gated=False, norm_bias=True, mlp_bias=True, head_bias=True
    ),
    # Phi-3-small (remote code modeling_phi3_small.py): biased fused query_key_value and dense,
    # a biased GeGELU up_proj of twice ff_intermediate_size, LayerNorms with bias, tied
    # embeddings; its block-sparse layers still keep every token's keys and values.
    "phi3small": Dense(
        qkv_bias=True,
        norm_bias=True,
        fused=True,
        mlp_bias=True,
        tie=True,
        width="ff_intermediate_size",
        reads_bias=False,
    ),
}


def _qk_norm(family: Dense, cfg: Config, c: Dims) -> int:
    if cfg.get("model_type") in ("cohere", "cohere2"):
        # CohereLayerNorm over each head: q_norm (heads x d) and k_norm (kv heads x d).
        return (c.n_q + c.n_kv) * c.d if flag(cfg, "use_qk_norm", False) else 0
    return family.qk_norm(c)


def build_dense(name: str, cfg: Config) -> Architecture:
    family = FAMILIES[str(cfg["model_type"])]
    c = dims(cfg)
    I = integer(cfg, family.width)
    qkv_bias = (
        flag(cfg, "attention_bias", family.qkv_bias) or flag(cfg, "bias", False)
        if family.reads_bias
        else family.qkv_bias
    )
    if family.o_bias == "same":
        o_bias = qkv_bias
    elif family.o_bias == "never":
        o_bias = False
    else:
        o_bias = flag(cfg, family.o_bias, False)
    linears = attention(c, qkv_bias=qkv_bias, o_bias=o_bias, fused=family.fused)
    mlp_bias = flag(cfg, "mlp_bias", family.mlp_bias)
    if family.gated:
        linears += gated_mlp("mlp", c.h, I, c.L, c.L, fused=family.fused, bias=mlp_bias)
    else:
        linears += plain_mlp("mlp", c.h, I, c.L, c.L, bias=mlp_bias)
    per_norm = 2 * c.h if family.norm_bias else c.h
    other = c.L * (family.norms * per_norm + _qk_norm(family, cfg, c)) + per_norm
    if family.head_bias:
        other += c.V
    return build(
        name,
        cfg,
        c,
        tie_embeddings=tied(cfg, family.tie),
        linears=tuple(linears),
        other_params=other,
        mlp_active_width=I,
        **sliding_layers(cfg, c.L),
    )

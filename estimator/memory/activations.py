"""Activation memory: the prefill peak of inference and what training keeps for the backward pass.

Per token and layer, in 16-bit, a decoder layer produces: the residual stream and its normalised
copy before attention and before the MLP (4h), queries/keys/values and the attention output
(attention width), and in a gated MLP the gate, up and activated products (3 x MLP width). For a
GPT-style 4h MLP with dropout masks this is Korthikanti et al. 2022's 34·h bytes (arXiv:2205.05198,
Table 2; Megatron-LM theoretical_memory_usage.py uses 18 + 4·ffn/h); flash/SDPA attention keeps no
s x s score matrix, which removes their 5·a·s/h term.
"""

from __future__ import annotations

from ..models.types import Architecture

ACT_BYTES = 2  # bf16/fp16 activations


def attention_width(arch: Architecture) -> int:
    """Elements per token of q, k, v and the attention output (what o_proj reads)."""
    if arch.mla is not None:
        mla = arch.mla
        qk = mla.qk_nope_head_dim + mla.qk_rope_head_dim
        return arch.num_heads * (2 * qk + 2 * mla.v_head_dim)
    return 2 * arch.q_width + 2 * arch.kv_width


def layer_saved_per_token(arch: Architecture) -> int:
    """Bytes one layer keeps per token for the backward pass (nothing recomputed)."""
    h = arch.hidden_size
    return ACT_BYTES * (4 * h + attention_width(arch) + 3 * arch.mlp_active_width)


def layer_peak_per_token(arch: Architecture) -> int:
    """Bytes live at once per token while one layer runs forward (inference prefill)."""
    h = arch.hidden_size
    return ACT_BYTES * (2 * h + max(attention_width(arch), 3 * arch.mlp_active_width))


def eager_scores_per_token(arch: Architecture, sequence: int) -> int:
    """Attention probabilities one token keeps per layer without flash/SDPA attention: transformers'
    eager attention takes the softmax in fp32 and casts it back to 16 bits
    (softmax(..., dtype=torch.float32).to(query.dtype)), 4 + 2 bytes per head and key position."""
    return 6 * arch.num_heads * sequence


def checkpoint_per_token(arch: Architecture) -> int:
    """Bytes per token that full activation checkpointing keeps for every layer: its input."""
    return ACT_BYTES * arch.hidden_size


def training_activations(
    arch: Architecture,
    tokens: int,
    *,
    checkpointing: bool,
    logit_bytes: int,
    sequence: int,
    flash_attention: bool = True,
) -> tuple[int, int]:
    """(layer activations, logits) in bytes for `tokens` tokens (sequences of `sequence`) on one
    device.

    With checkpointing every layer keeps its input and one layer at a time is recomputed;
    without, every layer keeps everything. The logits and their gradient come on top.
    """
    layer = layer_saved_per_token(arch)
    if not flash_attention:
        layer += eager_scores_per_token(arch, sequence)
    if checkpointing:
        layers = arch.num_layers * checkpoint_per_token(arch) + layer
    else:
        layers = arch.num_layers * layer
    return layers * tokens, logit_bytes * arch.vocab_size * tokens

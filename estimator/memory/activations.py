"""Activation memory: the prefill peak of inference and what training keeps for the backward pass.

What training keeps is counted tensor by tensor in layer_saved_per_token, after Korthikanti et al.
2022 (arXiv:2205.05198, Table 2: 34·h bytes per token and layer for a GPT layer with dropout
masks); flash/SDPA attention keeps no s x s score matrix, which removes their 5·a·s/h term.
"""

from __future__ import annotations

from ..frameworks.kernels import EAGER
from ..frameworks.profile import Kernels
from ..models.types import Architecture

ACT_BYTES = 2  # bf16/fp16 activations


def attention_width(arch: Architecture) -> int:
    """Elements per token of q, k, v and the attention output (what o_proj reads)."""
    if arch.mla is not None:
        mla = arch.mla
        qk = mla.qk_nope_head_dim + mla.qk_rope_head_dim
        return arch.num_heads * (2 * qk + 2 * mla.v_head_dim)
    return 2 * arch.q_width + 2 * arch.kv_width


def layer_saved_per_token(
    arch: Architecture,
    kernels: Kernels = EAGER,
    *,
    attention_trained: bool = True,
    mlp_trained: bool = True,
    norms_trained: bool = True,
    adapters: bool = False,
) -> int:
    """Bytes one decoder layer keeps per token for the backward pass (nothing recomputed).

    Always kept, because gradients flow through them to earlier layers: both norms' saved inputs
    (kernels.norm_bytes per hidden unit each, more when their scales train), q, k, v after RoPE
    and the attention output, and
    the gated activation's MLP-width tensors. A linear layer keeps its input only when its weight
    (full fine-tuning) or its LoRA adapter needs a gradient: the normalised hidden state before
    q/k/v and before gate/up (2h each), the product before down_proj (MLP width). Under
    torch.compile the partitioner keeps kernels.compile_share of that.
    """
    h = arch.hidden_size
    m = arch.mlp_active_width
    norm = kernels.norm_bytes + (kernels.norm_weight_bytes if norms_trained else 0)
    kept = 2 * norm * h + ACT_BYTES * attention_width(arch)
    kept += ACT_BYTES * kernels.mlp_tensors * m
    if attention_trained:
        kept += ACT_BYTES * h
    if mlp_trained:
        recomputed = adapters and kernels.lora_mlp_recomputes
        kept += ACT_BYTES * (h if recomputed else h + m)
    return round(kept * kernels.compile_share)


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

"""The cross-entropy over the vocabulary: what each implementation holds at its peak.

The peak of the loss comes while every checkpoint (or every layer's activations) is still alive,
just before the backward pass reaches the decoder layers, so the plan adds it to them.

- unfused (transformers' ForCausalLMLoss, torchtune without chunking): bf16 logits upcast to
  fp32, log-softmax kept in fp32 (4), and in the backward its gradient (4) and the logits'
  gradient (4): 12 bytes per vocabulary entry and token. The slope of the Qwen LoRA rows between
  256 and 8192 tokens (GT019-GT020, GT024-GT026) is 12.0.
- chunked (torchtune CEWithChunkedOutputLoss, 8 chunks): the output projection writes bf16
  logits per chunk and each chunk is upcast on its own. Compiled (compile_loss compiles
  compute_cross_entropy), the bf16 logits of every chunk are what the backward keeps (2 bytes),
  plus one chunk's fp32 gradient and bf16 copy (4 + 2). Eager, every chunk's fp32 log-softmax is
  kept (4) next to the bf16 chunks the forward still holds (2).
- fused_linear (Liger LigerFusedLinearCrossEntropyLoss): the lm_head and the loss run chunk by
  chunk in the forward, writing the gradient of the hidden states (bf16, 2 bytes per hidden unit
  and token) and the chunk's logits in bf16, chunk_size = next_power_of_2(ceil(BT / ceil(V / H)))
  tokens (liger_kernel/ops/fused_linear_cross_entropy.py).
- fused_chunked (Unsloth unsloth_fused_ce_loss, unsloth_zoo/fused_losses/cross_entropy_loss.py):
  the same in chunks whose fp32 logits stay under a target, min(4 GiB, half the free memory)
  ("target_gb specifies the max GB memory the fused loss can use"); the number of chunks is the
  fp32 logits over the target, rounded up to a multiple of 4, or 1 when they fit at once.
"""

from __future__ import annotations

import math

from ..models.types import Architecture
from ..vocabulary import GIB
from .profile import Loss

HF_UNFUSED = Loss("unfused", vocab_bytes=12)
TORCHTUNE_CHUNKED_COMPILED = Loss("chunked", vocab_bytes=2, chunk_bytes=6, chunks=8)
TORCHTUNE_CHUNKED_EAGER = Loss("chunked", vocab_bytes=6, chunks=8)
LIGER_FUSED = Loss("fused_linear")
UNSLOTH_TARGET_BYTES = 4 * GIB
UNSLOTH_FUSED = Loss("fused_chunked", target_bytes=UNSLOTH_TARGET_BYTES)
# Unsloth's fused loss keeps its chunk's logits in fp32 and the gradient of the hidden states in
# the model's 16-bit dtype (grad_inputs = torch.empty_like(hidden_states)).
_FP32 = 4
_BF16 = 2


def liger_chunk_tokens(arch: Architecture, tokens: int) -> int:
    inc = math.ceil(arch.vocab_size / arch.hidden_size)
    return min(tokens, 1 << max(0, math.ceil(tokens / inc) - 1).bit_length())


def unsloth_chunks(arch: Architecture, tokens: int, target: int) -> int:
    exact = _FP32 * arch.vocab_size * tokens / max(1, target)
    if exact <= 1.0:
        return 1
    return math.ceil(exact / 4) * 4


def loss_bytes(loss: Loss, arch: Architecture, tokens: int, free: int | None = None) -> int:
    """Bytes the loss holds at its peak for `tokens` tokens on one device. `free` is what the
    device has left beside the loss (Unsloth sizes its chunks to half of it)."""
    vocab = arch.vocab_size
    if loss.kind == "unfused":
        return round(loss.vocab_bytes * vocab * tokens)
    if loss.kind == "chunked":
        chunk = math.ceil(tokens / loss.chunks)
        return round(loss.vocab_bytes * vocab * tokens + loss.chunk_bytes * vocab * chunk)
    grad_inputs = _BF16 * tokens * arch.hidden_size
    if loss.kind == "fused_linear":
        return grad_inputs + _BF16 * liger_chunk_tokens(arch, tokens) * vocab
    target = loss.target_bytes
    if free is not None:
        target = max(1, min(target, free // 2))
    chunk = math.ceil(tokens / unsloth_chunks(arch, tokens, target))
    return grad_inputs + _FP32 * chunk * vocab

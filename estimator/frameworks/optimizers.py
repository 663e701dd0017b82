"""Optimizer states and step temporaries per trainable parameter.

AdamW keeps two moments in the dtype of what it updates (torch.optim.AdamW: fp32 masters or
fp32 adapters 2 x 4 bytes, pure bf16 training 2 x 2). bitsandbytes' paged 32-bit AdamW keeps two
fp32 moments in CUDA managed memory, its 8-bit optimizers one byte per moment (block scales,
4 bytes per 2048 values, are negligible). SGD with momentum keeps one value; Adafactor factored
second moments (estimator/memory/training.py counts those per matrix).

The step itself: the fused AdamW kernel (torch.optim.AdamW(fused=True), transformers'
"adamw_torch_fused", its default from torch 2.8) updates in place; the foreach implementation
(torch.optim.AdamW's default, transformers' "adamw_torch") builds torch._foreach_sqrt of every
second moment at once, one more copy of the states' width (torch/optim/adamw.py
_multi_tensor_adamw; PyTorch optim docs: foreach "uses more peak memory ... intermediates are a
tensorlist").
"""

from __future__ import annotations

PAGED = frozenset({"paged_adamw", "paged_adamw_8bit"})
# bitsandbytes' optimizers: CUDA kernels, with its other backends for GPUs (ROCm, Intel); its
# installation guide lists macOS support as work in progress.
BITSANDBYTES = frozenset({"adamw_8bit", *PAGED})


def optimizer_bytes(name: str, param_bytes: float) -> float:
    """Bytes of optimizer state per trainable parameter whose optimizer sees `param_bytes`-wide
    values."""
    return {
        "adamw": 2 * param_bytes,
        "adamw_foreach": 2 * param_bytes,
        "paged_adamw": 8.0,
        "adamw_8bit": 2.0,
        "paged_adamw_8bit": 2.0,
        "sgd": param_bytes,
        "adafactor": 0.0,
    }[name]


def step_bytes(name: str, param_bytes: float) -> float:
    """Bytes per trainable parameter the optimizer step allocates on top of its states."""
    return param_bytes if name == "adamw_foreach" else 0.0

"""Layer kernels and torch.compile: what each keeps of a decoder layer for the backward pass.

Eager PyTorch (transformers, torchtune): RMSNorm upcasts to fp32 and keeps that upcast for pow()
and the multiply (4 bytes per hidden unit), and the normalised bf16 tensor when its scale trains;
SiLU(gate) * up keeps gate, SiLU(gate) and up (transformers LlamaRMSNorm / LlamaMLP, torchtune
RMSNorm / FeedForward).

Fused Triton kernels (Liger: liger_kernel/ops/rms_norm.py saves X and RSTD, ops/swiglu.py saves
a and b; Unsloth: kernels/rms_layernorm.py and kernels/swiglu.py the same) keep the norm's bf16
input and the SwiGLU's two inputs; Unsloth's LoRA MLP (kernels/fast_lora.py) also recomputes the
product down_proj's adapter reads.

torch.compile (inductor's min-cut partitioner) recomputes cheap pointwise work in the backward.
COMPILE_SHARE is fitted on torchtune's cumulative table (README "Optimization flags", commit
1814feb): adding compile to the packed, unchunked, uncheckpointed Llama 3.2 3B run (NG013 ->
NG014) saved 9.0 GiB of its 30.06 GB of eager layer activations: 1 - 9.66 GB / 30.06 GB = 0.68.
"""

from __future__ import annotations

from dataclasses import replace

from .profile import Kernels

COMPILE_SHARE = 0.68

EAGER = Kernels("eager", norm_bytes=4, norm_weight_bytes=2, mlp_tensors=3)
FUSED = Kernels("fused", norm_bytes=2, norm_weight_bytes=0, mlp_tensors=2, norm_keeps_input=True)
UNSLOTH = Kernels(
    "unsloth",
    norm_bytes=2,
    norm_weight_bytes=0,
    mlp_tensors=2,
    lora_mlp_recomputes=True,
    norm_keeps_input=True,
)


def compiled(kernels: Kernels) -> Kernels:
    return replace(kernels, name=f"{kernels.name}+compile", compile_share=COMPILE_SHARE)

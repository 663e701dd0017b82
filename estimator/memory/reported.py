"""What the memory figure means, as each tool would show it for one device.

- allocated: torch.cuda.max_memory_allocated(): the tensors alive at the peak. This is the
  estimate's per-device total without CUDA managed memory (bitsandbytes' paged optimizer states
  live there, outside the caching allocator, so no torch counter sees them).
  torchtune's "peak memory active" (memory_stats active_bytes.all.peak) equals it to within
  blocks being freed on another stream.
- reserved: torch.cuda.max_memory_reserved(): what the caching allocator holds. It rounds blocks
  up and cannot reuse freed blocks of the wrong size, which costs in proportion to the transient
  allocations that come once a step (the loss's vocabulary-sized tensors, buffers) rather than to
  the states allocated once. A checkpointed layer's recomputation is not among them: every layer
  allocates the same shapes, so the blocks one layer's backward frees serve the next.
- device total: what nvidia-smi shows: the reserve, managed memory, the CUDA context and memory
  that torch does not allocate (NCCL's buffers, cuBLAS/cuDNN handles).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..result import Components
from ..vocabulary import GIB
from .constants import CUDA_CONTEXT_BYTES

# The caching allocator's reserve on top of the allocated peak: a fixed part and a share of the
# allocations that come and go once a step (the loss, buffers), which it cannot always hand to
# the next request of another size. Fitted (median absolute error) on the training rows that
# report reserved memory or nvidia-smi outside the Qwen table: NG001-NG004, NG006, NG010, NG011,
# NG022, NG023, NG025, NG026, NG030-NG038, NG049-NG051, LF001-LF019
# (estimator/calibration/training_rows.py): 5.1% median over those rows; 0.5 GiB and 0.5 reach
# 4.2%, within the rows' rounding of whole GB, so the earlier fit stays.
RESERVE_FIXED_BYTES = round(0.6 * GIB)
RESERVE_SHARE = 0.3
# Memory outside torch's allocator on a GPU: vLLM's profiler logs 0.13-0.14 GiB "non-torch" on
# one H100 and 0.54-0.55 GiB with tensor parallel 2, where NCCL's communicator buffers come in
# (llm-d empirical vLLM memory table, vLLM 0.11: NG104-NG115).
NON_TORCH_BYTES = round(0.13 * GIB)
NCCL_BYTES = round(0.41 * GIB)


@dataclass(frozen=True, slots=True)
class Views:
    allocated: int
    reserved: int
    device_total: int


def views(
    parts: Components,
    *,
    kind: str,
    gpus: int,
    transient: int,
    managed: int = 0,
    floor: int = 0,
) -> Views:
    """The three figures for one device. `transient` is what comes and goes within a step;
    `floor` is memory an engine takes whatever it needs (vLLM's gpu_memory_utilization share)."""
    total = parts.total
    if kind != "gpu":
        return Views(total, total, total)
    allocated = total - managed
    reserved = allocated + RESERVE_FIXED_BYTES + round(RESERVE_SHARE * transient)
    device = reserved + managed + CUDA_CONTEXT_BYTES + NON_TORCH_BYTES
    if gpus > 1:
        device += NCCL_BYTES
    return Views(allocated, reserved, max(device, floor))

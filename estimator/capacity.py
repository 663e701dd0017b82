"""How much of a device's memory a workload may use, and the verdict against it.

The engines (estimator/engines/) decide which rule applies to them: a GPU less the GPU runtime's
context and the desktop's share, optionally after an engine's own utilisation cap; Apple's GPU
working-set limit; a CPU machine's RAM less what the operating system keeps.
"""

from __future__ import annotations

from .hardware.types import Machine
from .memory import constants as k
from .result import Note
from .vocabulary import GIB, Verdict


def host_usable(machine: Machine) -> tuple[int, list[Note]]:
    """Usable unified memory of an Apple machine, or RAM of a CPU-only one."""
    if machine.kind == "apple":
        small = machine.device_bytes <= k.APPLE_SMALL_LIMIT_GB * GIB
        fraction = k.APPLE_SMALL_FRACTION if small else k.APPLE_LARGE_FRACTION
        return round(machine.device_bytes * fraction), [
            Note("apple_working_set", {"fraction": fraction})
        ]
    return max(0, machine.device_bytes - k.OS_RESERVE_BYTES), [
        Note("os_reserve", {"bytes": k.OS_RESERVE_BYTES})
    ]


# What the runtime that holds the context is called on each vendor's GPUs (the note's key):
# CUDA on NVIDIA, ROCm's HIP on AMD, Level Zero under SYCL and PyTorch's XPU on Intel.
_CONTEXT_NOTE = {"NVIDIA": "cuda_context", "AMD": "rocm_context", "Intel": "level_zero_context"}


def gpu_usable(machine: Machine, index: int, capacity: int) -> tuple[int, list[Note]]:
    """`capacity` bytes of GPU `index` less the GPU runtime's context and, on the first GPU of a
    desktop card, the display's share."""
    notes: list[Note] = []
    usable = capacity - k.CUDA_CONTEXT_BYTES
    card = machine.cards[index] if machine.cards else machine.gpu
    if index == 0:
        key = _CONTEXT_NOTE.get(card.vendor, "gpu_context") if card is not None else "gpu_context"
        notes.append(Note(key, {"bytes": k.CUDA_CONTEXT_BYTES}))
    if index == 0 and card is not None and card.drives_display:
        usable -= k.DISPLAY_SHARE_BYTES
        notes.append(Note("display_share", {"bytes": k.DISPLAY_SHARE_BYTES}))
    return max(0, usable), notes


def ram_usable(machine: Machine) -> int | None:
    """RAM a GPU machine can lend for offload, None when the question did not say."""
    if machine.ram_bytes is None or machine.kind != "gpu":
        return None
    return max(0, machine.ram_bytes - k.OS_RESERVE_BYTES)


def fit_verdict(totals: list[int], usable: list[int]) -> tuple[Verdict, float]:
    """fits / tight / does_not_fit for per-device totals, and the smallest headroom share."""
    headroom = min((u - t) / u if u else -1.0 for t, u in zip(totals, usable, strict=True))
    if headroom < 0:
        return "does_not_fit", headroom
    return ("tight" if headroom < k.TIGHT_HEADROOM else "fits"), headroom

"""How much of a device's memory a workload may use, and the verdict against it."""

from __future__ import annotations

from .hardware.types import Machine
from .memory import constants as k
from .result import Note
from .vocabulary import GIB


def usable_bytes(
    machine: Machine, engine: str, utilization: float, index: int
) -> tuple[int, list[Note]]:
    """Usable bytes of device `index` and the assumptions behind them."""
    notes: list[Note] = []
    if machine.kind == "apple":
        small = machine.device_bytes <= k.APPLE_SMALL_LIMIT_GB * GIB
        fraction = k.APPLE_SMALL_FRACTION if small else k.APPLE_LARGE_FRACTION
        notes.append(Note("apple_working_set", {"fraction": fraction}))
        return round(machine.device_bytes * fraction), notes
    if machine.kind == "cpu":
        notes.append(Note("os_reserve", {"bytes": k.OS_RESERVE_BYTES}))
        return max(0, machine.device_bytes - k.OS_RESERVE_BYTES), notes
    usable = machine.device_bytes
    if engine == "vllm":
        usable = int(usable * utilization)
        notes.append(Note("vllm_utilization", {"utilization": utilization}))
    usable -= k.CUDA_CONTEXT_BYTES
    if index == 0:
        notes.append(Note("cuda_context", {"bytes": k.CUDA_CONTEXT_BYTES}))
    if index == 0 and machine.gpu is not None and machine.gpu.drives_display:
        usable -= k.DISPLAY_SHARE_BYTES
        notes.append(Note("display_share", {"bytes": k.DISPLAY_SHARE_BYTES}))
    return max(0, usable), notes


def ram_usable(machine: Machine) -> int | None:
    """RAM a GPU machine can lend for offload, None when the question did not say."""
    if machine.ram_bytes is None or machine.kind != "gpu":
        return None
    return max(0, machine.ram_bytes - k.OS_RESERVE_BYTES)


def fit_verdict(totals: list[int], usable: list[int]) -> tuple[str, float]:
    """fits / tight / does_not_fit for per-device totals, and the smallest headroom share."""
    headroom = min((u - t) / u if u else -1.0 for t, u in zip(totals, usable, strict=True))
    if headroom < 0:
        return "does_not_fit", headroom
    return ("tight" if headroom < k.TIGHT_HEADROOM else "fits"), headroom

"""A saved hardware profile as the slots a message would fill."""

from __future__ import annotations

from storage.schemas import HardwareSpec

from .slots import Draft


def profile_draft(spec: HardwareSpec) -> Draft:
    """A saved hardware profile as the slots a message would fill."""
    apple = (
        f"{spec.apple_chip} {spec.apple_memory_gb}GB"
        if spec.apple_chip and spec.apple_memory_gb
        else None
    )
    has_gpu = bool(spec.gpu or spec.gpu_memory_gb)
    return Draft(
        gpu=spec.gpu,
        gpus=spec.gpu_count if spec.gpu_count > 1 else None,
        gpu_memory_gb=None if spec.gpu else spec.gpu_memory_gb,
        ram_gb=spec.ram_gb,
        apple=apple,
        cpu_only=True if not has_gpu and not apple and spec.ram_gb else None,
    )

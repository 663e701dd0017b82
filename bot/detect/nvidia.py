"""NVIDIA GPUs through NVML (nvidia-ml-py's `pynvml`, imported only here): each device's name
and its total and free memory, as nvidia-smi shows them (it reads the same library)."""

from __future__ import annotations

from .readings import GpuReading


def read() -> tuple[list[GpuReading], str | None]:
    """The NVIDIA GPUs, and why none could be read (no driver, no library) or None."""
    try:
        import pynvml  # type: ignore[import-untyped]  # nvidia-ml-py ships no type hints
    except ImportError:
        return [], "nvidia-ml-py is not installed"
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError as exc:
        return [], str(exc)
    try:
        return [_device(pynvml, i) for i in range(pynvml.nvmlDeviceGetCount())], None
    except pynvml.NVMLError as exc:
        return [], str(exc)
    finally:
        pynvml.nvmlShutdown()


def _device(pynvml: object, index: int) -> GpuReading:
    handle = pynvml.nvmlDeviceGetHandleByIndex(index)  # type: ignore[attr-defined]
    name = pynvml.nvmlDeviceGetName(handle)  # type: ignore[attr-defined]
    memory = pynvml.nvmlDeviceGetMemoryInfo(handle)  # type: ignore[attr-defined]
    return reading(name.decode() if isinstance(name, bytes) else name, memory.total, memory.free)


def reading(name: str, total_bytes: int, free_bytes: int) -> GpuReading:
    return GpuReading(vendor="nvidia", name=name, total_bytes=total_bytes, free_bytes=free_bytes)

"""What the detectors read, in bytes, before it becomes a hardware profile."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, slots=True)
class GpuReading:
    vendor: Literal["nvidia", "amd"]
    name: str  # as the driver reports it: "NVIDIA GeForce RTX 4090", "Radeon RX 7900 XT"
    total_bytes: int
    free_bytes: int | None


@dataclass(frozen=True, slots=True)
class AppleReading:
    chip: str  # machdep.cpu.brand_string: "Apple M3 Max"
    memory_bytes: int  # hw.memsize: the unified memory
    # iogpu.wired_limit_mb when someone raised (or lowered) it; None for macOS's default.
    wired_limit_bytes: int | None


@dataclass(frozen=True, slots=True)
class HostReading:
    ram_total_bytes: int
    ram_available_bytes: int | None
    cpu: str | None
    physical_cores: int | None
    logical_cores: int | None


@dataclass(frozen=True, slots=True)
class Detected:
    gpus: tuple[GpuReading, ...]
    apple: AppleReading | None
    host: HostReading
    # Why NVIDIA's library could not be read ("NVML Shared Library Not Found"), when it could not.
    nvidia_unread: str | None = None

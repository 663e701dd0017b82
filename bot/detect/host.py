"""RAM and CPU through psutil, and the CPU's name from where each system keeps it."""

from __future__ import annotations

import platform
from pathlib import Path

from .readings import AppleReading, HostReading

CPUINFO = Path("/proc/cpuinfo")


def read(apple: AppleReading | None = None) -> HostReading:
    import psutil  # type: ignore[import-untyped]  # no type hints without types-psutil

    memory = psutil.virtual_memory()
    return HostReading(
        ram_total_bytes=memory.total,
        ram_available_bytes=memory.available,
        cpu=apple.chip if apple is not None else _cpu_name(),
        physical_cores=psutil.cpu_count(logical=False),
        logical_cores=psutil.cpu_count(logical=True),
    )


def _cpu_name() -> str | None:
    if platform.system() == "Linux":
        try:
            return cpu_from_cpuinfo(CPUINFO.read_text(errors="replace"))
        except OSError:
            return None
    return platform.processor() or None


def cpu_from_cpuinfo(text: str) -> str | None:
    """The first "model name" of /proc/cpuinfo (x86), else its "Model" line (many ARM boards)."""
    fields: dict[str, str] = {}
    for line in text.splitlines():
        name, sep, value = line.partition(":")
        if sep and value.strip():
            fields.setdefault(name.strip().lower(), " ".join(value.split()))
    return fields.get("model name") or fields.get("model") or None

"""AMD GPUs through ROCm SMI, where it is installed:
`rocm-smi --showproductname --showmeminfo vram --csv`, one line per card."""

from __future__ import annotations

import csv
import io
import shutil
import subprocess

from .readings import GpuReading

COMMAND = ["rocm-smi", "--showproductname", "--showmeminfo", "vram", "--csv"]
TIMEOUT_S = 10


def read() -> list[GpuReading]:
    if shutil.which(COMMAND[0]) is None:
        return []
    try:
        done = subprocess.run(COMMAND, capture_output=True, text=True, timeout=TIMEOUT_S)
    except (OSError, subprocess.SubprocessError):
        return []
    return parse(done.stdout) if done.returncode == 0 else []


def parse(text: str) -> list[GpuReading]:
    """The cards of rocm-smi's CSV (header line first; the card series names the card, the
    VRAM columns are bytes)."""
    start = text.find("device,")
    if start < 0:
        return []
    found = []
    for row in csv.DictReader(io.StringIO(text[start:])):
        total = _int(row.get("VRAM Total Memory (B)"))
        if total is None:
            continue
        used = _int(row.get("VRAM Total Used Memory (B)"))
        name = (
            row.get("Card Series") or row.get("Card series") or row.get("Card Model") or ""
        ).strip()
        found.append(
            GpuReading(
                vendor="amd",
                name=name or "AMD GPU",
                total_bytes=total,
                free_bytes=None if used is None else max(0, total - used),
            )
        )
    return found


def _int(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None

"""An Apple chip through sysctl: its name, the unified memory, and the GPU working-set limit
when it was set with `sysctl iogpu.wired_limit_mb` (macOS Sonoma and later; 0 is the default,
under which Metal's recommendedMaxWorkingSetSize applies)."""

from __future__ import annotations

import subprocess

from estimator.vocabulary import MIB

from .readings import AppleReading

KEYS = ["machdep.cpu.brand_string", "hw.memsize", "iogpu.wired_limit_mb"]
TIMEOUT_S = 10


def read() -> AppleReading | None:
    try:
        # An unknown key (iogpu before Sonoma) is an error on stderr; the others still print.
        done = subprocess.run(["sysctl", *KEYS], capture_output=True, text=True, timeout=TIMEOUT_S)
    except (OSError, subprocess.SubprocessError):
        return None
    return parse(done.stdout)


def values(text: str) -> dict[str, str]:
    """sysctl's "name: value" lines."""
    found = {}
    for line in text.splitlines():
        name, sep, value = line.partition(":")
        if sep:
            found[name.strip()] = value.strip()
    return found


def parse(text: str) -> AppleReading | None:
    found = values(text)
    chip = found.get("machdep.cpu.brand_string", "")
    memory = found.get("hw.memsize", "")
    if not chip.startswith("Apple ") or not memory.isdigit():
        return None
    limit = found.get("iogpu.wired_limit_mb", "0")
    return AppleReading(
        chip=chip,
        memory_bytes=int(memory),
        wired_limit_bytes=int(limit) * MIB if limit.isdigit() and int(limit) > 0 else None,
    )

"""The hardware of an answer in words: "2x GeForce RTX 3090", or a mixed set as the machine
names it ("2x GeForce RTX 3090 + GeForce RTX 3060 12GB", its counts already in it)."""

from __future__ import annotations

MIXED = " + "


def label(machine: str, gpu_count: int) -> str:
    if gpu_count > 1 and MIXED not in machine:
        return f"{gpu_count}x {machine}"
    return machine

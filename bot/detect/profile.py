"""A detected machine as a hardware profile (what a saved profile holds), and as the words a
question would use for it ("2x GeForce RTX 4090, 62.5GB RAM")."""

from __future__ import annotations

from dataclasses import dataclass

from estimator.errors import EstimatorError
from estimator.hardware.catalog import apple_config, find_gpu
from estimator.hardware.types import Gpu
from estimator.vocabulary import GIB
from storage.checks import LABEL_MAX
from storage.schemas import HardwareSpec

from .readings import Detected, GpuReading

# Integrated graphics report their firmware carve-out as VRAM: rocm-smi lists a Ryzen 7000's
# Radeon (Raphael) with 67,108,864 B beside the real card (mudler/LocalAI PR #7761). No card
# that runs a language model has under 2 GiB.
MIN_GPU_BYTES = 2 * GIB
# How far a driver's total may lie from the catalog's size for the same card: nvidia-smi shows
# 81,559 MiB (79.6 GiB) on an H100 80GB and 23,028 MiB (22.5 GiB) on an A10 24GB
# (modal-labs/modal-client PR #2797).
SIZE_TOLERANCE = 0.1
# Cards of one set whose memory differs by at most this share are counted as one kind.
SAME_SIZE = 0.05
# NVML names that do not say the variant the catalog names: the H100 with HBM3 is the SXM5 card
# (the PCIe card has HBM2e and reports "H100 PCIe"; NVIDIA H100 Tensor Core GPU datasheet).
ALIASES = {"H100 80GB HBM3": "H100 SXM5 80GB"}
_VENDORS = ("NVIDIA ", "AMD ")


@dataclass(frozen=True, slots=True)
class Profile:
    spec: HardwareSpec
    gpus: tuple[GpuReading, ...]  # the cards it counts
    # Cards it cannot hold: an unknown card of another size beside the ones it counts.
    left_out: tuple[GpuReading, ...]


def catalog_gpu(reading: GpuReading) -> Gpu | None:
    """The catalog card a driver's name and memory describe, if the catalog has it."""
    name = reading.name
    for vendor in _VENDORS:
        name = name.removeprefix(vendor)
    name = ALIASES.get(name, name)
    gib = reading.total_bytes / GIB
    for words in (f"{name} {round(gib)}GB", name):
        try:
            gpu = find_gpu(words)
        except EstimatorError:
            gpu = None
        if gpu is not None and abs(gpu.memory_gib - gib) <= SIZE_TOLERANCE * gpu.memory_gib:
            return gpu
    return None


def profile(detected: Detected) -> Profile:
    host = detected.host
    cpu = host.cpu[:LABEL_MAX] if host.cpu else None
    ram_gb = round(host.ram_total_bytes / GIB, 1)
    if detected.apple is not None:
        chip = detected.apple.chip.removeprefix("Apple ")
        try:
            found = apple_config(chip, round(detected.apple.memory_bytes / GIB))
        except EstimatorError:
            found = None
        if found is not None:
            spec = HardwareSpec(apple_chip=found[0].chip, apple_memory_gb=found[1])
            return Profile(spec, (), ())
    cards = [g for g in detected.gpus if g.total_bytes >= MIN_GPU_BYTES]
    if not cards:
        return Profile(HardwareSpec(ram_gb=ram_gb, cpu=cpu), (), ())
    kinds: dict[str, list[GpuReading]] = {}
    for card in cards:
        gpu = catalog_gpu(card)
        kinds.setdefault(gpu.name if gpu else f"{card.total_bytes / GIB:.1f}", []).append(card)
    named = {name: catalog_gpu(group[0]) for name, group in kinds.items()}
    if len(kinds) > 1 and all(named.values()):
        # A set of different catalog cards ("2x RTX 3090 + RTX 3060 12GB"), the largest first.
        order = sorted(kinds, key=lambda name: -named[name].memory_gib)  # type: ignore[union-attr]
        spec = HardwareSpec(
            gpu=" + ".join(f"{len(kinds[n])}x {n}" if len(kinds[n]) > 1 else n for n in order),
            gpu_count=len(cards),
            gpu_memory_gb=max(g.memory_gib for g in named.values() if g),
            ram_gb=ram_gb,
            cpu=cpu,
        )
        return Profile(spec, tuple(cards), ())
    smallest = min(c.total_bytes for c in cards)
    if len(kinds) > 1 and max(c.total_bytes for c in cards) <= smallest * (1 + SAME_SIZE):
        # Cards of one size, not all in the catalog: for memory, that many of the smaller.
        spec = HardwareSpec(
            gpu_count=len(cards), gpu_memory_gb=_gb(smallest), ram_gb=ram_gb, cpu=cpu
        )
        return Profile(spec, tuple(cards), ())
    chosen = max(kinds.values(), key=lambda group: sum(c.total_bytes for c in group))
    gpu = catalog_gpu(chosen[0])
    spec = HardwareSpec(
        gpu=gpu.name if gpu else None,
        gpu_count=len(chosen),
        gpu_memory_gb=gpu.memory_gib if gpu else _gb(chosen[0].total_bytes),
        ram_gb=ram_gb,
        cpu=cpu,
    )
    return Profile(spec, tuple(chosen), tuple(c for c in cards if c not in chosen))


def words(spec: HardwareSpec) -> str:
    """The hardware as a question names it, in words the question parser reads back."""
    ram = f", {spec.ram_gb:g}GB RAM" if spec.ram_gb else ""
    if spec.apple_chip:
        return f"{spec.apple_chip} {spec.apple_memory_gb}GB"
    if spec.gpu:
        mixed = "+" in spec.gpu  # a mixed set names its counts itself
        count = f"{spec.gpu_count}x " if spec.gpu_count > 1 and not mixed else ""
        return f"{count}{spec.gpu}{ram}"
    if spec.gpu_count:
        memory = f"{spec.gpu_memory_gb:g}GB"
        cards = f"a {memory} GPU" if spec.gpu_count == 1 else f"{spec.gpu_count} GPUs of {memory}"
        return f"{cards}{ram}"
    return f"CPU{ram}"


def _gb(total_bytes: int) -> float:
    return round(total_bytes / GIB, 1)

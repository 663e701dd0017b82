"""Finding hardware in the packaged catalogs by the names people use."""

from __future__ import annotations

from functools import lru_cache

from ..errors import EstimatorError
from ..names import NameIndex
from .data import apple_chips, cpu_platforms, gpus
from .reader import read_hardware
from .types import AppleChip, CpuPlatform, Gpu


@lru_cache(maxsize=4096)
def find_gpu(text: str) -> Gpu | None:
    """The catalog GPU `text` names ("4090", "rtx 4090", "4090 laptop", "a100 80gb"), or None
    when it names none or several kinds."""
    for gpu in gpus():
        if gpu.name == text:
            return gpu
    mention, _ = read_hardware(text)
    cards = mention.cards
    return cards[0].gpu if len(cards) == 1 and len(mention.options) == 1 else None


def apple_config(chip: str, memory_gb: float | None) -> tuple[AppleChip, int]:
    """The variant of `chip` that comes with `memory_gb` and that memory in GB, or of its Pro or
    Max when only they come with it; with no memory said, the smallest configuration, so a
    "fits" is never too optimistic."""
    variants = [c for c in apple_chips() if c.chip == chip]
    if memory_gb is not None:
        gb = round(memory_gb)
        # "MacBook Pro M3 18GB" is the M3 Pro: a memory only the Pro or Max of the generation
        # comes with names it (the caller notes the change of chip).
        siblings = [c for c in apple_chips() if c.chip in (f"{chip} Pro", f"{chip} Max")]
        for c in variants + siblings:
            if gb in c.memory_options_gb or gb == c.max_memory_gb:
                return c, gb
        raise EstimatorError(
            "apple_memory_not_offered",
            chip=chip,
            memory_gb=gb,
            options=sorted({o for c in variants for o in c.memory_options_gb}),
        )
    smallest = min(variants, key=lambda c: min(c.memory_options_gb))
    return smallest, min(smallest.memory_options_gb)


@lru_cache(maxsize=1024)
def cpu_named(text: str) -> CpuPlatform | None:
    """The CPU platform or device `text` names ("epyc genoa", "dual xeon", "ddr5-6000",
    "ryzen 9 7950x", "raspberry pi 5"), or None."""
    for cpu in cpu_platforms():
        if cpu.name == text:
            return cpu
    mention, _ = read_hardware(text)
    if mention.cpu is not None:
        return mention.cpu.platform
    return _cpu_index().find(text)


def find_cpu(text: str) -> CpuPlatform:
    """A CPU memory platform, or EstimatorError with the closest names."""
    found = cpu_named(text)
    if found is None:
        candidates = _cpu_index().candidates(text)
        if candidates:
            return candidates[0]
        raise EstimatorError("unknown_cpu", cpu=text[:60], suggestions=_cpu_index().suggest(text))
    return found


@lru_cache(maxsize=1)
def _cpu_index() -> NameIndex[CpuPlatform]:
    index: NameIndex[CpuPlatform] = NameIndex(frozenset({"dual", "channel", "desktop", "socket"}))
    for cpu in cpu_platforms():
        index.add(cpu, cpu.name, [cpu.platforms, *cpu.aliases])
    return index

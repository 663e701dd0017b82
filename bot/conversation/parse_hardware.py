"""The hardware a message names, as Draft slots: the catalog-driven hardware reader's mention
(estimator.hardware.reader) turned into gpu, gpus, gpu_memory_gb, ram_gb, apple, cpu, cpu_only
and laptop.

`gpu` holds words that read back to the same machine: a catalog name, the words as said when a
variant was assumed (so the answer can say which: "h100" is the SXM board), a set joined by
" + " ("2x GeForce RTX 3090 + GeForce RTX 3060"), or an unknown GPU as said (answered with "did
you mean ...?"). Counts and sizes are kept as said, so the answer refuses absurd ones with the
allowed range instead of replacing them.
"""

from __future__ import annotations

import re

from estimator.hardware.mention import Card, HardwareMention
from estimator.hardware.reader import read_hardware

GPU_WORD = re.compile(r"\b(gpu|gpus|gpu's|vram|card|kaart|videokaart|graphics)\b")

__all__ = ["GPU_WORD", "read", "slots"]


def read(
    low: str, *, cpu_only: bool = False, laptop: bool = False
) -> tuple[dict[str, object], str]:
    """The hardware slots of `low` (a normalised message) and the text with what was read
    blanked out; `cpu_only` and `laptop` are what the message's other words say."""
    mention, rest = read_hardware(low)
    return slots(
        mention, cpu_only=cpu_only, laptop=laptop, gpu_word=bool(GPU_WORD.search(low))
    ), rest


def slots(
    mention: HardwareMention,
    *,
    cpu_only: bool = False,
    laptop: bool = False,
    gpu_word: bool = False,
) -> dict[str, object]:
    out: dict[str, object] = {"laptop": (laptop or mention.laptop) or None}
    cards = mention.cards
    if mention.unknown:
        # Never dropped, also not beside a known card: the answer asks "did you mean ...?".
        out["gpu"] = mention.unknown[0].said
    elif cards:
        out["gpu"], count = spec(cards)
        if count == 1 and mention.gpu_count:
            count = mention.gpu_count
        if count != 1:
            out["gpus"] = count
    if mention.apple is not None:
        out["apple"] = mention.apple.spec
    if mention.cpu is not None:
        out["cpu"] = mention.cpu.said
    ram, vram, memory = mention.ram_gb, mention.vram_gb, mention.memory_gb
    if mention.cpu is not None and mention.cpu.ram_gb is not None:
        ram = mention.cpu.ram_gb
    has_gpu = bool(cards or mention.unknown)
    cpu_only = (cpu_only or mention.cpu_only) and not has_gpu and mention.apple is None
    if mention.cpu is not None and not has_gpu and mention.apple is None and vram is None:
        cpu_only = True  # "EPYC Genoa with 512GB": a CPU machine
    if not cards and mention.gpu_count and mention.gpu_count != 1:
        out["gpus"] = mention.gpu_count
    if has_gpu and ram is None and memory is not None:
        ram = memory  # "a 4070 and 32GB memory": the card's memory is known, so this is RAM
    # A laptop is sold by its RAM: "my laptop with 16GB" says how much RAM, not that it has a
    # 16 GB GPU (only the largest laptop GPUs have that much), so the answer asks which GPU.
    laptop_ram = bool(out["laptop"]) and not gpu_word and memory is None
    if mention.apple is None and not has_gpu:
        if cpu_only or laptop_ram or (memory is not None and not gpu_word and vram is None):
            # Plain "16GB memory" on a CPU-only machine or without a GPU word is RAM.
            ram = ram if ram is not None else vram if vram is not None else memory
        else:
            vram = vram if vram is not None else memory
            if vram is not None:
                out["gpu_memory_gb"] = vram
    if cpu_only:
        out["cpu_only"] = True
    if ram is not None:
        out["ram_gb"] = ram
    if mention.data_gb is not None:
        out["data_gb"] = mention.data_gb
    return out


def spec(cards: tuple[Card, ...]) -> tuple[str, int]:
    """The words for a machine's cards and how many cards there are: one kind with its count
    apart ("H100 SXM5 80GB", 8), or a set with each count in the words ("2x GeForce RTX 3090 +
    GeForce RTX 3060", 3)."""
    if len(cards) == 1:
        return cards[0].spec, cards[0].count or 1
    words = " + ".join(f"{c.count}x {c.spec}" if (c.count or 1) > 1 else c.spec for c in cards)
    return words, sum(c.count or 1 for c in cards)

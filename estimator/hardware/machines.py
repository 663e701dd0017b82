"""The machine a question or a command line describes: GPUs (one, several of one kind, or a mixed
set such as "2x 3090 + 3060"), an Apple chip, a CPU platform or a CPU device, plus RAM; with the
assumptions made on the way as notes (a bare "H100" is the SXM board, a T4 shows 15 GiB with ECC).

Values out of range are refused with the range, never replaced ("99999x H100", "-24GB")."""

from __future__ import annotations

from dataclasses import replace

from ..errors import EstimatorError
from ..result import Note
from ..vocabulary import GIB, MAX_GPUS, MAX_MEMORY_GB, MIN_MEMORY_GB
from .lookup import apple_config, find_cpu
from .mention import AppleMention, Card, CpuMention, HardwareMention
from .read_gpus import suggest
from .reader import read_hardware
from .types import CpuPlatform, Gpu, Machine


def machine(
    gpu: str | None = None,
    gpu_memory_gb: float | None = None,
    gpus: int = 1,
    ram_gb: float | None = None,
    cpu: str | None = None,
) -> Machine | None:
    """The machine described by CLI-style inputs; None when no hardware was given. `gpu` is any
    hardware text the reader takes: "RTX 4090", "2x 3090 + 3060", "M3 Max 64GB", "cpu",
    "Raspberry Pi 5 8GB"."""
    _count("gpus", gpus)
    for field, value in (("gpu_memory", gpu_memory_gb), ("ram", ram_gb)):
        if value is not None:
            _memory(field, value)
    platform = find_cpu(cpu) if cpu else None
    if gpu and gpu.strip():
        mention, _ = read_hardware(gpu)
        return machine_of(mention, gpu.strip(), gpu_memory_gb, gpus, ram_gb, platform)
    ram = None if ram_gb is None else round(ram_gb * GIB)
    if gpu_memory_gb is not None:
        memory = round(gpu_memory_gb * GIB)
        name = f"{gpu_memory_gb:g} GB GPU"
        return Machine("gpu", name, memory, gpus, ram, cpu=platform, from_catalog=False)
    if ram is not None:
        return Machine("cpu", "CPU", ram, 1, ram, cpu=platform)
    return None


def machine_of(
    mention: HardwareMention,
    said: str,
    gpu_memory_gb: float | None = None,
    gpus: int = 1,
    ram_gb: float | None = None,
    platform: CpuPlatform | None = None,
) -> Machine:
    """The machine a mention describes; EstimatorError for what it cannot be."""
    if mention.unknown:
        first = mention.unknown[0]
        raise EstimatorError(
            "unknown_gpu", gpu=first.said[:60], suggestions=list(first.suggestions)
        )
    ram_gb = ram_gb if ram_gb is not None else mention.ram_gb
    if ram_gb is not None:
        _memory("ram", ram_gb)
    ram = None if ram_gb is None else round(ram_gb * GIB)
    if platform is None and mention.cpu is not None and not mention.cpu.platform.device:
        platform = mention.cpu.platform
    if mention.cards:
        return _gpus(mention.cards, gpu_memory_gb, gpus, ram, platform)
    if mention.apple is not None:
        return _apple(mention.apple)
    if mention.cpu is not None and mention.cpu.platform.device:
        return _device(mention.cpu, ram_gb)
    if platform is not None and platform.device:
        return _device(CpuMention(platform, platform.name), ram_gb)
    vram = mention.vram_gb if mention.vram_gb is not None else gpu_memory_gb
    if vram is not None and not mention.cpu_only:
        # "a 24GB GPU": a GPU known only by its memory.
        _memory("gpu_memory", vram)
        memory = round(vram * GIB)
        name = f"{vram:g} GB GPU"
        count = mention.gpu_count or gpus
        _count("gpus", count)
        return Machine("gpu", name, memory, count, ram, cpu=platform, from_catalog=False)
    if mention.cpu_only or mention.cpu is not None or said.lower() in ("none", "no gpu"):
        if ram is None:
            raise EstimatorError("cpu_needs_ram")
        return Machine("cpu", "CPU", ram, 1, ram, cpu=platform)
    raise EstimatorError("unknown_gpu", gpu=said[:60], suggestions=suggest(said))


def _gpus(
    cards: tuple[Card, ...],
    gpu_memory_gb: float | None,
    gpus: int,
    ram: int | None,
    platform: CpuPlatform | None,
) -> Machine:
    said_total = sum(c.count or 1 for c in cards)
    for card in cards:
        if card.count is not None:
            _count("gpus", card.count)
    if len(cards) == 1 and cards[0].count is None:
        counts = [gpus]
    elif gpus in (1, said_total):
        counts = [c.count or 1 for c in cards]
    else:
        raise EstimatorError("gpus_conflict", said=said_total, gpus=gpus)
    _count("gpus", sum(counts))
    notes = tuple(n for c in cards for n in _card_notes(c))
    kinds = [
        (_sized(c, gpu_memory_gb if len(cards) == 1 else None), n)
        for c, n in zip(cards, counts, strict=True)
    ]
    if len(kinds) == 1:
        gpu, count = kinds[0]
        return Machine(
            "gpu", gpu.name, gpu.memory_bytes, count, ram, gpu=gpu, cpu=platform, notes=notes
        )
    kinds.sort(key=lambda k: -k[0].memory_bytes)
    physical = tuple(g for g, n in kinds for _ in range(n))
    name = " + ".join(f"{n}x {g.name}" if n > 1 else g.name for g, n in kinds)
    first = physical[0]
    return Machine(
        "gpu",
        name,
        first.memory_bytes,
        len(physical),
        ram,
        gpu=first,
        cpu=platform,
        cards=physical,
        notes=notes,
    )


def _sized(card: Card, gpu_memory_gb: float | None) -> Gpu:
    """The card's GPU with the memory said for it (a 48 GB 3090), else the catalog's."""
    memory = card.memory_gib if card.memory_gib is not None else gpu_memory_gb
    if memory is None:
        return card.gpu
    _memory("gpu_memory", memory)
    return replace(card.gpu, memory_gib=memory, visible_memory_gib=None)


def _card_notes(card: Card) -> list[Note]:
    gpu = card.gpu
    notes = []
    if card.others:
        others = [o.name for o in card.others]
        notes.append(Note("gpu_variant", {"said": card.said, "gpu": gpu.name, "others": others}))
    if card.memory_gib is not None:
        notes.append(
            Note(
                "gpu_memory_said",
                {"gpu": gpu.name, "said_gb": card.memory_gib, "catalog_gb": gpu.memory_gib},
            )
        )
    elif gpu.visible_memory_gib is not None:
        params = {
            "gpu": gpu.name,
            "visible_gib": gpu.visible_memory_gib,
            "memory_gib": gpu.memory_gib,
        }
        notes.append(
            Note("unified_share", params) if gpu.unified else Note("visible_memory", params)
        )
    elif gpu.unified:
        notes.append(Note("unified_memory", {"gpu": gpu.name}))
    return notes


def _apple(apple: AppleMention) -> Machine:
    chip, gb = apple_config(apple.chip.chip, apple.memory_gb)
    notes: tuple[Note, ...] = ()
    if apple.mac is not None:
        said = {"mac": apple.mac, "chip": chip.chip, "memory_gb": gb}
        notes = (Note("apple_chip_assumed", {**said, "bandwidth_gbs": chip.bandwidth_gbs}),)
    elif apple.memory_gb is None:
        notes = (Note("apple_memory_assumed", {"chip": chip.chip, "memory_gb": gb}),)
    elif chip.chip != apple.chip.chip:
        said = {"said": apple.chip.chip, "chip": chip.chip, "memory_gb": gb}
        notes = (Note("apple_sibling_chip", said),)
    return Machine("apple", f"{chip.chip} {gb}GB", gb * GIB, 1, gb * GIB, apple=chip, notes=notes)


def _device(cpu: CpuMention, ram_gb: float | None) -> Machine:
    """A single-board computer or a phone: its RAM is one of the sizes it is sold with."""
    device = cpu.platform
    said = cpu.ram_gb if cpu.ram_gb is not None else ram_gb
    notes: tuple[Note, ...] = ()
    if said is None:
        said = min(device.ram_options_gb)
        options = [f"{o:g}" for o in device.ram_options_gb]
        notes = (
            Note("device_ram_assumed", {"device": device.name, "ram_gb": said, "options": options}),
        )
    elif not any(abs(said - o) < 0.5 for o in device.ram_options_gb):
        raise EstimatorError(
            "device_ram_not_offered",
            device=device.name,
            memory_gb=f"{said:g}",
            options=[f"{o:g}" for o in device.ram_options_gb],
        )
    ram = round(said * GIB)
    return Machine("cpu", f"{device.name} {said:g}GB", ram, 1, ram, cpu=device, notes=notes)


def _count(field: str, value: int) -> None:
    if not 1 <= value <= MAX_GPUS:
        raise EstimatorError("out_of_range", field=field, value=value, low=1, high=MAX_GPUS)


def _memory(field: str, value: float) -> None:
    if not MIN_MEMORY_GB <= value <= MAX_MEMORY_GB:
        raise EstimatorError(
            "out_of_range",
            field=field,
            value=f"{value:g}",
            low=MIN_MEMORY_GB,
            high=int(MAX_MEMORY_GB),
        )

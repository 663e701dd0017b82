"""What a text says about hardware, as the hardware reader finds it: cards (one machine, or
several alternatives), an Apple chip, a CPU platform or device, memory amounts by what they are
said to be, and what could not be read (an unknown GPU, with the names it is close to)."""

from __future__ import annotations

from dataclasses import dataclass

from .types import AppleChip, CpuPlatform, Gpu


@dataclass(frozen=True, slots=True)
class Card:
    """One kind of GPU in a machine: `count` of `gpu`."""

    gpu: Gpu
    count: int | None  # None: no count was said (one card, or as many as "2 GPUs" says)
    said: str  # the words that named it, without the count ("a100 80g", "4060 ti")
    memory_gib: float | None = None  # a memory said that no variant has ("3090 48gb")
    # The other catalog GPUs the words fit, when the reader picked one of several ("h100" ->
    # the SXM board, not the PCIe or NVL one).
    others: tuple[Gpu, ...] = ()

    @property
    def spec(self) -> str:
        """Words that read back as this card and its assumption: the catalog name, unless a
        variant was assumed or a memory given, when the words as said (with "laptop" when the
        laptop card was chosen)."""
        if not self.others and self.memory_gib is None:
            return self.gpu.name
        said = self.said
        if self.gpu.laptop and "laptop" not in said:
            said += " laptop"
        return said


@dataclass(frozen=True, slots=True)
class AppleMention:
    chip: AppleChip  # the chip's first variant; the memory picks the variant when it is built
    memory_gb: float | None
    mac: str | None = None  # a Mac said without its chip ("macbook air"): the chip is assumed

    @property
    def spec(self) -> str:
        """'M3 Max 64GB', or 'M3 Max' when no memory was said; 'macbook air 16GB' when the chip
        was assumed, so that it reads back with its assumption."""
        if self.memory_gb is None:
            return self.chip.chip
        return f"{self.mac or self.chip.chip} {self.memory_gb:g}GB"


@dataclass(frozen=True, slots=True)
class CpuMention:
    platform: CpuPlatform
    said: str
    ram_gb: float | None = None  # the RAM a device was said to have ("Raspberry Pi 4 met 4GB")
    span: tuple[int, int] = (0, 0)  # where the words are in the text, to quote them as written


@dataclass(frozen=True, slots=True)
class UnknownGpu:
    said: str
    suggestions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HardwareMention:
    """Everything a text says about hardware; empty when it says nothing."""

    # Each option is one machine's cards; several options are alternatives ("a 4090 or a
    # 3090"). The first option is the machine the text is about.
    options: tuple[tuple[Card, ...], ...] = ()
    apple: AppleMention | None = None
    cpu: CpuMention | None = None
    ram_gb: float | None = None  # said to be RAM
    vram_gb: float | None = None  # said to be GPU memory, or a bare amount ("a 24GB GPU")
    memory_gb: float | None = None  # plain "memory"/"geheugen": RAM or VRAM, by context
    gpu_count: int | None = None  # "2 GPUs" without naming them
    data_gb: float | None = None  # a data size ("10GB csv"): never hardware
    laptop: bool = False
    cpu_only: bool = False
    unknown: tuple[UnknownGpu, ...] = ()

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.options[0] if self.options else ()

    @property
    def empty(self) -> bool:
        return self == HardwareMention()

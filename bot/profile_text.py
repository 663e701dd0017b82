"""Hardware in words ("2x RTX 3090 + 128 GB RAM", "M3 Max 64GB", "laptop met 4060 laptop en
32GB RAM", "4090 + 3090") -> a HardwareSpec, read by the estimator's hardware reader (the same
one that reads questions); and back into words.

The text is cut into parts at commas, "+", "and"/"with" (and Dutch "en"/"met"); each part is
read for GPUs, an Apple chip, a CPU, RAM and "CPU only". Words left over name the machine ("lab
server") and become the profile's suggested name. A part with a model number that names no
catalog GPU is refused with "did you mean", never silently dropped; so is a value out of range
or said twice.
"""

from __future__ import annotations

import re
import unicodedata

from estimator.errors import EstimatorError
from estimator.hardware.catalog import apple_config
from estimator.hardware.mention import Card
from estimator.hardware.read_gpus import suggest
from estimator.hardware.reader import read_hardware
from estimator.hardware.types import AppleChip
from storage.checks import HARDWARE_TEXT_MAX, NAME_MAX
from storage.schemas import CARD_JOIN, MAX_GPUS, MAX_MEMORY_GB, HardwareSpec, Profile

from .i18n import t
from .render import numbers

_SPLIT = re.compile(r"\s*(?:[,;+&\n]|\b(?:and|with|plus|en|met)\b)\s*", re.IGNORECASE)
# CPUs the catalog has no platform for are still kept as typed ("Celeron N5105").
_CPU = re.compile(
    r"\b(?:ryzen|threadripper|epyc|xeon|core\s*i[3579]|core\s+ultra|i[3579]-?\d{4,5}\w*"
    r"|celeron|pentium|athlon|snapdragon|graviton|\d{4}x3d|\d{4}x)\b",
    re.IGNORECASE,
)
_CPU_SUFFIX = re.compile(r"\s+(?:cpu|processor)$", re.IGNORECASE)
# Words that mean "this part is about a GPU": with them, an unmatched part is an unknown GPU.
_GPU_HINT = re.compile(
    r"\b(?:rtx|gtx|geforce|quadro|tesla|radeon|rx|instinct|arc|nvidia|gpu|ti|super|xtx?)\b",
    re.IGNORECASE,
)
_FILLER = frozenset(
    {"a", "an", "my", "the", "our", "i", "have", "has", "of", "on", "in", "using"}
    | {"mijn", "een", "de", "het", "onze", "ik", "heb"}
)
_VENDOR = re.compile(r"^(?:GeForce|Tesla|Radeon|Instinct)\s+")


class ParsedHardware(HardwareSpec):
    """A HardwareSpec read from text, plus the words that named the machine, if any."""

    label: str | None = None

    def suggested_name(self) -> str:
        """The profile name to use when none is given: the label, else the hardware's name."""
        if self.label:
            return self.label[:NAME_MAX]
        if self.gpu:
            return _VENDOR.sub("", self.gpu).lower()[:NAME_MAX]
        if self.apple_chip:
            return self.apple_chip.lower()
        return "cpu"


def parse(text: str) -> ParsedHardware:
    """The hardware `text` describes; EstimatorError for text it cannot read."""
    if len(text) > HARDWARE_TEXT_MAX:
        raise EstimatorError("profile_text_too_long", length=len(text), limit=HARDWARE_TEXT_MAX)
    if any(unicodedata.category(c) in ("Cc", "Cs") and c not in "\n\r\t" for c in text):
        raise EstimatorError("profile_text_control_chars")
    text = unicodedata.normalize("NFKC", text)
    parts = [p for p in _SPLIT.split(text.strip()) if p.strip()]
    if not parts:
        raise EstimatorError("profile_empty")
    found = _Found()
    for part in parts:
        found.read(part)
    return found.result()


class _Found:
    """What the parts of one description said so far."""

    def __init__(self) -> None:
        self.ram: float | None = None
        self.cpu_only = False
        self.apple: AppleChip | None = None
        self.apple_memory: float | None = None
        self.cpu: str | None = None
        self.cards: list[Card] = []
        self.bare_memory: float | None = None
        self.label: list[str] = []

    def read(self, part: str) -> None:
        mention, rest = read_hardware(part)
        if mention.unknown:
            first = mention.unknown[0]
            raise EstimatorError(
                "unknown_gpu", gpu=first.said[:60], suggestions=list(first.suggestions)
            )
        self.cards.extend(mention.cards)
        if mention.ram_gb is not None:
            self._set_ram(mention.ram_gb)
        for bare in (mention.vram_gb, mention.memory_gb):
            if bare is not None and not mention.cards:
                if self.bare_memory is not None and self.bare_memory != bare:
                    raise EstimatorError("profile_two_values", field="GB")
                self.bare_memory = _checked("gpu_memory", bare)
        self.cpu_only |= mention.cpu_only and (mention.cpu is None or mention.cpu.platform.device)
        if mention.apple is not None:
            self.apple = mention.apple.chip
            self.apple_memory = mention.apple.memory_gb
        if mention.cpu is not None:
            start, end = mention.cpu.span
            self._set_cpu(part[start:end])
            if mention.cpu.ram_gb is not None:
                self._set_ram(mention.cpu.ram_gb)
        self._leftover(rest.split(), part)

    def _leftover(self, words: list[str], part: str) -> None:
        """Words next to what was recognised: a CPU model, else words naming the machine."""
        text = " ".join(words)
        if not text:
            return
        if _CPU.search(text):
            self._set_cpu(_CPU_SUFFIX.sub("", text))
        elif re.search(r"\d", text) or _GPU_HINT.search(text):
            raise EstimatorError("unknown_gpu", gpu=part.strip()[:60], suggestions=suggest(part))
        else:
            self.label.extend(w for w in words if w.lower() not in _FILLER)

    def _set_cpu(self, cpu: str) -> None:
        if self.cpu is not None and self.cpu.lower() != cpu.lower():
            raise EstimatorError("profile_two_values", field="CPU")
        self.cpu = cpu

    def _set_ram(self, gb: float) -> None:
        if self.ram is not None and self.ram != gb:
            raise EstimatorError("profile_two_values", field="RAM")
        self.ram = _checked("ram", gb)

    def result(self) -> ParsedHardware:
        if self.cards and self.apple:
            raise EstimatorError("profile_gpu_and_apple")
        if self.cpu_only and self.cards:
            raise EstimatorError("profile_cpu_only_with_gpu")
        ram, apple_memory = self.ram, None
        if self.apple:
            # "M3 Max, 64GB" or "M3 Max with 64GB unified memory": that amount is the unified
            # memory; with none, the smallest configuration.
            wanted = self.apple_memory or self.bare_memory or ram
            apple_memory = apple_config(self.apple.chip, wanted)[1]
            ram = None
        elif self.bare_memory is not None:
            self._set_ram(self.bare_memory)
            ram = self.ram
        gpu, count, memory = _gpus(self.cards)
        if not (gpu or self.apple or ram or self.cpu or self.cpu_only):
            raise EstimatorError("profile_no_hardware")
        label = " ".join(self.label).lower()[:NAME_MAX].strip()
        return ParsedHardware(
            gpu=gpu,
            gpu_count=count,
            gpu_memory_gb=memory,
            ram_gb=ram,
            apple_chip=self.apple.chip if self.apple else None,
            apple_memory_gb=apple_memory,
            cpu=self.cpu,
            label=label or None,
        )


def _gpus(cards: list[Card]) -> tuple[str | None, int, float | None]:
    """The GPUs to store: catalog names (a memory no variant has written after the name, so it
    reads back: "GeForce RTX 3090 48GB"), how many, and the memory of the largest."""
    if not cards:
        return None, 0, None
    merged: dict[str, tuple[Card, int]] = {}
    for card in cards:
        name = _stored_name(card)
        _, before = merged.get(name, (card, 0))
        merged[name] = (card, before + (card.count or 1))
    total = sum(n for _, n in merged.values())
    if not 1 <= total <= MAX_GPUS:
        raise EstimatorError("out_of_range", field="gpus", value=total, low=1, high=MAX_GPUS)
    memory = max(_memory(card) for card, _ in merged.values())
    if len(merged) == 1:
        ((card, count),) = merged.values()
        return card.gpu.name, count, memory
    stored = CARD_JOIN.join(f"{n}x {name}" if n > 1 else name for name, (_, n) in merged.items())
    return stored, total, memory


def _stored_name(card: Card) -> str:
    if card.memory_gib is None:
        return card.gpu.name
    return f"{card.gpu.name} {_checked('gpu_memory', card.memory_gib):g}GB"


def _memory(card: Card) -> float:
    return card.memory_gib if card.memory_gib is not None else card.gpu.memory_gib


def _checked(field: str, gb: float) -> float:
    if not 0.1 <= gb <= MAX_MEMORY_GB:
        raise EstimatorError(
            "out_of_range", field=field, value=f"{gb:g}", low=0.1, high=int(MAX_MEMORY_GB)
        )
    return gb


def describe(spec: HardwareSpec, lang: str) -> str:
    """The hardware in one line: "2 × GeForce RTX 3090 (24 GB each), 128 GB RAM"."""
    parts = []
    if spec.gpu_count:
        parts.append(_describe_gpus(spec, lang))
    if spec.apple_chip:
        parts.append(
            t(
                "profile.apple",
                lang,
                chip=spec.apple_chip,
                memory=numbers.number(spec.apple_memory_gb or 0, lang),
            )
        )
    if spec.cpu:
        parts.append(t("profile.cpu", lang, cpu=spec.cpu))
    elif not spec.gpu_count and not spec.apple_chip:
        parts.append(t("profile.cpu_only", lang))
    if spec.ram_gb:
        parts.append(t("profile.ram", lang, memory=numbers.number(spec.ram_gb, lang)))
    return ", ".join(parts)


def _describe_gpus(spec: HardwareSpec, lang: str) -> str:
    if spec.gpu is None:
        memory = numbers.number(spec.gpu_memory_gb or 0, lang)
        return t("profile.gpu_unnamed", lang, count=spec.gpu_count, memory=memory)
    if len(spec.cards) == 1:
        return _card_line(spec.gpu, spec.gpu_count, spec.gpu_memory_gb or 0, lang)
    lines = []
    for count, name in spec.cards:
        cards = read_hardware(name)[0].cards
        if len(cards) == 1:
            lines.append(_card_line(cards[0].gpu.name, count, _memory(cards[0]), lang))
        else:
            lines.append(_card_line(name, count, spec.gpu_memory_gb or 0, lang))
    return CARD_JOIN.join(lines)


def _card_line(gpu: str, count: int, memory: float, lang: str) -> str:
    shown = numbers.number(memory, lang)
    if count == 1:
        return t("profile.gpu_one", lang, gpu=gpu, memory=shown)
    return t("profile.gpu_many", lang, count=count, gpu=gpu, memory=shown)


def list_line(profile: Profile, lang: str) -> str:
    """A saved profile in a list of them, the default marked with "*"."""
    marker = "*" if profile.is_default else " "
    hardware = describe(profile.hardware, lang)
    return t("profile.list_line", lang, marker=marker, name=profile.name, hardware=hardware)

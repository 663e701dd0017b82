"""Hardware in words ("2x RTX 3090 + 128 GB RAM", "M3 Max 64GB", "laptop met 4060 laptop en
32GB RAM") -> a HardwareSpec, with the estimator's hardware catalog; and back into words.

The text is cut into parts at commas, "+", "and"/"with" (and Dutch "en"/"met"); each part is
RAM, "CPU only", an Apple chip, a CPU, a GPU or words that name the machine ("lab server"),
which become the profile's suggested name. A part with a model number that names no catalog GPU
is refused with "did you mean", never silently dropped.
"""

from __future__ import annotations

import re
import unicodedata

from estimator.errors import EstimatorError
from estimator.hardware.catalog import find_apple, find_gpu, suggest_gpu
from estimator.hardware.types import AppleChip, Gpu
from storage.checks import HARDWARE_TEXT_MAX, NAME_MAX
from storage.schemas import MAX_GPUS, MAX_MEMORY_GB, HardwareSpec, Profile

from .i18n import t
from .render import numbers

_SPLIT = re.compile(r"\s*(?:[,;+&\n]|\b(?:and|with|plus|en|met)\b)\s*", re.IGNORECASE)
_AMOUNT = r"(\d+(?:\.\d+)?)\s*(tb|tib|gb|gib|g)\b"
_RAM_WORD = r"(?:ram|memory|geheugen|werkgeheugen)"
_RAM = re.compile(
    _AMOUNT + r"\s*(?:of\s+)?(?:(?:lp)?ddr\d\w*\s*|system\s+|unified\s+)*" + _RAM_WORD + r"\b"
    r"|" + _AMOUNT + r"\s*(?:lp)?ddr\d\w*"
    r"|\b" + _RAM_WORD + r"\s*[:=]?\s*" + _AMOUNT,
    re.IGNORECASE,
)
_MEMORY = re.compile(_AMOUNT, re.IGNORECASE)
_CPU_ONLY = re.compile(
    r"^\s*cpu\s*$|\b(?:cpu[\s-]*only|no\s+gpu|without\s+(?:a\s+)?gpu|alleen\s+(?:de\s+)?cpu|geen\s+gpu)\b",
    re.IGNORECASE,
)
_CPU = re.compile(
    r"\b(?:ryzen|threadripper|epyc|xeon|core\s*i[3579]|core\s+ultra|i[3579]-?\d{4,5}\w*"
    r"|celeron|pentium|athlon|snapdragon|graviton|\d{4}x3d|\d{4}x)\b",
    re.IGNORECASE,
)
_APPLE = re.compile(r"\bm\s*[1-5]\s*(?:pro|max|ultra)?\b", re.IGNORECASE)
_CPU_SUFFIX = re.compile(r"\s+(?:cpu|processor)$", re.IGNORECASE)
_COUNT_BEFORE = re.compile(r"^\s*(?:(\d{1,3})\s*[x×*]|(dual|twin|quad)\b)\s*", re.IGNORECASE)
_COUNT_AFTER = re.compile(r"(?:\s+|(?<=\d))[x×*]\s*(\d{1,4})\s*$", re.IGNORECASE)
_WORD_COUNTS = {"dual": 2, "twin": 2, "quad": 4}
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
    if any(unicodedata.category(c) == "Cc" and c not in "\n\r\t" for c in text):
        raise EstimatorError("profile_text_control_chars")
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
        self.apple_memory: int | None = None
        self.cpu: str | None = None
        self.gpu: Gpu | None = None
        self.gpu_count = 0
        self.gpu_memory: float | None = None
        self.bare_memory: float | None = None
        self.label: list[str] = []

    def read(self, part: str) -> None:
        if ram := _RAM.search(part):
            self._set_ram(_gb(ram))
            part = part[: ram.start()] + " " + part[ram.end() :]
        if _CPU_ONLY.search(part):
            self.cpu_only = True
            part = _CPU_ONLY.sub(" ", part)
        part = part.strip()
        if not part:
            return
        if (chip := _APPLE.search(part)) and (apple := find_apple(part)):
            self.apple = apple[0]
            memory = _MEMORY.search(part)
            self.apple_memory = apple[1] if memory else None
            rest = _MEMORY.sub(" ", part[: chip.start()] + " " + part[chip.end() :])
            self._leftover(rest.split(), part)
            return
        if memory := _MEMORY.fullmatch(part):
            if self.bare_memory is not None and self.bare_memory != _gb(memory):
                raise EstimatorError("profile_two_values", field="GB")
            self.bare_memory = _gb(memory)
            return
        count, part = _count(part)
        words = part.split()
        span = _gpu_span(words)
        if span is None:
            if count is not None:
                raise _unknown_gpu(part)
            self._leftover(words, part)
            return
        start, end, gpu = span
        rest = words[:start] + words[end:]
        if rest and (memory := _MEMORY.fullmatch(" ".join(rest))):
            rest = []
            self.gpu_memory = _checked("gpu_memory", _gb(memory))
        self._add_gpu(gpu, 1 if count is None else count)
        self._leftover(rest, part)

    def _leftover(self, words: list[str], part: str) -> None:
        """Words next to what was recognised: a CPU model, else words naming the machine."""
        text = " ".join(words)
        if _CPU.search(text):
            cpu = _CPU_SUFFIX.sub("", text)
            if self.cpu is not None and self.cpu != cpu:
                raise EstimatorError("profile_two_values", field="CPU")
            self.cpu = cpu
        elif re.search(r"\d", text) or _GPU_HINT.search(text):
            raise _unknown_gpu(part)
        else:
            self.label.extend(w for w in words if w.lower() not in _FILLER)

    def _set_ram(self, gb: float) -> None:
        if self.ram is not None and self.ram != gb:
            raise EstimatorError("profile_two_values", field="RAM")
        self.ram = _checked("ram", gb)

    def _add_gpu(self, gpu: Gpu, count: int) -> None:
        if self.gpu is not None and self.gpu != gpu:
            raise EstimatorError("profile_mixed_gpus", gpus=f"{self.gpu.name}, {gpu.name}")
        self.gpu = gpu
        self.gpu_count += count
        if not 1 <= self.gpu_count <= MAX_GPUS:
            raise EstimatorError(
                "out_of_range", field="gpus", value=self.gpu_count, low=1, high=MAX_GPUS
            )

    def result(self) -> ParsedHardware:
        if self.gpu and self.apple:
            raise EstimatorError("profile_gpu_and_apple")
        if self.cpu_only and self.gpu:
            raise EstimatorError("profile_cpu_only_with_gpu")
        ram, apple_memory = self.ram, self.apple_memory
        if self.apple and apple_memory is None:
            # "M3 Max, 64GB" or "M3 Max with 64GB unified memory": that amount is the unified
            # memory; with none, find_apple picks the smallest configuration.
            wanted = self.bare_memory or ram
            found = find_apple(f"{self.apple.chip} {wanted:g}GB" if wanted else self.apple.chip)
            apple_memory = found[1] if found else None
            ram = None
        elif self.bare_memory is not None:
            self._set_ram(self.bare_memory)
            ram = self.ram
        if not (self.gpu or self.apple or ram or self.cpu or self.cpu_only):
            raise EstimatorError("profile_no_hardware")
        label = " ".join(self.label).lower()[:NAME_MAX].strip()
        return ParsedHardware(
            gpu=self.gpu.name if self.gpu else None,
            gpu_count=self.gpu_count,
            gpu_memory_gb=(self.gpu_memory or self.gpu.memory_gib) if self.gpu else None,
            ram_gb=ram,
            apple_chip=self.apple.chip if self.apple else None,
            apple_memory_gb=apple_memory,
            cpu=self.cpu,
            label=label or None,
        )


def _count(part: str) -> tuple[int | None, str]:
    """'2x 3090' -> (2, '3090'); '3090 x2' -> (2, '3090'); 'dual 3090' -> (2, '3090')."""
    before = _COUNT_BEFORE.search(part)
    # "3090 x2" also starts like a count ("3090 x"); a count is followed by a GPU's name.
    if before and re.search(r"[a-z]|\d{3}", part[before.end() :], re.IGNORECASE):
        word = before.group(2)
        count = _WORD_COUNTS[word.lower()] if word else int(before.group(1))
        return count, part[before.end() :]
    if after := _COUNT_AFTER.search(part):
        return int(after.group(1)), part[: after.start()]
    return None, part


def _gpu_span(words: list[str]) -> tuple[int, int, Gpu] | None:
    """The longest run of words that names a catalog GPU. Runs without a digit never count:
    every catalog GPU has one, and "pro" or "laptop" alone must stay plain words."""
    for length in range(len(words), 0, -1):
        for start in range(len(words) - length + 1):
            run = " ".join(words[start : start + length])
            if re.search(r"\d", run) and (gpu := find_gpu(run)) is not None:
                return start, start + length, gpu
    return None


def _unknown_gpu(part: str) -> EstimatorError:
    return EstimatorError("unknown_gpu", gpu=part.strip()[:60], suggestions=suggest_gpu(part))


def _gb(match: re.Match[str]) -> float:
    groups = match.groups()
    number, unit = next((n, u) for n, u in zip(groups[::2], groups[1::2], strict=True) if n)
    return float(number) * (1024 if unit.lower() in ("tb", "tib") else 1)


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
        memory = numbers.number(spec.gpu_memory_gb or 0, lang)
        if spec.gpu is None:
            parts.append(t("profile.gpu_unnamed", lang, count=spec.gpu_count, memory=memory))
        elif spec.gpu_count == 1:
            parts.append(t("profile.gpu_one", lang, gpu=spec.gpu, memory=memory))
        else:
            parts.append(
                t("profile.gpu_many", lang, count=spec.gpu_count, gpu=spec.gpu, memory=memory)
            )
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


def list_line(profile: Profile, lang: str) -> str:
    """A saved profile in a list of them, the default marked with "*"."""
    marker = "*" if profile.is_default else " "
    hardware = describe(profile.hardware, lang)
    return t("profile.list_line", lang, marker=marker, name=profile.name, hardware=hardware)

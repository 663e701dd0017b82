"""Hardware in free text: GPUs with a count ("2x 3090"), Apple chips ("M3 Max 64GB") and
memory amounts ("24GB", "16GB RAM"). Each finder returns what it found and the text with its
span blanked out, so later finders do not read "4090" as a context length or "64GB" twice."""

from __future__ import annotations

import re
from dataclasses import dataclass

from estimator.errors import EstimatorError
from estimator.hardware.catalog import find_apple, find_gpu

from ..lexicon import number_words

WORD_NUMBERS = number_words()

_COUNT = r"(?:(?P<count>\d{1,4}|two|three|four|six|eight|twee|drie|vier|zes|acht)\s*(?:x|\*)?\s*)?"
_BRAND = r"(?:nvidia\s+|amd\s+|intel\s+)?(?:geforce\s+)?"
_SERIES = r"(?:(?:rtx|gtx|rx|radeon|instinct|arc|tesla|quadro)\s*(?:pro\s*)?)"
_NUMBERED = r"\d{4}(?:\s*ti)?(?:\s*super)?(?:\s*xtx)?(?:\s*ada)?"
# A bare four-digit number names a card only in the GeForce 20-50 series ("4090", not "8192").
_BARE = r"[2345]0[5-9]0(?:\s*ti)?(?:\s*super)?"
_DATACENTER = (
    r"gh200|h100|h200|b200|b100|a100|a10g?|a40|l40s?|l4|t4|v100|p100|mi\d{3}x?|a770|gaudi\s*[23]|"
    r"a[456]000"
)
_VARIANT = r"(?:\s*(?:sxm\d?|pcie|nvl))?(?:\s*\(?\d{1,3}\s*gb\)?)?(?:\s*(?:sxm\d?|pcie|nvl))?"
_MOBILE = r"(?:\s*(?:laptop|mobile|max-q)(?:\s*gpu)?)?"
GPU = re.compile(
    r"(?<![\w.])"
    + _COUNT
    + r"(?P<name>"
    + _BRAND
    + r"(?:"
    + _SERIES
    + _NUMBERED
    + r"|"
    + _SERIES
    + r"?(?:"
    + _DATACENTER
    + r")|"
    + _BARE
    + r")"
    + _VARIANT
    + _MOBILE
    + r")(?:'?s)?(?!\w|\.\d)(?!\s*(?:tokens?|rows|rijen|users|gebruikers|context))"
)
APPLE = re.compile(
    r"(?<![\w.])(?:apple\s+)?(?:macbook\s+(?:pro|air)\s+|mac\s+(?:studio|mini)\s+)?"
    r"(?P<chip>m[1-5](?:\s*(?:pro|max|ultra))?)(?![\w.])"
    r"(?:\s*(?:with|met|and|en|,)?\s*(?P<gb>\d{1,3})\s*gb(?:\s*(?:unified|ram|memory|geheugen))*)?"
)
_GB = r"(?P<amount>\d+(?:[.,]\d+)?)\s*(?P<unit>gb|gib|tb|g)(?![\w])"
RAM = (
    re.compile(
        _GB + r"\s*(?:of\s+|aan\s+)?(?:system\s+|systeem\s+|ddr\d\s+)?(?:ram|werkgeheugen|ddr\d?)\b"
    ),
    re.compile(r"\b(?:ram|werkgeheugen)\s*(?:of|van|:|=)?\s*" + _GB),
)
VRAM = re.compile(
    _GB + r"(?:\s*(?:of\s+)?(?:vram|video\s*memory|videogeheugen|gpu\s*memory|gpu-geheugen))?"
)
MEMORY_WORD = re.compile(r"^\s*(?:of\s+|aan\s+)?(?:memory|geheugen)\b")
GPU_WORD = re.compile(r"\b(gpu|gpus|gpu's|vram|card|kaart|videokaart|graphics)\b")
# "2 GPUs", "two cards", "2 of them": a count without a model.
GPU_COUNT = re.compile(
    r"\b(?P<count>\d{1,4}|two|three|four|six|eight|twee|drie|vier|zes|acht)\s*(?:x\s*)?"
    r"(?:gpus|gpu's|cards|kaarten|videokaarten|of\s+them|of\s+those|daarvan|ervan|van\s+die)\b"
)


@dataclass(frozen=True, slots=True)
class GpuMention:
    name: str  # catalog name
    count: int | None


def _blank(text: str, match: re.Match[str]) -> str:
    return text[: match.start()] + " " * (match.end() - match.start()) + text[match.end() :]


def count(word: str | None) -> int | None:
    if word is None:
        return None
    return WORD_NUMBERS[word] if word in WORD_NUMBERS else int(word)


def gpu(text: str, laptop: bool) -> tuple[GpuMention | None, str]:
    """The first GPU the text names (its laptop variant when the text is about a laptop)."""
    for m in GPU.finditer(text):
        name = m.group("name")
        found = find_gpu(name)
        if found is not None and laptop and not found.laptop:
            found = find_gpu(f"{name} laptop") or found
        if found is not None:
            return GpuMention(found.name, count(m.group("count"))), _blank(text, m)
    return None, text


def apple(text: str) -> tuple[str | None, str]:
    """'M3 Max 64GB' (or 'M3 Max' when no memory is said) for the first Apple chip named."""
    for m in APPLE.finditer(text):
        generation, tier = m.group("chip")[1], m.group("chip")[2:].strip()
        label = f"M{generation} {tier.capitalize()}".strip()
        try:
            if find_apple(label) is None:
                continue
        except EstimatorError:
            continue
        gb = m.group("gb")
        return (f"{label} {gb}GB" if gb else label), _blank(text, m)
    return None, text


def gigabytes(m: re.Match[str]) -> float:
    value = float(m.group("amount").replace(",", "."))
    return value * 1024 if m.group("unit") == "tb" else value


def ram(text: str) -> tuple[float | None, str]:
    for pattern in RAM:
        m = pattern.search(text)
        if m is not None:
            return gigabytes(m), _blank(text, m)
    return None, text


def memory(text: str) -> tuple[float | None, bool, str]:
    """A memory amount not said to be RAM, and whether it is plain 'memory' (which may be
    either, decided by the caller)."""
    m = VRAM.search(text)
    if m is None:
        return None, False, text
    plain = bool(MEMORY_WORD.match(text[m.end() :]))
    return gigabytes(m), plain, _blank(text, m)


def gpu_count(text: str) -> tuple[int | None, str]:
    m = GPU_COUNT.search(text)
    if m is None:
        return None, text
    return count(m.group("count")), _blank(text, m)

"""Apple chips and CPUs in text, from the catalogs: "M1 macbook air 16gb", "64gb M3 Max";
CPU platforms by name ("EPYC Genoa", "dual Xeon", "ddr5-6000", "8-channel DDR5", "Ryzen 9
7950X") and CPU devices with their RAM ("Raspberry Pi 4 met 4GB", "Pi 5")."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import replace
from functools import cache
from typing import TypeVar

from . import words as w
from .data import apple_chips, cpu_models, cpu_platforms
from .mention import AppleMention, CpuMention
from .names import Phrase, phrase
from .reading import Amount, Text, count_of
from .types import AppleChip, CpuPlatform

_PRODUCT = frozenset({"apple", "macbook", "air", "pro", "mac", "mini", "studio", "imac"})
# The Macs and the chips each has been sold with (Apple's tech specs pages, apple.com/mac/compare):
# a Mac said without its chip but with its memory ("macbook air 16gb") is read as the slowest of
# its chips that comes with that memory, so its speed is never too optimistic; the answer says
# so.
_AIR = ("M1", "M2", "M3", "M4")
_PRO = tuple(f"M{n}{tier}" for n in range(1, 6) for tier in ("", " Pro", " Max"))
_MACS = (
    (("mac", "studio"), ("M1 Max", "M1 Ultra", "M2 Max", "M2 Ultra", "M3 Ultra", "M4 Max")),
    (("mac", "mini"), ("M1", "M2", "M2 Pro", "M4", "M4 Pro")),
    (("macbook", "air"), _AIR),
    (("macbook", "pro"), _PRO),
    (("imac",), ("M1", "M3", "M4")),
    (("macbook",), _AIR + _PRO),
)
_NEAR = frozenset({"with", "met", "and", "en", "has", "heeft", "model", "b", "unified"})
_DEVICE_NEAR = _NEAR | frozenset({"ram", "raspberry", "board"})
# JEDEC speeds a bare memory generation is assumed to run at (MT/s).
_SPEED = {"4": 3200, "5": 4800}
_CHANNEL = frozenset({"channel", "ch", "kanaals", "kanaal", "channels"})


T = TypeVar("T")


def _by_first_word(found: list[tuple[Phrase, T]]) -> dict[str, tuple[tuple[Phrase, T], ...]]:
    """Phrases by their first word, longest first, so a piece tries only its own."""
    out: dict[str, list[tuple[Phrase, T]]] = defaultdict(list)
    for p, item in sorted(found, key=lambda pc: -len(pc[0].words)):
        out[p.words[0]].append((p, item))
    return {word: tuple(items) for word, items in out.items()}


@cache
def _apple_phrases() -> dict[str, tuple[tuple[Phrase, AppleChip], ...]]:
    chips: dict[str, AppleChip] = {}
    for chip in apple_chips():
        chips.setdefault(chip.chip, chip)
    return _by_first_word([(phrase(name), chip) for name, chip in chips.items()])


def apple(text: Text) -> AppleMention | None:
    for i in range(len(text.pieces)):
        for p, chip in _apple_phrases().get(text.word(i), ()):
            if not (text.free(i) and p.matches(text.pieces, i)):
                continue
            end = i + len(p.words) - 1
            # "M1 macbook air 16gb": the product words sit between chip and memory; they stay
            # in the text (a profile's name, the laptop word).
            first, last = _product_words(text, i, end)
            amount = _near_amount(text, first, last, _NEAR | _PRODUCT, ("", "ram", "memory"))
            text.take(i, end)
            if amount is not None:
                text.take_amount(amount)
            return AppleMention(chip, None if amount is None else amount.gb)
    return _mac(text)


def _mac(text: Text) -> AppleMention | None:
    """A Mac said without its chip but with its memory (see _MACS)."""
    for i in range(len(text.pieces)):
        for words, chips in _MACS:
            end = i + len(words) - 1
            if not all(text.free(i + k) and text.word(i + k) == x for k, x in enumerate(words)):
                continue
            amount = _near_amount(text, i, end, _NEAR | _PRODUCT, ("", "ram", "memory"))
            if amount is None:
                return None
            gb = round(amount.gb)
            sold = [
                c
                for c in apple_chips()
                if c.chip in chips and (gb in c.memory_options_gb or gb == c.max_memory_gb)
            ]
            if not sold:
                return None
            text.take_amount(amount)
            slowest = min(sold, key=lambda c: c.bandwidth_gbs)
            return AppleMention(slowest, amount.gb, mac=" ".join(words))
    return None


def _product_words(text: Text, first: int, last: int) -> tuple[int, int]:
    while text.free(first - 1) and text.word(first - 1) in _PRODUCT:
        first -= 1
    while text.free(last + 1) and text.word(last + 1) in _PRODUCT:
        last += 1
    return first, last


def _near_amount(
    text: Text, first: int, last: int, skip: frozenset[str], labels: tuple[str, ...]
) -> Amount | None:
    """A free amount right after the words (over a few `skip` words) or right before them."""
    k = last + 1
    for _ in range(4):
        amount = text.amount_at(k)
        if amount is not None:
            return amount if amount.label in labels else None
        if not (text.free(k) and text.word(k) in skip):
            break
        k += 1
    before = text.amount_ending(first - 1)
    if before is not None and before.label in ("", *labels) and before.label != "data":
        return before
    return None


@cache
def _cpu_phrases() -> dict[str, tuple[tuple[Phrase, CpuPlatform], ...]]:
    return _by_first_word([(phrase(a), cpu) for cpu in cpu_platforms() for a in cpu.aliases])


def cpu(text: Text) -> CpuMention | None:
    """The first CPU platform or device named."""
    for i in range(len(text.pieces)):
        for p, platform in _cpu_phrases().get(text.word(i), ()):
            if not (text.free(i) and p.matches(text.pieces, i)):
                continue
            end = i + len(p.words) - 1
            return _platform(text, i, end, platform)
        channels = _channels(text, i)
        if channels is not None:
            return channels
    return None


def _platform(text: Text, first: int, last: int, platform: CpuPlatform) -> CpuMention:
    sockets, first, last = _sockets(text, first, last)
    said = text.span_text(first, last)
    span = (text.pieces[first].start, text.pieces[last].end)
    text.take(first, last)
    if sockets > 1:
        platform = with_sockets(platform, sockets)
    ram = None
    if platform.device:
        amount = _near_amount(text, first, last, _DEVICE_NEAR, ("", "ram", "memory"))
        if amount is not None:
            text.take_amount(amount)
            ram = amount.gb
    return CpuMention(platform, said, ram, span)


def _sockets(text: Text, first: int, last: int) -> tuple[int, int, int]:
    """ "dual Xeon", "2x EPYC", "EPYC x2", "2-socket EPYC": the socket count and the span."""
    b = first - 1
    if text.free(b) and text.word(b) in w.SOCKETS:
        return w.SOCKETS[text.word(b)], b, last
    # "2 xeon": the question parser writes number words ("dual", "twee") as digits.
    if b >= 0 and text.free(b) and count_of(text.pieces[b]) in (2, 4, 8):
        return count_of(text.pieces[b]) or 1, b, last
    if text.free(b) and text.word(b) in ("x", "*") and b >= 1:
        n = count_of(text.pieces[b - 1])
        if n is not None and text.free(b - 1):
            return n, b - 1, last
    if text.word(b) == "socket" and b >= 1 and text.free(b):
        n = count_of(text.pieces[b - 1]) or w.SOCKETS.get(text.word(b - 1))
        if n:
            return n, b - 1, last
    if text.word(last + 1) == "x" and text.free(last + 1) and len(text.pieces) > last + 2:
        n = count_of(text.pieces[last + 2])
        if n is not None:
            return n, first, last + 2
    return 1, first, last


def with_sockets(platform: CpuPlatform, sockets: int) -> CpuPlatform:
    """The platform with `sockets` sockets: its catalog entry when there is one, else the
    one-socket figures times the sockets (each socket brings its own memory channels)."""
    if platform.sockets == sockets:
        return platform
    for other in cpu_platforms():
        if other.sockets == sockets and set(other.aliases) & set(platform.aliases):
            return other
    factor = sockets / platform.sockets
    return replace(
        platform,
        name=f"{sockets}x {platform.name}",
        bandwidth_gbs=round(platform.bandwidth_gbs * factor, 1),
        tflops_fp32=round(platform.tflops_fp32 * factor, 2),
        channels=None if platform.channels is None else round(platform.channels * factor),
        sockets=sockets,
        notes=f"{platform.notes}; DERIVED: {sockets} sockets x the one-socket figures",
    )


def _channels(text: Text, i: int) -> CpuMention | None:
    """ "8-channel DDR5", "12 channel ddr5-6000", "quad channel ddr4": a memory system named by
    its channels, with the bandwidth of MT/s x 8 bytes x channels."""
    n = count_of(text.pieces[i]) if text.free(i) else None
    if n is None:
        n = w.NUMBERS.get(text.word(i)) if text.free(i) else None
    if n is None or text.word(i + 1) not in _CHANNEL or not 1 <= n <= 64:
        return None
    last = i + 1
    generation, speed = "5", None
    if text.word(last + 1) in ("ddr", "lpddr") and text.pieces[last + 2 : last + 3]:
        generation = text.word(last + 2)
        last += 2
        if text.pieces[last + 1 : last + 2] and count_of(text.pieces[last + 1]):
            speed = count_of(text.pieces[last + 1])
            last += 1
    mts = speed or _SPEED.get(generation, _SPEED["5"])
    nearest = min(cpu_platforms(), key=lambda c: abs((c.channels or 2) - n) + c.device * 100)
    platform = CpuPlatform(
        name=f"DDR{generation}-{mts} {n}-channel",
        platforms=f"{n} memory channels",
        bandwidth_gbs=round(mts * 8 * n / 1000, 1),
        tflops_fp32=nearest.tflops_fp32,
        source="formula: MT/s x 8 bytes x 64-bit channels (DDR5 DIMM = 2x32-bit subchannels)",
        notes=f"DERIVED; CPU compute of {nearest.name}",
        channels=n,
    )
    said = text.span_text(i, last)
    span = (text.pieces[i].start, text.pieces[last].end)
    text.take(i, last)
    return CpuMention(platform, said, span=span)


def cpu_model(text: Text) -> CpuMention | None:
    """A desktop or workstation CPU by its model number ("ryzen 9 7950x", "i9-13900k"): the
    memory platform its generation runs."""
    for platform in cpu_platforms():
        for pattern in _model_patterns(platform.name):
            for m in pattern.finditer(text.low):
                inside = [
                    k
                    for k, p in enumerate(text.pieces)
                    if p.start >= m.start() and p.end <= m.end()
                ]
                if inside and all(text.free(k) for k in inside):
                    return _platform(text, inside[0], inside[-1], platform)
    return None


@cache
def _model_patterns(name: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p) for p in cpu_models().get(name, ()))

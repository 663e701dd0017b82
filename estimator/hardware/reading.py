"""A text being read for hardware: its pieces, which of them a finding has taken, and the memory
amounts in it with what the words around each say it is ("64GB RAM", "24GB VRAM", "10GB csv")."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from . import words as w
from .names import MEMORY_UNITS, Piece, lower, number, pieces

MAX_TEXT = 2000
# Counts and amounts past these are kept (so the answer can refuse them with the allowed range)
# but never carried as numbers so large that arithmetic on them overflows.
NUMBER_CAP = 1e12
_AROUND = frozenset({"of", "aan", "van", "is", "="})


@dataclass
class Amount:
    """A memory amount: pieces `first`..`last` (number and unit), and its label."""

    first: int
    last: int
    gb: float
    label: str  # data, ram, vram, memory, gpu, or "" when nothing says
    label_span: tuple[int, int]  # pieces of the label words, to take with the amount


@dataclass
class Text:
    low: str
    pieces: list[Piece]
    taken: set[int] = field(default_factory=set)
    amounts: list[Amount] = field(default_factory=list)

    @classmethod
    def of(cls, text: str) -> Text:
        low = lower(text[:MAX_TEXT]).replace("×", "x")
        found = cls(low, pieces(low))
        found.amounts = _amounts(found)
        return found

    def word(self, i: int) -> str:
        return self.pieces[i].text if 0 <= i < len(self.pieces) else ""

    def free(self, i: int) -> bool:
        return 0 <= i < len(self.pieces) and i not in self.taken

    def take(self, first: int, last: int) -> None:
        self.taken.update(range(first, last + 1))

    def span_text(self, first: int, last: int) -> str:
        return self.low[self.pieces[first].start : self.pieces[last].end]

    def amount_at(self, i: int) -> Amount | None:
        """The free amount whose number is piece `i`."""
        for a in self.amounts:
            if a.first == i and i not in self.taken:
                return a
        return None

    def amount_ending(self, i: int) -> Amount | None:
        """The free amount whose unit is piece `i` (for "16gb 4060 ti")."""
        for a in self.amounts:
            if a.last == i and a.first not in self.taken:
                return a
        return None

    def take_amount(self, a: Amount, *, label: bool = True) -> None:
        self.take(a.first, a.last)
        if label and a.label_span[0] <= a.label_span[1]:
            self.take(*a.label_span)

    def free_amounts(self, label: str | None = None) -> list[Amount]:
        return [
            a
            for a in self.amounts
            if a.first not in self.taken and (label is None or a.label == label)
        ]

    def has_phrase(self, at: int, phrase: tuple[str, ...]) -> bool:
        return all(self.word(at + k) == p for k, p in enumerate(phrase))

    def blanked(self, original: str) -> str:
        """`original` with the characters of every taken piece run replaced by spaces."""
        text = list(original[:MAX_TEXT])
        runs: list[tuple[int, int]] = []
        for i in sorted(self.taken):
            p = self.pieces[i]
            if runs and (i - 1 in self.taken):
                runs[-1] = (runs[-1][0], p.end)
            else:
                runs.append((p.start, p.end))
        for start, end in runs:
            # A sign or parenthesis written against a taken run goes with it ("-24GB", "(80GB)").
            if start > 0 and text[start - 1] in "-(":
                start -= 1
            if end < len(text) and text[end] == ")":
                end += 1
            text[start:end] = " " * (end - start)
        return "".join(text)


def capped(value: float) -> float:
    return value if math.isfinite(value) and abs(value) <= NUMBER_CAP else NUMBER_CAP


def count_of(piece: Piece) -> int | None:
    """A whole number written in digits, capped; None for a decimal."""
    if not piece.text.isdigit():
        return None
    return int(piece.text) if len(piece.text) <= 12 else int(NUMBER_CAP)


def _amounts(text: Text) -> list[Amount]:
    found = []
    ps = text.pieces
    for i, p in enumerate(ps[:-1]):
        unit = ps[i + 1].text
        if not p.number or unit not in MEMORY_UNITS:
            continue
        if unit == "g" and not ps[i + 1].joined:
            continue  # "24 g" is rarely memory; "80G" is
        if i + 2 < len(ps) and ps[i + 2].joined and ps[i + 2].number:
            continue  # "gb10" after a number is a name, not a unit
        gb = capped(number(p) * MEMORY_UNITS[unit])
        if _negative(text, p):
            gb = -gb
        label, span = _label(text, i, i + 1)
        found.append(Amount(i, i + 1, gb, label, span))
    return found


def _negative(text: Text, p: Piece) -> bool:
    """ "-24GB": a minus written against the number, not a dash between words ("3090-24gb")."""
    at = p.start - 1
    return at >= 0 and text.low[at] == "-" and (at == 0 or not text.low[at - 1].isalnum())


_LABELS: tuple[tuple[str, frozenset[str], tuple[tuple[str, ...], ...]], ...] = (
    ("data", w.DATA, ()),
    ("vram", w.VRAM, w.VRAM_PHRASES),
    ("ram", w.RAM, w.RAM_PHRASES),
    ("memory", w.MEMORY, ()),
    ("gpu", w.GPU, ()),
)


def _label(text: Text, first: int, last: int) -> tuple[str, tuple[int, int]]:
    """What the words after (or, as in "RAM: 64GB", before) an amount say it is."""
    after = last + 1
    if text.word(after) in _AROUND:
        after += 1
    for label, single, phrases in _LABELS:
        for phrase in phrases:
            if text.has_phrase(after, phrase):
                return label, (last + 1, after + len(phrase) - 1)
        if text.word(after) in single:
            end = after
            while text.pieces[end + 1 : end + 2] and text.pieces[end + 1].joined:
                end += 1  # "ddr5", "lpddr5x"
            # "64GB DDR5 RAM", "64GB unified memory": the second word belongs to the label too.
            if label in ("ram", "vram", "memory") and text.word(end + 1) in (w.RAM | w.MEMORY):
                end += 1
            return label, (last + 1, end)
    before = first - 1
    if text.word(before) in _AROUND:
        before -= 1
    for label, single, _ in _LABELS[:3]:
        if text.word(before) in single:
            return label, (before, first - 1)
    return "", (last + 1, last)


def words_between(text: Text, first: int, last: int) -> list[str]:
    return [text.word(i) for i in range(first, last + 1)]


def is_plural_s(text: Text, i: int) -> bool:
    """ "3090s", "4090's": an "s" written against the name."""
    if text.word(i) != "s":
        return False
    p = text.pieces[i]
    return p.joined or text.low[p.start - 1] == "'"

"""How hardware is named in text, taken from the catalogs: every GPU's names as word sequences
("rtx 4090", "4090", "a100"), and the words around a name that pick its variant (memory,
SXM/PCIe/NVL, laptop).

Text is cut into pieces: runs of letters or digits, split where letters turn into digits and back
("rtx4090" -> rtx 4090, "2x3090" -> 2 x 3090, "80gb" -> 80 gb). A name whose short letter prefix
is written against its number ("a100", "h100", "m3", "b580") must be written that way in the
text too, so "a 100GB card" is no A100.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from functools import cache

from .data import gpus
from .types import Gpu

_PIECE = re.compile(r"[a-z]+|[0-9]+(?:[.,][0-9]{1,2}(?![0-9]))?|[+&*]")
# Words that may stand before a name without changing it ("nvidia geforce rtx 4090").
VENDOR_WORDS = frozenset(
    {"nvidia", "geforce", "tesla", "amd", "radeon", "instinct", "intel", "quadro", "habana"}
)
_SERIES = frozenset({"rtx", "gtx", "rx", "arc"})
FORM_WORDS = {"sxm": "sxm", "pcie": "pcie", "pci": "pcie", "nvl": "nvl", "hgx": "sxm"}
MEMORY_UNITS = {
    "gb": 1.0,
    "gib": 1.0,
    "g": 1.0,
    "gig": 1.0,
    "gigs": 1.0,
    "gigabyte": 1.0,
    "gigabytes": 1.0,
    "tb": 1024.0,
    "tib": 1024.0,
    "terabyte": 1024.0,
    "terabytes": 1024.0,
}
_NAME_NOISE = frozenset({"generation", "edition", "workstation", "hbm3", "hbm3e", "hbm2", "hbm2e"})


@dataclass(frozen=True, slots=True)
class Piece:
    text: str
    start: int
    end: int
    joined: bool  # written against the previous piece, with nothing between them

    @property
    def number(self) -> bool:
        return self.text[0].isdigit()


def pieces(text: str) -> list[Piece]:
    """`text` (lower case) as pieces with their character spans. A count written against a
    lettered name ("8xh100", "4xa100": number, x, letters, number) keeps its "x" apart; "7900xtx"
    (no number after the letters) stays as written."""
    found = list(_PIECE.finditer(text))
    out: list[Piece] = []
    for n, m in enumerate(found):
        word, start = m.group(), m.start()
        joined = bool(out) and out[-1].end == start and word[0] not in "+&*"
        after = found[n + 1] if n + 1 < len(found) else None
        if (
            joined
            and len(word) > 1
            and word[0] == "x"
            and out[-1].number
            and after is not None
            and after.start() == m.end()
            and after.group()[0].isdigit()
        ):
            out.append(Piece("x", start, start + 1, True))
            word, start = word[1:], start + 1
        out.append(Piece(word, start, m.end(), joined))
    return out


def number(piece: Piece) -> float:
    return float(piece.text.replace(",", "."))


def lower(text: str) -> str:
    """Lower case, keeping every character where it was (so spans still fit the text)."""
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


@dataclass(frozen=True, slots=True)
class Phrase:
    """One way of naming a GPU: its words, and which of them must be written joined."""

    words: tuple[str, ...]
    must_join: tuple[bool, ...]  # per word: joined to the previous one in the text

    def matches(self, text: list[Piece], at: int) -> bool:
        if at + len(self.words) > len(text):
            return False
        for i, word in enumerate(self.words):
            piece = text[at + i]
            if piece.text != word or (self.must_join[i] and not piece.joined):
                return False
        return True


def phrase(name: str) -> Phrase:
    words = pieces(lower(name))
    must_join = tuple(
        i > 0 and p.joined and not words[i - 1].number and len(words[i - 1].text) <= 2
        for i, p in enumerate(words)
    )
    return Phrase(tuple(p.text for p in words), must_join)


def _core(name: str) -> str:
    """A catalog name without what only picks a variant: "H100 SXM5 80GB" -> "h100"."""
    name = re.sub(r"\(.*?\)", " ", lower(name))
    kept = []
    for word in name.split():
        if re.fullmatch(r"\d+(\.\d+)?gb|sxm\d?|pcie|nvl|laptop", word) or word in _NAME_NOISE:
            continue
        kept.append(word)
    return " ".join(kept)


def names_of(gpu: Gpu) -> list[str]:
    """Every name `gpu` goes by: the catalog name without the words that pick a variant, with
    and without the vendor's brand, its aliases, and for consumer cards the model number alone
    ("4090", "7900 xtx", "b580")."""
    core = _core(gpu.name)
    words = [w for w in core.split() if w not in VENDOR_WORDS]
    # The catalog name itself comes first: read back, it names this GPU and no variant.
    found = [lower(gpu.name), " ".join(words), *(lower(a) for a in gpu.aliases)]
    if words and words[0] in _SERIES and len(words) > 1:
        bare = words[1:]
        has_letter = any(re.search(r"[a-z]", w) for w in bare)
        if gpu.segment == "consumer" or has_letter:
            found.append(" ".join(bare))
    # A one-word name without a digit ("spark") is too common a word to be a GPU.
    return list(dict.fromkeys(n for n in found if re.search(r"\d", n) or " " in n))


@dataclass(frozen=True, slots=True)
class Named:
    phrase: Phrase
    gpus: tuple[Gpu, ...]  # every catalog GPU this phrase names, in catalog order


@cache
def gpu_phrases() -> dict[str, tuple[Named, ...]]:
    """Phrases by their first word, longest first."""
    by_words: dict[tuple[str, ...], list[Gpu]] = defaultdict(list)
    shapes: dict[tuple[str, ...], Phrase] = {}
    for gpu in gpus():
        for name in names_of(gpu):
            p = phrase(name)
            if gpu not in by_words[p.words]:
                by_words[p.words].append(gpu)
            shapes.setdefault(p.words, p)
    first: dict[str, list[Named]] = defaultdict(list)
    for words, found in by_words.items():
        first[words[0]].append(Named(shapes[words], tuple(found)))
    return {
        word: tuple(sorted(named, key=lambda n: -len(n.phrase.words)))
        for word, named in first.items()
    }


@cache
def name_prefixes() -> frozenset[str]:
    """Short letter prefixes written against a model number in GPU names ("h" of "h100"): a
    piece like "h300" that names no GPU is an unknown GPU, not a word."""
    found = set()
    for named in (n for group in gpu_phrases().values() for n in group):
        words, join = named.phrase.words, named.phrase.must_join
        if len(words) >= 2 and join[1]:
            found.add(words[0])
    return frozenset(found)

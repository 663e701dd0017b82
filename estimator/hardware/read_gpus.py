"""GPUs in text: each catalog name with the words around it that pick the variant ("80G A100",
"4060 ti 16gb", "h100 pcie", "4090 laptop") and the count ("2x3090", "six 4090s", "3090 x2",
"twee 3090's"); cards joined by "+", "plus", "and", "en", "met" form one machine, cards joined by
"or", "vs", "of" are alternatives. Words shaped like a GPU that name none are unknown GPUs."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from . import words as w
from .data import gpus
from .mention import Card, UnknownGpu
from .names import (
    FORM_WORDS,
    VENDOR_WORDS,
    Named,
    gpu_phrases,
    lower,
    name_prefixes,
    names_of,
)
from .reading import Text, count_of, is_plural_s
from .types import Gpu

_SUFFIXES = frozenset({"ti", "super", "xt", "xtx", "gre"})
_LAPTOP = frozenset({"laptop", "mobile", "notebook"})
_SERIES = frozenset({"rtx", "gtx", "rx", "arc", "radeon", "geforce", "quadro", "instinct"})
_ALTERNATIVES = frozenset({"or", "of", "vs", "versus", "instead", "compared", "vergeleken"})
# Words that may stand right before a count of cards written as a bare number ("with 2 3090s").
_BEFORE_COUNT = frozenset(
    {"on", "op", "with", "met", "have", "heb", "has", "got", "and", "en", "plus", "+", "&"}
    | {"using", "own", "bezit", "gebruik", "i", "ik", "hebben", "draai", "run"}
)
_LINKS = w.JOINERS | {"+", "&", "a", "an", "een", "one"}
MEMORY_MATCH_GIB = 0.5


@dataclass
class Found:
    card: Card
    first: int
    last: int


def read(text: Text, laptop_context: bool) -> tuple[list[Found], list[UnknownGpu]]:
    found: list[Found] = []
    unknown: list[UnknownGpu] = []
    i = 0
    while i < len(text.pieces):
        hit = _named_at(text, i) if text.free(i) else None
        if hit is None:
            i += 1
            continue
        start, named, end = hit
        if text.word(end + 1) in _SUFFIXES and text.free(end + 1):
            # "RTX 4090 Ti": a near miss of a real card, never silently that card.
            said = text.span_text(start, end + 1)
            near = [g.name for g in named.gpus if not g.laptop][:1]
            found_names = near + [n for n in suggest(said) if n not in near]
            unknown.append(UnknownGpu(said, tuple(found_names[:3])))
            text.take(i, end + 1)
            i = end + 2
            continue
        card = _card(text, i, start, named, end, laptop_context)
        found.append(card)
        text.take(card.first, card.last)
        i = card.last + 1
    unknown += _unknown(text)
    return found, unknown


def _named_at(text: Text, i: int) -> tuple[int, Named, int] | None:
    """The longest catalog name at piece `i` (a full catalog name, or a name after any vendor
    words): where the name starts, what it names, and its last piece."""
    starts = [i]
    j = i
    while text.word(j) in VENDOR_WORDS and text.free(j + 1):
        j += 1
        starts.append(j)
    for start in starts:
        for named in gpu_phrases().get(text.word(start), ()):
            end = start + len(named.phrase.words) - 1
            if named.phrase.matches(text.pieces, start) and all(
                text.free(k) for k in range(start, end + 1)
            ):
                return start, named, end
    return None


def _card(
    text: Text, first: int, start: int, named: Named, end: int, laptop_context: bool
) -> Found:
    memory: float | None = None
    form: str | None = None
    laptop = False
    count: int | None = None
    said_first, said_last, last = start, end, end
    before = text.amount_ending(first - 1)
    if before is not None and before.label in ("", "vram"):
        memory, first, said_first = before.gb, before.first, before.first
    k = end + 1
    while True:
        word = text.word(k)
        amount = text.amount_at(k)
        if not text.free(k):
            break
        if word in FORM_WORDS:
            form = FORM_WORDS[word]
            k += 1
            if word == "pci" and text.word(k) == "e":
                k += 1
            if text.free(k) and text.pieces[k].joined and text.pieces[k].number:
                k += 1  # "sxm5", "pcie5"
            said_last = last = k - 1
        elif word in _LAPTOP or (word == "max" and text.word(k + 1) == "q"):
            laptop = True
            k += 2 if word == "max" else 1
            if text.word(k) in w.GPU:
                k += 1
            said_last = last = k - 1
        elif amount is not None and amount.label in ("", "vram", "gpu") and memory is None:
            memory = amount.gb
            said_last = amount.last
            last = amount.label_span[1] if amount.label else amount.last
            k = last + 1
        elif is_plural_s(text, k):
            last = k
            k += 1
        elif word in ("x", "*") and text.free(k + 1) and count_of(text.pieces[k + 1]) is not None:
            count = count_of(text.pieces[k + 1])
            last = k + 1
            k += 2
        elif word in ("with", "met") and memory is None and _variant_memory(text, k + 1, named):
            amount = text.amount_at(k + 1)
            assert amount is not None
            memory, said_last, last = amount.gb, amount.last, amount.last
            k = amount.last + 1
        else:
            break
    plural = is_plural_s(text, end + 1)
    if count is None:
        count, first = _count_before(text, first, plural)
    gpu, others, override = _resolve(named, memory, form, laptop or laptop_context)
    said = text.span_text(said_first, said_last)
    card = Card(gpu, count, said, override, others)
    return Found(card, first, last)


def _variant_memory(text: Text, k: int, named: Named) -> bool:
    """ "a 3060 with 12gb": the amount after "with" is the card's own when a variant has it."""
    amount = text.amount_at(k)
    if amount is None or amount.label not in ("", "vram"):
        return False
    return any(_memory_fits(g, amount.gb) for g in named.gpus)


def _count_before(text: Text, first: int, plural: bool) -> tuple[int | None, int]:
    """The count written before a card, and the card's new first piece."""
    b = first - 1
    if not text.free(b):
        return None, first
    word = text.word(b)
    if word in ("x", "*") and text.free(b - 1):
        n = count_of(text.pieces[b - 1]) if b >= 1 else None
        if n is not None:
            return n, b - 1
    if word in w.COUNT_FILLER:
        if text.word(b - 1) in ("pair", "couple") and text.free(b - 1):
            return 2, b - 1
        n = count_of(text.pieces[b - 1]) if b >= 1 and text.free(b - 1) else None
        if n is not None:
            return n, b - 1
        return None, first
    if word in w.NUMBERS:
        return w.NUMBERS[word], b
    if word in w.ORDINALS and text.word(b - 1) in w.ADDING:
        return w.ORDINALS[word], b
    n = count_of(text.pieces[b]) if b >= 0 else None
    if n is not None and text.amount_ending(b) is None:
        context = text.word(b - 1)
        if plural or b == 0 or context in _BEFORE_COUNT or not text.free(b - 1):
            return n, b
    return None, first


def _memory_fits(gpu: Gpu, gb: float) -> bool:
    return any(
        m is not None and abs(m - gb) < MEMORY_MATCH_GIB
        for m in (gpu.memory_gib, gpu.visible_memory_gib)
    )


def _resolve(
    named: Named, memory: float | None, form: str | None, laptop: bool
) -> tuple[Gpu, tuple[Gpu, ...], float | None]:
    """The GPU the words pick, the others they also fit (an assumption to state), and a memory
    no variant has (kept as said: a modified card)."""
    pool = [g for g in named.gpus if g.laptop == laptop] or list(named.gpus)
    if form is not None:
        pool = [g for g in pool if g.form_factor == form] or pool
    if memory is not None:
        fitting = [g for g in pool if _memory_fits(g, memory)]
        if not fitting:
            return pool[0], (), memory
        pool = fitting
    return pool[0], tuple(pool[1:]), None


def options(text: Text, found: list[Found]) -> tuple[tuple[Card, ...], ...]:
    """The cards grouped into machines: neighbours joined by "+", "and", "en", "met" (or just a
    comma) are one machine; "or", "vs", "of" or other words between them start another."""
    groups: list[list[Found]] = []
    for f in sorted(found, key=lambda f: f.first):
        before = groups[-1][-1] if groups else None
        if before is not None and f.first == before.last + 1 and f.card.gpu == before.card.gpu:
            continue  # one card by two of its names in a row: "strix halo ryzen ai max 128gb"
        if groups and _joined(text, groups[-1][-1].last + 1, f.first - 1):
            groups[-1].append(f)
        else:
            groups.append([f])
    return tuple(_merged([f.card for f in g]) for g in groups)


def _joined(text: Text, first: int, last: int) -> bool:
    between = [text.word(i) for i in range(first, last + 1)]
    return not any(b in _ALTERNATIVES for b in between) and all(b in _LINKS for b in between)


def _merged(cards: list[Card]) -> tuple[Card, ...]:
    """The same card said twice ("4090 + 4090") is one card counted twice."""
    out: list[Card] = []
    for card in cards:
        same = next((c for c in out if c.gpu == card.gpu and c.memory_gib == card.memory_gib), None)
        if same is None:
            out.append(card)
            continue
        total = (same.count or 1) + (card.count or 1)
        out[out.index(same)] = Card(same.gpu, total, same.said, same.memory_gib, same.others)
    return tuple(out)


def _unknown(text: Text) -> list[UnknownGpu]:
    """Free words shaped like a GPU name: a series word and a model number ("rtx 4095", "arc
    b590"), a catalog name prefix written against a number ("h300"), or a model number called
    a GPU ("my 4095 gpu")."""
    out = []
    i = 0
    prefixes = name_prefixes()
    while i < len(text.pieces):
        if not text.free(i):
            i += 1
            continue
        word = text.word(i)
        end = None
        if word in _SERIES | {"nvidia"} and text.free(i + 1):
            nxt = i + 1
            if text.word(nxt) in prefixes and text.pieces[nxt + 1 : nxt + 2]:
                nxt += 1 if text.pieces[nxt + 1].joined and text.pieces[nxt + 1].number else 0
            if text.pieces[nxt : nxt + 1] and text.pieces[nxt].number:
                end = nxt
        elif word in prefixes and _joined_number(text, i + 1, digits=3):
            end = i + 1
        elif text.pieces[i].number and len(word) == 4 and text.word(i + 1) in w.GPU:
            end = i
        if end is None:
            i += 1
            continue
        while text.free(end + 1) and (
            text.word(end + 1) in _SUFFIXES
            or (text.pieces[end + 1].joined and not is_plural_s(text, end + 1))
        ):
            end += 1
        said = text.span_text(i, end)
        out.append(UnknownGpu(said, tuple(suggest(said))))
        text.take(i, end)
        i = end + 1
    return out


def _joined_number(text: Text, i: int, digits: int) -> bool:
    return (
        text.free(i)
        and text.pieces[i].joined
        and text.pieces[i].number
        and len(text.word(i)) >= digits
    )


@cache
def _choices() -> tuple[tuple[str, Gpu], ...]:
    """Each name people use for a GPU (without brand words), with the GPU, for suggestions."""
    return tuple((n, g) for g in gpus() for n in names_of(g))


def suggest(said: str, limit: int = 3) -> list[str]:
    """Catalog GPUs whose names are closest to `said`, best first; desktop cards before laptop
    ones unless a laptop is said."""
    from rapidfuzz import fuzz

    query = " ".join(p for p in lower(said).split() if p not in VENDOR_WORDS)
    laptop = any(word in query.split() for word in _LAPTOP)
    best: dict[str, tuple[float, bool]] = {}
    prefix = _letters(query)
    for choice, gpu in _choices():
        # The same letters in front ("h" of "h300" and "h100") say the same family.
        same_family = _letters(choice) == prefix
        score = fuzz.ratio(query, choice) + (20 if same_family else 0)
        key = (score, gpu.laptop == laptop)
        if key > best.get(gpu.name, (0.0, False)):
            best[gpu.name] = key
    ranked = sorted(best.items(), key=lambda kv: (kv[1][1], kv[1][0]), reverse=True)
    ranked = sorted(ranked, key=lambda kv: kv[1][0], reverse=True)
    return [name for name, (score, _) in ranked[:limit] if score >= 70]


def _letters(name: str) -> str:
    """The letters a name starts with ("h" of "h100", "" of "4090")."""
    return name[: len(name) - len(name.lstrip("abcdefghijklmnopqrstuvwxyz"))]

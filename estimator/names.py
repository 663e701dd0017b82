"""Forgiving name matching shared by the model and hardware catalogs.

A name becomes a tuple of tokens: lower case, split on separators and where letters turn into
digits ("Qwen2.5-7B" -> ("qwen", "2.5", "7b"), "rtx4090" -> ("rtx", "4090")), with filler tokens
dropped and other spellings of a word made the name's own. Lookups try an exact token match, then a
unique superset match, and otherwise return close names (rapidfuzz) for a "did you mean".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Generic, TypeVar

_SPLIT = re.compile(r"[\s/_\-,()+:'\"]+")
_LETTER_DIGIT = re.compile(r"(?<=[a-z])(?=\d)")
# Spellings a name is written in besides its own: British "distil" for the "Distill" of
# DeepSeek-R1-Distill-Qwen-14B.
_SPELLINGS = {"distil": "distill"}


def tokens(text: str, drop: frozenset[str] = frozenset()) -> tuple[str, ...]:
    out: list[str] = []
    for part in _SPLIT.split(text.lower()):
        for piece in _LETTER_DIGIT.split(part):
            piece = piece.strip(".")
            if piece and piece not in drop:
                out.append(_SPELLINGS.get(piece, piece))
    return tuple(out)


T = TypeVar("T")


class NameIndex(Generic[T]):
    """Maps token tuples to items; several names may point to one item."""

    def __init__(self, drop: frozenset[str] = frozenset()) -> None:
        self._drop = drop
        self._exact: dict[tuple[str, ...], T] = {}
        self._all: list[tuple[frozenset[str], T]] = []
        self._display: dict[str, T] = {}
        # Every message looks its model and GPU up, often by the same few names, and a miss
        # scans every name; bounded, as the texts come from users.
        self.find = lru_cache(maxsize=4096)(self._find)

    def add(self, item: T, display: str, aliases: Iterable[str] = ()) -> None:
        self.find.cache_clear()
        self._display[display] = item
        for name in (display, *aliases):
            key = tokens(name, self._drop)
            if key:
                self._exact.setdefault(key, item)
                self._all.append((frozenset(key), item))

    def _find(self, text: str) -> T | None:
        """The item `text` names, or None when it names none or several."""
        key = tokens(text, self._drop)
        if not key:
            return None
        if key in self._exact:
            return self._exact[key]
        wanted = frozenset(key)
        hits = {id(item): item for names, item in self._all if wanted <= names}
        return next(iter(hits.values())) if len(hits) == 1 else None

    def candidates(self, text: str) -> list[T]:
        """Every item whose names contain all the tokens of `text`."""
        wanted = frozenset(tokens(text, self._drop))
        if not wanted:
            return []
        hits = {id(item): item for names, item in self._all if wanted <= names}
        return list(hits.values())

    def suggest(self, text: str, limit: int = 3) -> list[str]:
        """Display names closest to `text`, best first: names containing every token of `text`
        (those with the fewest other tokens first), then by rapidfuzz token-set similarity
        (ties broken by plain similarity)."""
        from rapidfuzz import fuzz

        wanted = frozenset(tokens(text, self._drop))
        query = " ".join(tokens(text, self._drop))
        if not query:
            return []
        display = {id(item): name for name, item in self._display.items()}
        scores: dict[str, tuple[bool, float, int, float]] = {}
        for names, item in self._all:
            choice = " ".join(sorted(names))
            score = (
                wanted <= names,
                fuzz.token_set_ratio(query, choice),
                -len(names - wanted),
                fuzz.ratio(query, choice),
            )
            name = display[id(item)]
            scores[name] = max(scores.get(name, score), score)
        ranked = sorted(scores.items(), key=lambda kv: kv[1], reverse=True)
        return [name for name, (_, best, _, _) in ranked[:limit] if best >= 60]

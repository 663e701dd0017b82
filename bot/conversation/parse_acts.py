"""Messages that are not a sizing question: a greeting, a request for help, thanks, the user
describing their own machine; and a saved machine a question names ("on my mac")."""

from __future__ import annotations

import re

from .. import lexicon as lx
from .reading import Act

_WORD = re.compile(r"[\w'/]+")
# Words besides the act's own that still make a short courtesy ("that helped a lot").
MAX_OTHER_WORDS = 3
_ACTS: tuple[tuple[str, Act], ...] = (
    ("help", "help"),
    ("thanks", "thanks"),
    ("greeting", "greeting"),
)
# "on my mac", "op mijn laptop", "with my lab server": a machine named after "my".
_NAMED = re.compile(
    r"(?<![\w])"
    + lx.fragment("place")
    + r"\s+"
    + lx.fragment("my")
    + r"\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)"
)


def act(low: str) -> Act | None:
    """The act of a message made of greeting, help or thanks words and little else (the
    caller has found no question in it): "hi!", "what can you do?", "thx that helped a lot".
    Help beats thanks beats greeting."""
    rest = low
    said: set[Act] = set()
    for concept, name in _ACTS:
        pattern = lx.pattern(concept)
        if pattern.search(rest):
            said.add(name)
            rest = pattern.sub(" ", rest)
    if not said:
        return None
    courtesy = lx.pattern("courtesy")
    others = [w for w in _WORD.findall(rest) if not courtesy.fullmatch(w)]
    if len(others) > MAX_OTHER_WORDS:
        return None
    return next(name for _, name in _ACTS if name in said)


def own_hardware(low: str) -> str | None:
    """The words that name the user's machine when they describe it ("my gaming pc has ..."):
    'gaming pc'; '' when they describe it without naming it ("I have a 4090"); None when
    the message does not describe their machine."""
    m = lx.search("own_hardware", low)
    if m is None:
        return None
    named = re.match(
        lx.fragment("my") + r"\s+((?:[a-z][\w-]*\s+)?[a-z][\w-]*)\s*" + lx.fragment("describes"),
        m.group(),
    )
    if named is None:
        return ""
    return " ".join(w for w in named.group(1).split() if not _not_a_name(w))


def named_machine(low: str) -> str | None:
    """The saved machine a question names: "on my mac" -> 'mac', "op mijn lab server" ->
    'lab server' (a profile called 'lab' or 'lab server' may match)."""
    m = _NAMED.search(low)
    if m is None:
        return None
    words = m.group(1).split()
    if _not_a_name(words[0]) or _joins(words[0]):
        return None
    if len(words) == 2 and _joins(words[1]):
        words = words[:1]
    return " ".join(words)


def _not_a_name(word: str) -> bool:
    """Hardware or a thing after "my" ("my gpu", "my data"): no saved machine's name."""
    return bool(lx.pattern("not_a_name").fullmatch(word))


def _joins(word: str) -> bool:
    """A word that joins a sentence rather than naming a machine ("my mac with ...")."""
    return bool(lx.pattern("joiner").fullmatch(word)) or any(
        word in lex.function_words for lex in lx.lexicons()
    )

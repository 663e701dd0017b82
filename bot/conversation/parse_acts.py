"""Messages that are not a sizing question: a greeting, a request for help, thanks, the user
describing their own machine; and a saved machine a question names ("on my mac")."""

from __future__ import annotations

import re

from .. import lexicon as lx
from .reading import Act

# Words that may stand beside a greeting or thanks without making it a question.
_COURTESY = lx.words(
    "bot sizer llm there daar again weer so much very please alsjeblieft aub hoor man mate "
    "you je jij u all allemaal everyone iedereen guys jongens folks well wel nou oh ah "
    "and en for voor the de your je jullie lot veel hartelijk really echt"
)
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
    r"(?<![\w])(?:on|op|with|met|using|for|voor|via|in)\s+"
    + lx.fragment("my")
    + r"\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)"
)
# Words after "my" that are hardware or a thing, not the name of a saved machine.
_NOT_NAMES = lx.words(
    "gpu gpus card kaart videokaart graphics own eigen data dataset model models modellen "
    "question vraag budget team company bedrijf cpu ram memory geheugen side kant own "
    "project use use-case usecase end"
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
    others = [w for w in _WORD.findall(rest) if w not in _COURTESY]
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
        lx.fragment("my") + r"\s+((?:[a-z][\w-]*\s+)?[a-z][\w-]*)\s+(?:has|have|is|got|heeft|"
        r"is|bevat|comes|runs|draait|contains|:)",
        m.group(),
    )
    if named is None:
        return ""
    words = [w for w in named.group(1).split() if w not in _NOT_NAMES]
    return " ".join(words)


def named_machine(low: str) -> str | None:
    """The saved machine a question names: "on my mac" -> 'mac', "op mijn lab server" ->
    'lab server' (a profile called 'lab' or 'lab server' may match)."""
    m = _NAMED.search(low)
    if m is None:
        return None
    words = m.group(1).split()
    if words[0] in _NOT_NAMES or _joins(words[0]):
        return None
    if len(words) == 2 and _joins(words[1]):
        words = words[:1]
    return " ".join(words)


def _joins(word: str) -> bool:
    """A word that joins a sentence rather than naming a machine ("my mac with ...")."""
    return bool(lx.pattern("joiner").fullmatch(word)) or any(
        word in lex.function_words for lex in lx.lexicons()
    )

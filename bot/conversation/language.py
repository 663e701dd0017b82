"""Which language a message is in: counting the words that only one lexicon's language uses."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..i18n import Language
from ..lexicon import lexicons

_WORD = re.compile(r"[a-zà-ÿ']+")
# A lead this large is the message's own language; a smaller one only starts a conversation,
# or decides a message of at least LONG_ENOUGH words.
CLEAR_LEAD = 2
LONG_ENOUGH = 4
STRONG = 2  # the weight of a word only one language uses


@dataclass(frozen=True, slots=True)
class Detected:
    language: Language | None  # the language with the most words, None on a tie
    lead: int  # how much more weight than the runner-up
    words: int


def detected(text: str) -> Detected:
    words = _WORD.findall(text.lower())
    counts = sorted(
        (
            (
                sum(
                    STRONG if w in lex.strong_words else 1
                    for w in words
                    if w in lex.function_words or w in lex.strong_words
                ),
                lex.code,
            )
            for lex in lexicons()
        ),
        reverse=True,
    )
    (best, code), (second, _) = counts[0], counts[1]
    return Detected(code if best > second else None, best - second, len(words))


def detect(text: str) -> Language | None:
    """'nl' or 'en' when the words say so, None when they do not."""
    return detected(text).language


def choose(text: str, conversation: Language | None, fallback: Language) -> Language:
    """The language to answer `text` in: its own when it is clear ("hoi", "bedankt", a
    sentence); a short or ambiguous message ("thanks", "ok", "training", "llama 70b?") keeps
    the conversation's language; a first message with a hint of a language takes it; else the
    fallback (the user's setting)."""
    found = detected(text)
    clear = found.lead >= CLEAR_LEAD or (found.lead >= 1 and found.words >= LONG_ENOUGH)
    if found.language is not None and (clear or conversation is None):
        return found.language
    return conversation or fallback

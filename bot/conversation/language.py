"""English or Dutch? Counting words that only one of the two languages uses."""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-zà-ÿ']+")
DUTCH = frozenset(
    [
        "ik",
        "mijn",
        "kan",
        "kun",
        "kunnen",
        "een",
        "het",
        "de",
        "op",
        "met",
        "draaien",
        "draait",
        "trainen",
        "fijntunen",
        "finetunen",
        "bijtrainen",
        "hoeveel",
        "welke",
        "wat",
        "waar",
        "heb",
        "hebt",
        "nodig",
        "gebruikers",
        "gelijktijdige",
        "geheugen",
        "zonder",
        "alleen",
        "niet",
        "ook",
        "voor",
        "van",
        "naar",
        "dan",
        "maar",
        "past",
        "passen",
        "lukt",
        "lukken",
        "genoeg",
        "grootste",
        "kleinste",
        "goedkoopste",
        "snelheid",
        "contextlengte",
        "werkgeheugen",
        "videokaart",
        "kaart",
        "rijen",
        "kenmerken",
        "wil",
        "willen",
        "zou",
        "moet",
        "welk",
        "er",
        "dit",
        "dat",
        "deze",
        "model",
        "modellen",
        "mogelijk",
        "en",
    ]
)
ENGLISH = frozenset(
    [
        "i",
        "my",
        "can",
        "could",
        "the",
        "a",
        "an",
        "on",
        "with",
        "run",
        "running",
        "train",
        "training",
        "fine",
        "tune",
        "how",
        "many",
        "much",
        "which",
        "what",
        "where",
        "have",
        "need",
        "users",
        "concurrent",
        "memory",
        "without",
        "only",
        "not",
        "also",
        "for",
        "of",
        "to",
        "than",
        "but",
        "fit",
        "fits",
        "enough",
        "biggest",
        "largest",
        "smallest",
        "cheapest",
        "speed",
        "is",
        "it",
        "this",
        "that",
        "these",
        "will",
        "would",
        "should",
        "does",
        "do",
        "rows",
        "features",
        "want",
        "and",
    ]
)
# Words both languages write the same way carry no signal.
SHARED = frozenset(
    {"model", "laptop", "gpu", "cpu", "ram", "context", "tokens", "lora", "qlora", "cloud"}
)


def detect(text: str) -> str | None:
    """'nl' or 'en' when the words say so, None when they do not."""
    words = [w for w in _WORD.findall(text.lower()) if w not in SHARED]
    dutch = sum(w in DUTCH for w in words)
    english = sum(w in ENGLISH for w in words)
    if dutch == english:
        return None
    return "nl" if dutch > english else "en"

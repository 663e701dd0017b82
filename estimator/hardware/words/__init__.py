"""The words the hardware reader knows, one module per language, merged: a message may mix them
("2x 3090 met 64gb ram"), and no hardware word of one language means something else in the
other."""

from __future__ import annotations

from . import en, nl

_LANGUAGES = (en, nl)


def _words(name: str) -> frozenset[str]:
    return frozenset(w for lang in _LANGUAGES for w in getattr(lang, name))


def _phrases(name: str) -> tuple[tuple[str, ...], ...]:
    return tuple(p for lang in _LANGUAGES for p in getattr(lang, name))


NUMBERS: dict[str, int] = {k: v for lang in _LANGUAGES for k, v in lang.NUMBERS.items()}
ORDINALS: dict[str, int] = {k: v for lang in _LANGUAGES for k, v in lang.ORDINALS.items()}
ADDING = _words("ADDING")
SOCKETS: dict[str, int] = {k: v for lang in _LANGUAGES for k, v in lang.SOCKETS.items()}
COUNT_FILLER = _words("COUNT_FILLER")
JOINERS = _words("JOINERS")
RAM = _words("RAM")
RAM_PHRASES = _phrases("RAM_PHRASES")
VRAM = _words("VRAM")
VRAM_PHRASES = _phrases("VRAM_PHRASES")
MEMORY = _words("MEMORY")
DATA = _words("DATA")
NOT_A_CARD = _words("NOT_A_CARD")
GPU = _words("GPU")
LAPTOP = _words("LAPTOP")
CPU_ONLY = _phrases("CPU_ONLY")

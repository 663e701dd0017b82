"""Where a message means this very machine ("on my machine", "op deze computer"): the words the
terminal chat replaces with the detected hardware before the question is read."""

from __future__ import annotations

import re

THIS_MACHINE = re.compile(
    r"\b(?:my|this)\s+(?:own\s+)?(?:machine|computer|pc|desktop|workstation)\b"
    r"|\b(?:mijn|deze)\s+(?:eigen\s+)?(?:machine|computer|pc|desktop|werkstation)\b",
    re.IGNORECASE,
)


def mentions(text: str) -> bool:
    return THIS_MACHINE.search(text) is not None


def replace(text: str, hardware: str) -> str:
    """`text` with each mention of this machine replaced by `hardware` (in question words)."""
    return THIS_MACHINE.sub(hardware, text)

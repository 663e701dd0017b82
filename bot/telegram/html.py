"""Replies as Telegram HTML: every dynamic string escaped, split into messages under Telegram's
4096-character limit on line boundaries, with each message's tags opened and closed inside it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from html import escape

MESSAGE_LIMIT = 4096
CAPTION_LIMIT = 1024
# Room for the tags one message adds around its lines.
_MARGIN = 64


def _pieces(line: str, room: int) -> Iterable[str]:
    """The line, or when it is too long for one message, pieces whose escaped text fits."""
    if len(escape(line)) <= room:
        yield line
        return
    piece = ""
    for char in line:
        if len(escape(piece + char)) > room:
            yield piece
            piece = ""
        piece += char
    yield piece


def split(
    lines: list[str], markup: Callable[[int, str], str] | None = None, limit: int = MESSAGE_LIMIT
) -> list[str]:
    """Messages of escaped lines, each under `limit` characters; `markup(index, escaped_line)`
    may wrap a line in tags (the tags then stay on that line)."""
    room = limit - _MARGIN
    messages: list[str] = []
    current: list[str] = []
    size = 0
    for index, line in enumerate(lines):
        for piece in _pieces(line, room):
            rendered = markup(index, escape(piece)) if markup else escape(piece)
            if current and size + len(rendered) + 1 > room:
                messages.append("\n".join(current))
                current, size = [], 0
            current.append(rendered)
            size += len(rendered) + 1
    if current:
        messages.append("\n".join(current))
    return [m for m in messages if m.strip()]


def answer(text: str) -> list[str]:
    """A conversational reply: the first line (the headline or question) in bold, section
    headers (lines ending in ':') in italics."""

    def markup(index: int, line: str) -> str:
        if index == 0 or (index == 1 and line.split(":", 1)[0].isalpha()):
            return f"<b>{line}</b>" if line else line
        if line.endswith(":") and not line.startswith(" "):
            return f"<i>{line}</i>"
        return line

    return split(text.split("\n"), markup)


def preformatted(text: str) -> list[str]:
    """A table (the whole calculation) in monospace, one <pre> block per message."""
    return [f"<pre>{chunk}</pre>" for chunk in split(text.split("\n"))]

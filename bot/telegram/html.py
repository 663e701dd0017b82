"""Replies as Telegram HTML: every dynamic string escaped, split into messages under Telegram's
4096-character limit on line boundaries, with each message's tags opened and closed inside it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from html import escape

from ..conversation.reply import Reply, Section

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


def _bold(line: str) -> str:
    return f"<b>{line}</b>" if line else line


def _italic(line: str) -> str:
    return f"<i>{line}</i>" if line else line


def _code(line: str) -> str:
    return f"<code>{line}</code>" if line else line


def _plain(line: str) -> str:
    return line


def _lines(section: Section) -> list[tuple[str, Callable[[str], str]]]:
    """A section's lines, each with the markup it takes; choices and hints become buttons."""
    kind = section.kind
    if kind in ("choices", "hint"):
        return []
    out: list[tuple[str, Callable[[str], str]]] = []
    if section.title:
        out.append((section.title, _italic))
    for n, item in enumerate(section.items, 1):
        strong = kind == "headline" or (item.primary and kind in ("verdict", "inverse", "plan"))
        if kind == "advice":
            out.append(
                (
                    f"{'→' if item.primary else ''}{n}. {item.text}",
                    _bold if item.primary else _plain,
                )
            )
        elif kind == "refinements":
            out.append((f"• {item.text}", _plain))
        elif kind == "calculation":
            out += [(line, _code) for line in item.text.split("\n")]
        else:
            out += [(line, _bold if strong else _plain) for line in item.text.split("\n")]
        if item.detail:
            out.append((f"   {item.detail}", _plain))
        if item.command:
            out.append((item.command, _code))
    return out


def reply(answer: Reply) -> list[str]:
    """A reply's sections as Telegram messages: the headline and the verdict that matters in
    bold, section titles in italics, commands as code; blocks set off by a blank line."""
    marked: list[tuple[str, Callable[[str], str]]] = []
    for section in answer.sections:
        lines = _lines(section)
        if not lines:
            continue
        if marked and section.kind not in ("verdict", "breakdown"):
            marked.append(("", _plain))
        marked += lines
    return split([line for line, _ in marked], lambda i, escaped: marked[i][1](escaped))


def preformatted(text: str) -> list[str]:
    """A table (the whole calculation) in monospace, one <pre> block per message."""
    return [f"<pre>{chunk}</pre>" for chunk in split(text.split("\n"))]

"""The terminal's screen for the chat: lines wrapped to its width between words (a long word is
never cut, an indented or numbered line continues under its text), and the verdict in colour.
Both only where the output is a terminal; colour not with NO_COLOR set (https://no-color.org)
nor with TERM=dumb."""

from __future__ import annotations

import os
import re
import shutil
import sys
import textwrap
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from ..conversation.reply import Reply

# ANSI SGR: bold, and bold with a colour per verdict (green fits; yellow tight or offload;
# red does not fit).
BOLD = "\033[1m"
RESET = "\033[0m"
VERDICT_STYLE = {
    "fits": "\033[1;32m",
    "tight": "\033[1;33m",
    "offload": "\033[1;33m",
    "does_not_fit": "\033[1;31m",
}
FALLBACK_WIDTH = 80
# What a continuation line is indented under: leading spaces, then a list marker.
_MARKER = re.compile(r"^(\s*)(?:[→ ]?\d{1,3}[.)]\s+|\(\d{1,3}\)\s+|[→•-]\s*)?")


def width() -> int:
    return shutil.get_terminal_size((FALLBACK_WIDTH, 24)).columns


def colour(stream: TextIO) -> bool:
    return stream.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM", "") != "dumb"


def wrap(line: str, columns: int) -> list[str]:
    """`line` in lines of at most `columns` characters, broken between words only."""
    if len(line) <= columns:
        return [line]
    marker = _MARKER.match(line)
    indent = " " * (marker.end() if marker else 0)
    if len(indent) > columns // 2:
        indent = ""
    return textwrap.wrap(
        line,
        columns,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [line]


def render(text: str, reply: Reply | None = None, *, stream: TextIO = sys.stdout) -> str:
    """`text` (a reply's plain rendering) wrapped to the terminal, its verdict line emphasised."""
    # Into a pipe or a file, lines stay whole: whatever reads them wraps them its own way.
    columns = max(20, width() - 1) if stream.isatty() else None
    verdict_line = _verdict_line(reply) if reply is not None and colour(stream) else None
    style = VERDICT_STYLE.get(reply.verdict or "", BOLD) if reply is not None else BOLD
    out: list[str] = []
    for line in text.split("\n"):
        parts = wrap(line, columns) if columns else [line]
        if verdict_line is not None and line.strip() == verdict_line:
            parts = [f"{style}{part}{RESET}" for part in parts]
            verdict_line = None
        out += parts
    return "\n".join(out)


def _verdict_line(reply: Reply) -> str | None:
    section = reply.section("verdict")
    if section is None or not section.items:
        return None
    return section.items[0].text.strip()

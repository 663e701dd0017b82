"""A reply's sections as plain text, for the terminal: the chat (numbered choices you can type)
or a one-shot `llm-sizer ask` (the same, with the hint saying how to ask again)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..i18n import t

if TYPE_CHECKING:
    from ..conversation.reply import Reply, Section

Mode = Literal["chat", "oneshot"]
# Sections that follow the headline without a blank line: they read as one block.
_LEAD = frozenset({"headline", "verdict", "breakdown"})


def _section(section: Section, lang: str, mode: Mode, choices: bool = False) -> list[str]:
    kind = section.kind
    if kind == "hint":
        if mode == "chat":
            return [t("reply.details_hint", lang)]
        return [t("reply.details_hint_ask" if choices else "reply.details_hint_ask_only", lang)]
    lines = [section.title] if section.title else []
    numbered = kind in ("refinements", "choices")
    for n, item in enumerate(section.items, 1):
        if numbered:
            lines.append(f"  {n}) {item.text}")
        elif kind == "advice":
            lines.append(f"{'→' if item.primary else ' '}{n}. {item.text}")
        elif kind == "breakdown" or (section.title and kind not in ("plan", "calculation")):
            lines.append(f"  {item.text}")
        else:
            lines.append(item.text)
        indent = "   " if kind == "advice" else "  "
        if item.detail:
            lines.append(f"{indent}{item.detail}")
        if item.command:
            lines.append(f"{indent}  {item.command}")
    return lines


def render(reply: Reply, mode: Mode = "chat") -> str:
    """The reply as lines of text; blocks after the first are set off by a blank line."""
    lines: list[str] = []
    for i, section in enumerate(reply.sections):
        body = _section(section, reply.language, mode, bool(reply.choices))
        if not body:
            continue
        if lines and not (section.kind in _LEAD and reply.sections[i - 1].kind in _LEAD):
            lines.append("")
        lines += body
    return "\n".join(lines)

"""A reply's sections as Markdown, to paste into GitHub, Slack or Discord (`--format markdown`):
the verdict in bold, the memory as a table (component, total, per device), the plan and the
advice as a numbered list with their commands in code blocks, the rest as short lists."""

from __future__ import annotations

from typing import TYPE_CHECKING

from estimator.result import COMPONENTS, Estimate

from ..i18n import t
from . import numbers

if TYPE_CHECKING:
    from ..conversation.reply import Reply, Section

# Sections a shared message has no use for: how to ask for more in the chat.
_LEFT_OUT = frozenset({"hint"})


def render(reply: Reply, estimate: Estimate | None = None) -> str:
    """`reply` as Markdown; `estimate` (else the reply's own drawing) gives the memory table."""
    if estimate is None:
        drawing = reply.drawing()
        estimate = drawing.estimate if drawing is not None else None
    blocks = [
        block
        for section in reply.sections
        if section.kind not in _LEFT_OUT
        for block in [_section(section, estimate, reply.language)]
        if block
    ]
    return "\n\n".join(blocks) + "\n"


def _section(section: Section, estimate: Estimate | None, lang: str) -> str:
    kind, items = section.kind, section.items
    if kind == "breakdown" and estimate is not None:
        return table(estimate, lang)
    lines = [f"**{_inline(section.title)}**"] if section.title else []
    if kind in ("headline", "inverse"):
        lines += [f"### {_inline(item.text)}" for item in items]
    elif kind == "verdict":
        lines += [f"**{_inline(items[0].text)}**", *(_inline(i.text) for i in items[1:])]
    elif kind in ("advice", "plan"):
        for n, item in enumerate(items, 1):
            mark = " ✅" if item.primary else ""
            detail = f": {_inline(item.detail)}" if item.detail else ""
            lines.append(f"{n}. **{_inline(item.text)}**{mark}{detail}")
            if item.command:
                lines += ["", "   ```", *(f"   {c}" for c in item.command.splitlines()), "   ```"]
    elif kind == "calculation":
        lines += ["```", *(item.text for item in items), "```"]
    elif kind == "text":
        lines += [_inline(item.text) for item in items]
    else:
        for item in items:
            detail = f": {_inline(item.detail)}" if item.detail else ""
            lines.append(f"- {_inline(item.text.removeprefix('- '))}{detail}")
    return "\n".join(lines)


def table(est: Estimate, lang: str) -> str:
    """Memory by component: the job's total and, on several devices, the fullest device's."""
    multi = len(est.devices) > 1
    fullest = max(est.devices, key=lambda d: d.components.total)
    header = [t("table.component", lang), t("table.total", lang)]
    if multi:
        header.append(t("table.per_device", lang))
    rows = [_row(header), _row(["---", *["---:"] * (len(header) - 1)])]
    for name in COMPONENTS:
        total = getattr(est.components, name)
        if not total:
            continue
        cells = [_capital(t(f"component.{name}", lang)), numbers.size(total, lang)]
        if multi:
            cells.append(numbers.size(getattr(fullest.components, name), lang))
        rows.append(_row(cells))
    cells = [f"**{t('table.total', lang)}**", f"**{numbers.size(est.total_bytes, lang)}**"]
    if multi:
        cells.append(f"**{numbers.size(fullest.components.total, lang)}**")
    rows.append(_row(cells))
    if fullest.usable_bytes is not None:
        usable = numbers.size(fullest.usable_bytes, lang)
        rows.append(_row([t("table.usable", lang), *([""] if multi else []), usable]))
    return "\n".join(rows)


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


def _capital(label: str) -> str:
    return label[:1].upper() + label[1:]


def _inline(text: str | None) -> str:
    """Text on one Markdown line: emphasis markers a model name may hold are kept literal."""
    return (text or "").replace("*", "\\*")

"""Saved questions as short lines, for a person's /history and a team's /recent."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..i18n import t
from . import numbers

# Only a type here: importing storage at run time pulls SQLAlchemy into every CLI command's
# start-up (this module is imported with the chat command), `estimate` included.
if TYPE_CHECKING:
    from storage.schemas import Query

TEXT_SHOWN = 120


def memory(q: Query, lang: str) -> str | None:
    """The memory the answer gave: per device where it was spread over several (what each card
    must hold, as the answer said), else the total; None for a question without one."""
    if q.per_device_bytes is not None and q.per_device_bytes != q.total_bytes:
        return t("history.per_device", lang, size=numbers.size(q.per_device_bytes, lang))
    if q.total_bytes is None:
        return None
    return numbers.size(q.total_bytes, lang)


def line(q: Query, lang: str) -> str:
    """ "• can I fine-tune 7B on 24GB? — does not fit, 117.6 GiB"."""
    verdict = (
        t("history.need_more", lang)
        if q.status == "need_more"
        else t(f"verdict.{q.verdict or 'unknown'}", lang)
    )
    shown = memory(q, lang)
    size = "" if shown is None else f", {shown}"
    return f"• {' '.join(q.text.split())[:TEXT_SHOWN]} — {verdict}{size}"

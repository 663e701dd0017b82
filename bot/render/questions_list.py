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


def line(q: Query, lang: str) -> str:
    """ "• can I fine-tune 7B on 24GB? — does not fit, 117.6 GiB"."""
    verdict = (
        t("history.need_more", lang)
        if q.status == "need_more"
        else t(f"verdict.{q.verdict or 'unknown'}", lang)
    )
    total = "" if q.total_bytes is None else f", {numbers.size(q.total_bytes, lang)}"
    return f"• {' '.join(q.text.split())[:TEXT_SHOWN]} — {verdict}{total}"

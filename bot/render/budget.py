"""The card a budget buys, as the sentence that leads the answer for it."""

from __future__ import annotations

from estimator.budget import Pick

from ..i18n import t
from . import numbers


def sentence(pick: Pick, budget: float, currency: str | None, lang: str) -> str:
    """ "For 1,000 EUR: the Radeon RX 7900 XTX (24 GB, 999 USD at launch in 2022) ..."; the
    catalog's prices are in USD, so a budget in another currency is compared as said."""
    said = currency or "USD"
    text = t(
        "budget.pick" if pick.verified else "budget.pick_street",
        lang,
        budget=f"{numbers.integer(budget, lang)} {said}",
        gpu=pick.gpu.name,
        memory=numbers.integer(pick.gpu.memory_gib, lang),
        usd=numbers.integer(pick.usd, lang),
        year=pick.gpu.launch_year,
    )
    if said != "USD":
        text += " " + t("budget.currency", lang, currency=said)
    return text

"""Numbers as people read them: GiB with one decimal, parameter counts in B/M, grouped integers."""

from __future__ import annotations

import math
from contextvars import ContextVar

from estimator.vocabulary import GIB, MIB


def _decimal(text: str, lang: str) -> str:
    if lang != "nl":
        return text
    return text.replace(",", "\0").replace(".", ",").replace("\0", ".")


# The unit a reader asked for ("GB" in their settings); GiB, as on the cards, by default.
UNITS: ContextVar[str] = ContextVar("units", default="GiB")


def size(n: float, lang: str) -> str:
    """Bytes as GiB (one decimal), or MiB below 1 GiB; decimal GB/MB when UNITS is "GB"."""
    if UNITS.get() == "GB":
        if abs(n) >= 1e9:
            return _decimal(f"{n / 1e9:,.1f} GB", lang)
        return _decimal(f"{n / 1e6:,.0f} MB", lang)
    if abs(n) >= GIB:
        return _decimal(f"{n / GIB:,.1f} GiB", lang)
    return _decimal(f"{n / MIB:,.0f} MiB", lang)


def count(n: float, lang: str) -> str:
    """A parameter count: 7.62B, 494M, 135K."""
    for scale, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")):
        if abs(n) >= scale:
            value = n / scale
            text = f"{value:.3g}" if value < 100 else f"{value:.0f}"
            return _decimal(text + suffix, lang)
    return str(int(n))


def integer(n: float, lang: str) -> str:
    return _decimal(f"{round(n):,}", lang)


def number(x: float, lang: str) -> str:
    """A small real number with up to four significant digits: 2, 1.0625, 4.89."""
    text = f"{x:.4g}" if x != int(x) else str(int(x))
    return _decimal(text, lang)


def usd(x: float, lang: str) -> str:
    """A price in dollars as prices are written: cents below 100 (0.80, 3.99), whole above."""
    if abs(x) >= 100:
        return integer(x, lang)
    return _decimal(f"{x:,.2f}", lang)


def duration(low_hours: float, high_hours: float, lang: str) -> str:
    """A time range in the unit that reads best for its upper end: 25–40 min, 1.5–2.2 hours,
    3.1–4.4 days."""
    from ..i18n import t

    if high_hours < 1:
        low, high, unit = low_hours * 60, high_hours * 60, "unit.minutes"
    elif high_hours < 48:
        low, high, unit = low_hours, high_hours, "unit.hours"
    else:
        low, high, unit = low_hours / 24, high_hours / 24, "unit.days"
    return f"{span(low, high, lang)} {t(unit, lang)}"


def span(low: float, high: float, lang: str) -> str:
    """A range with both ends to the same decimals, three significant digits at the larger end
    and no zeros both ends trail: 41.9–56.0, 0.74–1.06, 0.9–1.5, 1,230–1,480 (not 41.9–56 or
    0.742–1.06, which read as two precisions)."""
    return "–".join(ends(low, high, lang))


def ends(low: float, high: float, lang: str) -> tuple[str, str]:
    """The two ends of a range as `span` writes them, for sentences that place each."""
    decimals = _decimals(max(abs(low), abs(high)))
    while decimals and all(f"{x:.{decimals}f}".endswith("0") for x in (low, high)):
        decimals -= 1
    first, last = (_decimal(f"{x:,.{decimals}f}", lang) for x in (low, high))
    return first, last


def _decimals(x: float) -> int:
    # Rounded first, so that 99.96 counts as the 100 it is shown as.
    rounded = float(f"{x:.3g}")
    if rounded == 0:
        return 0
    return max(0, 2 - math.floor(math.log10(rounded)))


def percent(x: float, lang: str, decimals: int = 0) -> str:
    return _decimal(f"{100 * x:.{decimals}f}%", lang)


def significant(x: float, lang: str) -> str:
    """Three significant digits, grouped: 1,230 / 84.3 / 0.512."""
    if x >= 100:
        return integer(x, lang)
    return _decimal(f"{x:.3g}", lang)


def flops(n: float, lang: str) -> str:
    """A FLOP count: 15.2 G, 1.3 T."""
    for scale, suffix in ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M")):
        if n >= scale:
            return _decimal(f"{n / scale:.3g} {suffix}", lang)
    return integer(n, lang)

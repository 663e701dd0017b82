"""An Estimate as a PNG for the Telegram bot: a picture of what fills a device says more than a
table on a phone screen.

Only matplotlib's object API is used (a Figure with its own Agg canvas, no pyplot), so nothing is
global and charts can be drawn in worker threads (`asyncio.to_thread`) at the same time.
"""

from __future__ import annotations

import io

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

from estimator.result import COMPONENTS, Device, Estimate

from ..i18n import t
from . import numbers
from .hardware import label as hardware_label

DPI = 100
WIDE = (10.0, 5.0)  # inches at DPI: 1000x500 px with the context panel
NARROW = (6.0, 5.0)  # 600x500 px without it
COLORS = dict(
    zip(
        COMPONENTS,
        (
            "#4C72B0",
            "#DD8452",
            "#55A868",
            "#C44E52",
            "#8172B3",
            "#937860",
            "#DA8BC3",
            "#CCB974",
            "#64B5CD",
            "#8C8C8C",
        ),
        strict=True,
    )
)
RED = "#C62828"
VERDICT_COLORS = {"fits": "#2E7D32", "tight": "#E65100", "offload": "#E65100", "does_not_fit": RED}


def memory_chart(
    est: Estimate, lang: str, context_curve: list[tuple[int, int]] | None = None
) -> bytes:
    """The estimate as PNG bytes; with `context_curve` (from `estimator.curve.context_curve`) a second panel
    shows memory against context length."""
    fig = memory_figure(est, lang, context_curve)
    buffer = io.BytesIO()
    fig.canvas.print_png(buffer)
    return buffer.getvalue()


def memory_figure(
    est: Estimate, lang: str, context_curve: list[tuple[int, int]] | None = None
) -> Figure:
    """The Figure behind `memory_chart`, separate so tests can look at what was drawn."""
    curve = context_curve or []
    fig = Figure(figsize=WIDE if curve else NARROW, dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)  # attaches itself: text is measured with Agg for the layout
    fig.suptitle(
        _escape(f"{_title(est, lang)}\n{_subtitle(est, lang)}"),
        color=VERDICT_COLORS.get(est.verdict, "#424242"),
        fontsize=11,
    )
    fullest = max(est.devices, key=lambda d: d.components.total)
    if curve:
        left, right = fig.subplots(1, 2, width_ratios=[1, 1.3])
        _context_panel(right, curve, fullest, est.inputs.context, lang)
    else:
        left = fig.subplots()
    _bar_panel(left, est, fullest, lang)
    return fig


def _title(est: Estimate, lang: str) -> str:
    i = est.inputs
    verdict = t(f"verdict.{est.verdict}", lang)
    if i.machine is None:
        return t("chart.title_no_hardware", lang, model=i.model, verdict=verdict)
    hardware = hardware_label(i.machine, i.gpu_count)
    return t("chart.title", lang, model=i.model, hardware=hardware, verdict=verdict)


def _subtitle(est: Estimate, lang: str) -> str:
    i = est.inputs
    task = f"{i.task}/{i.method}" if i.task == "training" else i.task
    context = numbers.integer(i.context, lang)
    return t("chart.subtitle", lang, task=task, precision=i.precision, context=context)


def _bar_panel(ax: Axes, est: Estimate, device: Device, lang: str) -> None:
    """One stacked bar of the fullest device's components against its capacity lines."""
    bottom, bars = 0.0, []
    for name in COMPONENTS:
        value = getattr(device.components, name)
        if not value:
            continue
        label = f"{t(f'component.{name}', lang)}: {numbers.size(value, lang)}"
        bars.append(ax.bar(0, value / numbers.GIB, 0.6, bottom, color=COLORS[name], label=label))
        bottom += value / numbers.GIB
    ax.annotate(
        numbers.size(device.components.total, lang),
        (0, bottom),
        xytext=(0, 3),
        textcoords="offset points",
        ha="center",
        va="bottom",
        fontweight="bold",
    )
    top = _capacity_lines(ax, device, lang)
    ax.set_xlim(-0.5, 0.5)
    ax.set_ylim(0, max(bottom, top) * 1.15 or 1)
    ax.xaxis.set_major_locator(NullLocator())
    _gib_axis(ax, lang)
    multi = est.inputs.machine is not None and len(est.devices) > 1
    title = t("chart.fullest_device", lang, device=device.label) if multi else None
    ax.set_title(_escape(title or t("chart.per_device", lang)), fontsize=10)
    # Lines, then the components top-down as stacked; outside, where it cannot hide the lines.
    handles = [*ax.lines, *reversed(bars)]
    ax.legend(
        handles=handles, loc="center left", bbox_to_anchor=(1, 0.5), fontsize=8, frameon=False
    )


def _context_panel(
    ax: Axes, curve: list[tuple[int, int]], device: Device, asked: int, lang: str
) -> None:
    """Fullest-device memory against context length, and where it stops fitting."""
    contexts = [c for c, _ in curve]
    gib = [b / numbers.GIB for _, b in curve]
    ax.plot(contexts, gib, marker="o", color=COLORS["kv_cache"], label=t("chart.per_device", lang))
    ax.set_xscale("log", base=2)
    # Ticks only at powers of two: a model's odd maximum (40,960) would crowd its neighbour.
    ax.xaxis.set_major_locator(FixedLocator([c for c in contexts if c & (c - 1) == 0]))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: _tokens(v, lang)))
    top = _capacity_lines(ax, device, lang)
    if device.usable_bytes is not None:
        over = [c for c, b in curve if b > device.usable_bytes]
        if over:
            ax.axvspan(over[0], contexts[-1], color=RED, alpha=0.08)
            label = t("chart.stops_fitting", lang, context=numbers.integer(over[0], lang))
            ax.axvline(over[0], color=RED, linestyle=":", label=label)
    if contexts[0] <= asked <= contexts[-1]:
        label = t("chart.asked", lang, context=numbers.integer(asked, lang))
        ax.axvline(asked, color="#424242", linestyle="-.", linewidth=1, label=label)
    ax.set_ylim(0, max(max(gib), top) * 1.1 or 1)
    ax.set_xlabel(t("chart.context_axis", lang))
    _gib_axis(ax, lang)
    ax.set_title(t("chart.context_title", lang), fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best", fontsize=8)


def _capacity_lines(ax: Axes, device: Device, lang: str) -> float:
    """Usable (solid) and physical (dashed) memory of `device`; the highest in GiB, 0 if none."""
    top = 0.0
    if device.usable_bytes is not None:
        label = t("chart.usable", lang, size=numbers.size(device.usable_bytes, lang))
        ax.axhline(device.usable_bytes / numbers.GIB, color="black", linewidth=1.2, label=label)
        top = device.usable_bytes / numbers.GIB
    if device.capacity_bytes is not None:
        label = t("chart.capacity", lang, size=numbers.size(device.capacity_bytes, lang))
        ax.axhline(device.capacity_bytes / numbers.GIB, color="black", linestyle="--", label=label)
        top = max(top, device.capacity_bytes / numbers.GIB)
    return top


def _gib_axis(ax: Axes, lang: str) -> None:
    ax.set_ylabel(t("chart.gib", lang))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: numbers.number(round(v, 2), lang)))


def _tokens(context: float, lang: str) -> str:
    """1K, 32K, 1M: the context on a log axis, short enough to fit under a tick."""
    if context >= 1 << 20:
        return numbers.number(context / (1 << 20), lang) + "M"
    return numbers.number(context / 1024, lang) + "K"


def _escape(text: str) -> str:
    # A model name with two dollar signs would otherwise be typeset as mathtext.
    return text.replace("$", r"\$")

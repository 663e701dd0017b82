"""An Estimate as a chart for the Telegram bot: a picture of what fills a device says more than
a table on a phone screen.

What the chart shows is decided here, as plain data (`Chart`): the title in the verdict's
colour, one stacked bar of the fullest device's components against its usable and physical
memory, and for inference a second panel of memory against context length, marking where it
stops fitting and where the question was. bot.render.chart_png draws it. Nothing is global, so
charts can be drawn in threads or worker processes at the same time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from estimator.result import COMPONENTS, Device, Estimate

from ..i18n import t
from . import numbers
from .hardware import label as hardware_label

WIDE = (1000, 500)  # pixels, with the context panel
NARROW = (600, 500)  # without it
# A qualitative palette a colour-blind reader can tell apart (seaborn's "deep", matplotlib's
# own default cycle in its "tab" variant is close).
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
GREY = "#424242"
BLACK = "#000000"
VERDICT_COLORS = {"fits": "#2E7D32", "tight": "#E65100", "offload": "#E65100", "does_not_fit": RED}
Style = Literal["solid", "dashed", "dotted", "dashdot"]


@dataclass(frozen=True, slots=True)
class Mark:
    """A line across a panel: a memory size (horizontal, GiB) or a context (vertical, tokens)."""

    label: str
    value: float
    style: Style
    color: str
    vertical: bool = False


@dataclass(frozen=True, slots=True)
class Segment:
    label: str
    gib: float
    color: str


@dataclass(frozen=True, slots=True)
class BarPanel:
    title: str
    segments: tuple[Segment, ...]  # bottom up, as stacked
    total: str  # the label on top of the bar
    marks: tuple[Mark, ...]
    top: float  # GiB at the top of the axis


@dataclass(frozen=True, slots=True)
class CurvePanel:
    title: str
    label: str  # of the curve itself
    points: tuple[tuple[int, float], ...]  # (context, GiB on the fullest device)
    ticks: tuple[int, ...]  # contexts labelled on the axis: powers of two
    tick_labels: tuple[str, ...]
    marks: tuple[Mark, ...]
    shade_from: int | None  # contexts from here on do not fit
    top: float
    x_label: str


@dataclass(frozen=True, slots=True)
class Chart:
    title: str
    subtitle: str
    color: str  # the verdict's
    y_label: str
    lang: str
    bars: BarPanel
    curve: CurvePanel | None

    @property
    def size(self) -> tuple[int, int]:
        return WIDE if self.curve is not None else NARROW

    def marks(self) -> list[Mark]:
        return [*self.bars.marks, *(self.curve.marks if self.curve else ())]

    def legend(self) -> list[str]:
        """Every legend entry, the bar panel's then the context panel's."""
        entries = [m.label for m in self.bars.marks]
        entries += [s.label for s in reversed(self.bars.segments)]
        if self.curve is not None:
            entries += [self.curve.label, *(m.label for m in self.curve.marks)]
        return entries

    def texts(self) -> list[str]:
        """Everything written on the chart that carries a number or a verdict."""
        return [self.title, self.subtitle, self.bars.total, *self.legend()]


def memory_chart(
    est: Estimate, lang: str, context_curve: list[tuple[int, int]] | None = None
) -> bytes:
    """The estimate as PNG bytes; with `context_curve` (from estimator.curve.context_curve) a
    second panel shows memory against context length."""
    from .chart_png import png

    return png(memory_figure(est, lang, context_curve))


def memory_figure(
    est: Estimate, lang: str, context_curve: list[tuple[int, int]] | None = None
) -> Chart:
    """What `memory_chart` draws, separate so tests can look at what was drawn."""
    fullest = max(est.devices, key=lambda d: d.components.total)
    curve = (
        _curve_panel(context_curve, fullest, est.inputs.context, lang) if context_curve else None
    )
    return Chart(
        title=_title(est, lang),
        subtitle=_subtitle(est, lang),
        color=VERDICT_COLORS.get(est.verdict, GREY),
        y_label=t("chart.gib", lang),
        lang=lang,
        bars=_bar_panel(est, fullest, lang),
        curve=curve,
    )


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


def _capacity_marks(device: Device, lang: str) -> tuple[Mark, ...]:
    """Usable (solid) and physical (dashed) memory of `device`, when known."""
    marks = []
    if device.usable_bytes is not None:
        label = t("chart.usable", lang, size=numbers.size(device.usable_bytes, lang))
        marks.append(Mark(label, device.usable_bytes / numbers.GIB, "solid", BLACK))
    if device.capacity_bytes is not None:
        label = t("chart.capacity", lang, size=numbers.size(device.capacity_bytes, lang))
        marks.append(Mark(label, device.capacity_bytes / numbers.GIB, "dashed", BLACK))
    return tuple(marks)


def _bar_panel(est: Estimate, device: Device, lang: str) -> BarPanel:
    """One stacked bar of the fullest device's components against its capacity lines."""
    segments = tuple(
        Segment(
            f"{t(f'component.{name}', lang)}: {numbers.size(value, lang)}",
            value / numbers.GIB,
            COLORS[name],
        )
        for name in COMPONENTS
        if (value := getattr(device.components, name))
    )
    marks = _capacity_marks(device, lang)
    height = sum(s.gib for s in segments)
    multi = est.inputs.machine is not None and len(est.devices) > 1
    title = t("chart.fullest_device", lang, device=device.label) if multi else None
    return BarPanel(
        title=title or t("chart.per_device", lang),
        segments=segments,
        total=numbers.size(device.components.total, lang),
        marks=marks,
        top=max([height, *(m.value for m in marks)]) * 1.15 or 1.0,
    )


def _curve_panel(curve: list[tuple[int, int]], device: Device, asked: int, lang: str) -> CurvePanel:
    """Fullest-device memory against context length, and where it stops fitting."""
    contexts = [c for c, _ in curve]
    gib = [b / numbers.GIB for _, b in curve]
    marks = list(_capacity_marks(device, lang))
    over = (
        [c for c, b in curve if b > device.usable_bytes] if device.usable_bytes is not None else []
    )
    if over:
        label = t("chart.stops_fitting", lang, context=numbers.integer(over[0], lang))
        marks.append(Mark(label, over[0], "dotted", RED, vertical=True))
    if contexts[0] <= asked <= contexts[-1]:
        label = t("chart.asked", lang, context=numbers.integer(asked, lang))
        marks.append(Mark(label, asked, "dashdot", GREY, vertical=True))
    # Ticks only at powers of two: a model's odd maximum (40,960) would crowd its neighbour.
    ticks = tuple(c for c in contexts if c & (c - 1) == 0)
    horizontal = [m.value for m in marks if not m.vertical]
    return CurvePanel(
        title=t("chart.context_title", lang),
        label=t("chart.per_device", lang),
        points=tuple(zip(contexts, gib, strict=True)),
        ticks=ticks,
        tick_labels=tuple(_tokens(c, lang) for c in ticks),
        marks=tuple(marks),
        shade_from=over[0] if over else None,
        top=max([*gib, *horizontal]) * 1.1 or 1.0,
        x_label=t("chart.context_axis", lang),
    )


def _tokens(context: float, lang: str) -> str:
    """1K, 32K, 1M: the context on a log axis, short enough to fit under a tick."""
    if context >= 1 << 20:
        return numbers.number(context / (1 << 20), lang) + "M"
    return numbers.number(context / 1024, lang) + "K"

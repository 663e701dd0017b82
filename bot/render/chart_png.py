"""A Chart (bot.render.chart) drawn as a PNG with Pillow.

Drawn directly rather than through matplotlib: matplotlib took 250-330 ms of CPU for one chart
(its text layout and legends), which at a few answers a second is the whole machine; this takes
a few tens of milliseconds, about half of it the PNG encoding. The font is DejaVu Sans, from
matplotlib's package data.
"""

from __future__ import annotations

import importlib.util
import io
import math
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from .chart import COLORS, RED, BarPanel, Chart, CurvePanel, Mark, Style
from .numbers import number

TOP = 84  # below the title and subtitle
BOTTOM = 40  # under the bar panel
CURVE_BOTTOM = 58  # under the context panel: tick labels and the axis title
GRID = "#DDDDDD"
AXIS = "#555555"
WHITE = (255, 255, 255)
SHADE = 0.08  # opacity of the "does not fit" area
DASHES: dict[Style, tuple[int, ...]] = {
    "solid": (),
    "dashed": (7, 4),
    "dotted": (2, 3),
    "dashdot": (8, 3, 2, 3),
}
# zlib level 3: as small as level 6 within a few per cent for these flat colours, and faster.
PNG_COMPRESSION = 3


@cache
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    # Found without importing matplotlib, which would cost a quarter of a second.
    spec = importlib.util.find_spec("matplotlib")
    assert spec is not None and spec.submodule_search_locations, "matplotlib ships the font"
    fonts = Path(spec.submodule_search_locations[0]) / "mpl-data" / "fonts" / "ttf"
    return ImageFont.truetype(
        str(fonts / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size
    )


def png(chart: Chart) -> bytes:
    image = Image.new("RGB", chart.size, WHITE)
    draw = ImageDraw.Draw(image)
    width, height = chart.size
    draw.text((width / 2, 10), chart.title, fill=chart.color, font=_font(16, True), anchor="mt")
    draw.text((width / 2, 34), chart.subtitle, fill=chart.color, font=_font(13), anchor="mt")
    bar_width = 460 if chart.curve is not None else width
    _bar_panel(image, draw, chart.bars, chart, (0, bar_width), height)
    if chart.curve is not None:
        _curve_panel(image, draw, chart.curve, chart, (bar_width, width), height)
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=PNG_COMPRESSION)
    return out.getvalue()


def _nice_step(top: float, ticks: int = 5) -> float:
    """1, 2, 2.5 or 5 times a power of ten: about `ticks` steps up to `top`."""
    rough = top / ticks
    power = 10 ** math.floor(math.log10(rough))
    return next(f * power for f in (1, 2, 2.5, 5, 10) if f * power >= rough)


def _y_axis(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    top: float,
    chart: Chart,
    grid: bool,
) -> None:
    x0, y0, x1, y1 = box
    step = _nice_step(top)
    value = 0.0
    while value <= top + 1e-9:
        y = _y(value, top, y0, y1)
        if grid:
            draw.line((x0, y, x1, y), fill=GRID)
        draw.line((x0 - 4, y, x0, y), fill=AXIS)
        label = number(round(value, 2), chart.lang)
        draw.text((x0 - 7, y), label, fill=AXIS, font=_font(10), anchor="rm")
        value += step
    draw.line((x0, y0, x0, y1), fill=AXIS)
    draw.line((x0, y1, x1, y1), fill=AXIS)
    _vertical_text(image, chart.y_label, (x0 - 52, (y0 + y1) // 2))


def _vertical_text(image: Image.Image, text: str, centre: tuple[int, int]) -> None:
    font = _font(11)
    width = int(font.getlength(text)) + 4
    label = Image.new("RGB", (width, 16), WHITE)
    ImageDraw.Draw(label).text((2, 1), text, fill=AXIS, font=font)
    turned = label.rotate(90, expand=True)
    image.paste(turned, (centre[0] - turned.width // 2, centre[1] - turned.height // 2))


def _y(value: float, top: float, y0: int, y1: int) -> float:
    return y1 - (value / top) * (y1 - y0)


def _line(
    draw: ImageDraw.ImageDraw,
    start: tuple[float, float],
    end: tuple[float, float],
    color: str,
    style: Style,
    width: int = 1,
) -> None:
    """A horizontal or vertical line in `style`."""
    pattern = DASHES[style]
    if not pattern:
        draw.line((*start, *end), fill=color, width=width)
        return
    length = math.dist(start, end)
    dx, dy = ((end[0] - start[0]) / length, (end[1] - start[1]) / length) if length else (0, 0)
    at, index = 0.0, 0
    while at < length:
        run = min(pattern[index % len(pattern)], length - at)
        if index % 2 == 0:
            a = (start[0] + dx * at, start[1] + dy * at)
            b = (start[0] + dx * (at + run), start[1] + dy * (at + run))
            draw.line((*a, *b), fill=color, width=width)
        at += run
        index += 1


def _legend(
    draw: ImageDraw.ImageDraw,
    at: tuple[int, int],
    entries: list[tuple[str, str, Style | None, bool]],
    boxed: bool = False,
) -> None:
    """(label, colour, line style or None for a filled square, with a marker) from `at` down."""
    font = _font(10)
    x, y = at
    rows = 17
    if boxed:
        widest = max(font.getlength(label) for label, *_ in entries)
        draw.rectangle(
            (x - 6, y - 5, x + 32 + widest + 6, y + rows * len(entries)), fill=WHITE, outline=GRID
        )
    for label, color, style, marker in entries:
        middle = y + 7
        if style is None:
            draw.rectangle((x + 6, middle - 6, x + 18, middle + 6), fill=color)
        else:
            _line(draw, (x, middle), (x + 24, middle), color, style, 2 if style == "solid" else 1)
            if marker:
                draw.ellipse((x + 9, middle - 3, x + 15, middle + 3), fill=color)
        draw.text((x + 32, middle), label, fill="black", font=font, anchor="lm")
        y += rows


def _mark_entries(marks: tuple[Mark, ...]) -> list[tuple[str, str, Style | None, bool]]:
    return [(m.label, m.color, m.style, False) for m in marks]


def _bar_panel(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    panel: BarPanel,
    chart: Chart,
    span: tuple[int, int],
    height: int,
) -> None:
    x0, y0, y1 = span[0] + 75, TOP, height - BOTTOM
    x1 = x0 + 110
    # Over the bar and its legend: a long title ("the fullest device (…)") needs the room.
    centre = (span[0] + span[1]) / 2
    draw.text((centre, y0 - 16), panel.title, fill="black", font=_font(12), anchor="mb")
    _y_axis(image, draw, (x0, y0, x1, y1), panel.top, chart, grid=False)
    bottom = 0.0
    for segment in panel.segments:
        top = bottom + segment.gib
        draw.rectangle(
            (x0 + 20, _y(top, panel.top, y0, y1), x1 - 20, _y(bottom, panel.top, y0, y1)),
            fill=segment.color,
        )
        bottom = top
    total_y = _y(bottom, panel.top, y0, y1) - 3
    draw.text(
        ((x0 + x1) / 2, total_y), panel.total, fill="black", font=_font(11, True), anchor="mb"
    )
    for mark in panel.marks:
        y = _y(mark.value, panel.top, y0, y1)
        _line(draw, (x0, y), (x1, y), mark.color, mark.style, 2 if mark.style == "solid" else 1)
    entries = _mark_entries(panel.marks)
    entries += [(s.label, s.color, None, False) for s in reversed(panel.segments)]
    _legend(draw, (x1 + 14, (y0 + y1) // 2 - 17 * len(entries) // 2), entries)


def _curve_panel(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    panel: CurvePanel,
    chart: Chart,
    span: tuple[int, int],
    height: int,
) -> None:
    x0, x1, y0, y1 = span[0] + 75, span[1] - 20, TOP, height - CURVE_BOTTOM
    contexts = [c for c, _ in panel.points]
    low, high = math.log2(contexts[0]) - 0.3, math.log2(contexts[-1]) + 0.3

    def x(context: float) -> float:
        return x0 + (math.log2(context) - low) / (high - low) * (x1 - x0)

    draw.text(((x0 + x1) / 2, y0 - 16), panel.title, fill="black", font=_font(12), anchor="mb")
    if panel.shade_from is not None:
        draw.rectangle((x(panel.shade_from), y0, x1, y1), fill=_tint(RED))
    _y_axis(image, draw, (x0, y0, x1, y1), panel.top, chart, grid=True)
    for tick, label in zip(panel.ticks, panel.tick_labels, strict=True):
        draw.line((x(tick), y0, x(tick), y1), fill=GRID)
        draw.line((x(tick), y1, x(tick), y1 + 4), fill=AXIS)
        draw.text((x(tick), y1 + 7), label, fill=AXIS, font=_font(10), anchor="mt")
    draw.text(((x0 + x1) / 2, y1 + 26), panel.x_label, fill=AXIS, font=_font(11), anchor="mt")
    for mark in panel.marks:
        width = 2 if mark.style == "solid" else 1
        if mark.vertical:
            _line(draw, (x(mark.value), y0), (x(mark.value), y1), mark.color, mark.style, width)
        else:
            y = _y(mark.value, panel.top, y0, y1)
            _line(draw, (x0, y), (x1, y), mark.color, mark.style, width)
    color = COLORS["kv_cache"]  # the context grows the KV cache
    points = [(x(c), _y(g, panel.top, y0, y1)) for c, g in panel.points]
    draw.line(points, fill=color, width=2, joint="curve")
    for px, py in points:
        draw.ellipse((px - 3, py - 3, px + 3, py + 3), fill=color)
    entries = [(panel.label, color, "solid", True), *_mark_entries(panel.marks)]
    _legend(draw, (x0 + 12, y0 + 10), entries, boxed=True)


def _tint(color: str) -> tuple[int, int, int]:
    """`color` at SHADE opacity over white."""
    value = int(color.lstrip("#"), 16)
    r, g, b = (value >> 16) & 255, (value >> 8) & 255, value & 255
    return (
        round(255 - SHADE * (255 - r)),
        round(255 - SHADE * (255 - g)),
        round(255 - SHADE * (255 - b)),
    )

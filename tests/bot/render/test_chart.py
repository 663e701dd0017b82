"""The memory chart: valid PNGs of the chosen size in both languages, capacity lines only where the
hardware is known, a context curve that agrees with the estimator, a legend that adds up to the
bar, and safe in worker threads."""

import struct
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from itertools import pairwise

import pytest

from bot.i18n import t
from bot.render.chart import memory_chart, memory_figure
from bot.render.numbers import size
from estimator.curve import context_curve
from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.workload import Workload

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png_size(png: bytes) -> tuple[int, int]:
    """Width and height from the IHDR chunk, which always comes first after the signature."""
    assert png[:8] == PNG_SIGNATURE
    assert png[12:16] == b"IHDR"
    return struct.unpack(">II", png[16:24])


@pytest.fixture(scope="module")
def inference(arch):
    return Workload(model=arch("Qwen2.5-7B"), task="inference", context=8192)


@pytest.fixture(scope="module")
def gpu():
    return machine(gpu="RTX 4090")


@pytest.fixture(scope="module")
def curve(inference, gpu):
    return context_curve(inference, gpu)


def _labels(fig) -> list[str]:
    return [mark.label for mark in fig.marks()]


def _texts(fig) -> str:
    return "\n".join(fig.texts())


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_inference_chart_with_context_curve(inference, gpu, curve, lang):
    png = memory_chart(estimate(inference, gpu), lang, curve)
    assert _png_size(png) == (1000, 500)
    assert len(png) < 1_000_000


def test_numbers_follow_the_language(inference, gpu, curve):
    est = estimate(inference, gpu)
    english = _texts(memory_figure(est, "en", curve))
    dutch = _texts(memory_figure(est, "nl", curve))
    assert "8,192" in english and "24.0 GiB" in english
    assert "8.192" in dutch and "24,0 GiB" in dutch
    assert t("verdict.fits", "nl") in dutch


def test_training_chart_without_curve(arch):
    w = Workload(model=arch("Qwen2.5-7B"), task="training", method="lora", context=2048)
    est = estimate(w, machine(gpu="A100", gpus=2))
    assert est.inputs.task == "training"
    png = memory_chart(est, "nl")
    assert _png_size(png) == (600, 500)


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_capacity_lines_only_with_known_hardware(inference, gpu, curve, lang):
    usable = t("chart.usable", lang, size="")
    capacity = t("chart.capacity", lang, size="")

    def has_lines(fig) -> bool:
        return any(label.startswith((usable, capacity)) for label in _labels(fig))

    assert has_lines(memory_figure(estimate(inference, gpu), lang, curve))
    no_hardware = estimate(inference, None)
    assert no_hardware.devices[0].capacity_bytes is None
    curve_alone = context_curve(inference, None)
    assert not has_lines(memory_figure(no_hardware, lang, curve_alone))
    assert not has_lines(memory_figure(no_hardware, lang))
    assert _png_size(memory_chart(no_hardware, lang, curve_alone)) == (1000, 500)


def test_stops_fitting_is_marked(inference, gpu, curve):
    usable = estimate(inference, gpu).devices[0].usable_bytes
    first_over = next(c for c, b in curve if b > usable)
    fig = memory_figure(estimate(inference, gpu), "en", curve)
    assert t("chart.stops_fitting", "en", context=f"{first_over:,}") in _labels(fig)


def test_context_curve_grows_and_agrees_with_the_estimator(inference, gpu, curve):
    contexts = [c for c, _ in curve]
    assert contexts[0] == 1024
    assert contexts[-1] == inference.model.max_context
    assert contexts == sorted(set(contexts))
    assert all(b1 < b2 for (_, b1), (_, b2) in pairwise(curve))
    for context, per_device in curve:
        est = estimate(replace(inference, context=context), gpu)
        assert per_device == max(d.components.total for d in est.devices)


def test_context_curve_skips_contexts_the_estimator_rejects(inference, gpu):
    # A 4096-token prompt does not fit in a 1K or 2K context.
    curve = context_curve(replace(inference, prompt_tokens=4096), gpu, points=4)
    assert [c for c, _ in curve] == [4096, 8192]


def test_renders_in_threads(inference, gpu, curve, arch):
    training = Workload(model=arch("Qwen2.5-0.5B"), task="training", context=1024)
    jobs = [
        (estimate(inference, gpu), "en", curve),
        (estimate(inference, gpu), "nl", curve),
        (estimate(training, gpu), "en", None),
        (estimate(inference, None), "nl", None),
    ] * 2
    with ThreadPoolExecutor(max_workers=8) as pool:
        pngs = list(pool.map(lambda job: memory_chart(*job), jobs))
    sizes = [_png_size(png) for png in pngs]
    assert sizes == [(1000, 500), (1000, 500), (600, 500), (600, 500)] * 2
    # The same job drawn twice at the same time gives the same picture: no shared state.
    assert pngs[:4] == pngs[4:]


def test_the_bar_is_the_fullest_devices_components(inference, gpu, curve):
    est = estimate(inference, gpu)
    fig = memory_figure(est, "en", curve)
    device = max(est.devices, key=lambda d: d.components.total)
    assert sum(s.gib for s in fig.bars.segments) * (1 << 30) == pytest.approx(
        device.components.total
    )
    assert fig.bars.total == size(device.components.total, "en")
    assert fig.bars.top >= max(m.value for m in fig.bars.marks)  # the capacity line shows
    assert fig.curve is not None and fig.curve.tick_labels[0] == "1K"

"""The inverse questions (the largest context, the most users, the best precision, the largest
model, the smallest GPU, how many GPUs, the cheapest cloud instance), shared by `llm-sizer fit`
and the conversation."""

from __future__ import annotations

from dataclasses import replace

from estimator import inverse
from estimator.errors import EstimatorError
from estimator.hardware.types import CloudInstance, Machine
from estimator.workload import Workload

from .i18n import t
from .render import numbers

NEED_HARDWARE = ("context", "concurrency", "precision", "model", "gpus")


def answer(
    question: str, workload: Workload, machine: Machine | None, *, laptops: bool = False
) -> inverse.Answer:
    """The answer to `question` for this workload on this machine."""
    if question in NEED_HARDWARE and machine is None:
        raise EstimatorError("fit_needs_hardware", question=question)
    if question == "gpus" and (machine.gpu is None or machine.kind != "gpu"):
        raise EstimatorError("fit_needs_gpu_kind")
    match question:
        case "context":
            return inverse.max_context(workload, machine)
        case "concurrency":
            return inverse.max_concurrency(workload, machine)
        case "precision":
            return inverse.best_precision(replace(workload, precision=None), machine)
        case "model":
            return inverse.largest_model(workload, machine)
        case "gpu":
            return inverse.smallest_gpu(workload, laptops=laptops)
        case "gpus":
            return inverse.gpus_needed(workload, machine.gpu, machine.ram_bytes)
        case _:
            return inverse.cheapest_cloud(workload)


def plain_value(found: inverse.Answer) -> str | int | None:
    """The answer as JSON holds it: a number, a name, or an instance with its price."""
    value = found.value
    if isinstance(value, CloudInstance):
        return (
            f"{value.provider} {value.instance} ({value.usd_per_hour:g} USD/h, {value.price_date})"
        )
    return value


def sentence(question: str, found: inverse.Answer, lang: str) -> str:
    value = plain_value(found)
    if value is None:
        return t("fit.none", lang)
    shown = numbers.integer(value, lang) if isinstance(value, int) else value
    return t(f"fit.{question}", lang, value=shown)

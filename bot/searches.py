"""The inverse questions (the largest context, the most users, the best precision, the largest
model, the smallest GPU, how many GPUs, the cheapest cloud instance), shared by `llm-sizer fit`
and the conversation."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from estimator import engines, inverse
from estimator.errors import EstimatorError
from estimator.frameworks import FRAMEWORKS
from estimator.hardware.catalog import find_gpu
from estimator.hardware.types import CloudInstance, Machine
from estimator.planner import biggest
from estimator.planner import inverse as across
from estimator.planner.quality import LOW_BITS, LOW_BITS_SOURCE, nominal_bits
from estimator.precision import weight_format
from estimator.result import Note
from estimator.training_time import TrainingData
from estimator.workload import Workload

from .i18n import t
from .render import notes, numbers

NEED_HARDWARE = ("context", "concurrency", "batch", "precision", "model")
# "How many GPUs" without a GPU named is counted in the GPU servers are built of.
DEFAULT_SERVER_GPU = "H100 SXM5 80GB"


def search(
    question: str,
    workload: Workload,
    machine: Machine | None,
    *,
    laptops: bool = False,
    purpose: str | None = None,
    tokens: int | TrainingData | None = None,
) -> inverse.Answer:
    """The answer to `question` for this workload on this machine; the biggest model made for
    `purpose` ("code", "vision") when one is given; the cheapest instance for training `tokens`
    tokens in all when they are known."""
    if question == "gpu":
        return across.smallest_gpu(workload, laptops=laptops)
    if question not in (*NEED_HARDWARE, "gpus"):
        return across.cheapest_cloud(workload, tokens)
    if machine is None:
        if question != "gpus":
            raise EstimatorError("fit_needs_hardware", question=question)
        gpu = find_gpu(DEFAULT_SERVER_GPU)
        assert gpu is not None
        found = across.gpus_for(workload, gpu, None)
        note = Note("gpus_default_gpu", {"gpu": gpu.name})
        return replace(found, notes=(note, *found.notes))
    match question:
        case "context":
            return across.longest_context(workload, machine)
        case "concurrency":
            return across.most_sequences(workload, machine)
        case "batch":
            return inverse.max_batch(workload, machine)
        case "precision":
            return across.best_format(replace(workload, precision=None), machine)
        case "model":
            return biggest.biggest_model(workload, machine, purpose)
        case _:
            if machine.gpu is None or machine.kind != "gpu":
                raise EstimatorError("fit_needs_gpu_kind")
            return across.gpus_for(workload, machine.gpu, machine.ram_bytes)


def plain_value(found: inverse.Answer) -> str | int | None:
    """The answer as JSON holds it: a number, a name, or an instance with its price."""
    value = found.value
    if isinstance(value, CloudInstance):
        return (
            f"{value.provider} {value.instance} ({value.usd_per_hour:g} USD/h, {value.price_date})"
        )
    return value


def _shown(value: object, lang: str) -> str:
    if isinstance(value, CloudInstance):
        # The catalog's price dates are ISO dates or an English remark about the snapshot.
        dated = re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.price_date)
        date = value.price_date if dated else t("fit.price_date_unknown", lang)
        return t(
            "fit.instance",
            lang,
            provider=value.provider,
            instance=value.instance,
            usd=numbers.usd(value.usd_per_hour, lang),
            date=date,
        )
    return numbers.integer(value, lang) if isinstance(value, int) else str(value)


def _how(found: inverse.Answer, lang: str) -> tuple[str, str] | None:
    """(format label, engine label) of the configuration that gave the answer."""
    est = found.estimate
    if est is None:
        return None
    i = est.inputs
    label = weight_format(i.precision).label
    if i.task == "inference" and i.kv_precision in ("fp8", "q8_0", "q4_0", "int8", "q6"):
        label = t("fit.kv", lang, precision=label, kv=i.kv_precision)
    if i.task == "inference":
        engine = engines.get(i.engine).label
    else:
        engine = FRAMEWORKS[i.engine].label if i.engine in FRAMEWORKS else i.engine
    return label, engine


def sentence(question: str, found: inverse.Answer, lang: str) -> str:
    """The answer, the format and engine that give it, the 16-bit (or asked) answer beside it
    when different, and what the answer assumes (how the nodes are connected). A format that
    is the answer is said by its name, with what fewer than 4 bits cost."""
    value = plain_value(found)
    if value is None:
        return t("fit.none", lang)
    precision = question == "precision"
    shown = weight_format(str(found.value)).label if precision else _shown(found.value, lang)
    job = question == "cloud" and any(n.key == "cloud_job" for n in found.notes)
    text = t("fit.cloud_job_title" if job else f"fit.{question}", lang, value=shown)
    how = _how(found, lang)
    if how is not None:
        text += (
            t("fit.how_engine", lang, engine=how[1])
            if precision
            else t("fit.how", lang, precision=how[0], engine=how[1])
        )
    base = found.baseline
    if base is not None and base.value is not None and (base_how := _how(base, lang)) is not None:
        key = {"model": "fit.baseline_model", "precision": "fit.baseline_precision"}
        text += t(
            key.get(question, "fit.baseline"),
            lang,
            precision=base_how[0],
            engine=base_how[1],
            value=weight_format(str(base.value)).label if precision else _shown(base.value, lang),
        )
    bits = nominal_bits(weight_format(str(found.value))) if precision else None
    if bits is not None and bits < LOW_BITS:
        text += "; " + t("plan.low_bits", lang, bits=int(bits), source=LOW_BITS_SOURCE)
    for note in found.notes:
        said = _job(note, lang) if note.key in _JOBS else notes.assumption(note, lang)
        text += ". " + said[:1].upper() + said[1:]
    return text


_JOBS = ("cloud_job", "cloud_job_hourly")


def _job(note: Note, lang: str) -> str:
    """A training job's hours and total cost on an instance."""
    p = note.params
    low, high = numbers.ends(p["usd_low"], p["usd_high"], lang)
    return t(
        f"fit.{note.key}",
        lang,
        provider=p["provider"],
        instance=p["instance"],
        price=numbers.usd(p["usd_per_hour"], lang),
        time=numbers.duration(p["hours_low"], p["hours_high"], lang),
        low=low,
        high=high,
    )


def fields(found: inverse.Answer) -> dict[str, Any]:
    """What the JSON `inverse` object says beyond the answer: the format and engine that give
    it, and the answer in the 16-bit (or asked) format when it differs."""
    est = found.estimate
    base = found.baseline
    return {
        "precision": found.precision,
        "engine": found.engine,
        "kv_precision": est.inputs.kv_precision if est is not None else None,
        "baseline": None
        if base is None or base.value is None
        else {
            "answer": plain_value(base),
            "precision": base.precision,
            "engine": base.engine,
        },
    }

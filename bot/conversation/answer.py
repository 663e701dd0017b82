"""A complete Draft answered: the workload (memory, speed, cost, advice), an inverse question,
or the CPU-versus-GPU guidance for classical machine learning."""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass

from estimator.hardware.catalog import machine as make_machine
from estimator.hardware.types import Machine
from estimator.inverse import Answer as InverseAnswer
from estimator.result import Note
from estimator.workload import Workload
from rules import Advice, Situation, advise_ml

from .. import answers, questions
from ..model_source import resolve_model
from .slots import FIT_QUESTION, Draft

PLACEHOLDER_MODEL = "7B"  # the largest-model search replaces it
# Whether a question may name a config.json on this machine: the terminal's front ends turn it
# on; off for everyone else (see model_source.resolve_model), also in threads that start with
# a fresh context.
LOCAL_FILES: ContextVar[bool] = ContextVar("local_files", default=False)


@dataclass(frozen=True, slots=True)
class Outcome:
    draft: Draft
    workload: answers.WorkloadAnswer | None = None
    question: str | None = None  # the fit question, for inverse questions
    inverse: InverseAnswer | None = None  # its answer, with the estimate at that answer
    smallest_gpu: InverseAnswer | None = None  # when no hardware was given
    ml: Advice | None = None


def machine(draft: Draft) -> Machine | None:
    gpu = draft.gpu or draft.apple or ("cpu" if draft.cpu_only else None)
    return make_machine(
        gpu=gpu,
        gpu_memory_gb=None if gpu else draft.gpu_memory_gb,
        gpus=draft.gpus or 1,
        ram_gb=draft.ram_gb,
    )


def workload(draft: Draft) -> tuple[Workload, tuple[Note, ...]]:
    choice = resolve_model(draft.model or PLACEHOLDER_MODEL, files=LOCAL_FILES.get())
    return (
        Workload(
            model=choice.architecture,
            task=draft.task or "inference",
            method=draft.method,
            precision=draft.precision,
            kv_precision=draft.kv_precision,
            context=draft.context,
            batch=draft.batch or 1,
            concurrency=draft.concurrency or 1,
            engine=draft.engine,
        ),
        choice.notes,
    )


def situation(draft: Draft, box: Machine | None, from_profile: bool) -> Situation:
    """Who asks, as the question tells: hardware from their profile is theirs, and so is a
    consumer card, a workstation card, a Mac or a CPU they name; a data-centre GPU named in a
    question is one they would rent or buy."""
    rented = box is not None and box.gpu is not None and box.gpu.segment == "datacenter"
    owns = box is not None and (from_profile or not (rented or draft.cloud))
    choosing = draft.inverse in ("smallest_gpu", "cheapest_cloud", "gpus_needed")
    return Situation(
        owns_hardware=owns and not choosing,
        asked_gpu_count=bool(draft.gpus and draft.gpus > 1) or draft.inverse == "gpus_needed",
    )


def answer(
    draft: Draft,
    extra_notes: tuple[Note, ...] = (),
    kwh_price: float | None = None,
    from_profile: bool = False,
) -> Outcome:
    """Raises EstimatorError for what cannot be computed (an unknown GPU, a nonsense size)."""
    if draft.ml_kind:
        advice = advise_ml(
            draft.ml_kind,
            rows=draft.rows or 0,
            features=draft.features or 0,
            params=draft.ml_params or 0,
            retrain_often=bool(draft.retrain_often),
        )
        return Outcome(draft, ml=advice)
    work, notes = workload(draft)
    box = machine(draft)
    notes = extra_notes + notes
    if draft.inverse:
        question = FIT_QUESTION[draft.inverse]
        found = questions.answer(question, work, box, laptops=bool(draft.laptop))
        return Outcome(draft, question=question, inverse=found)
    smallest = None
    if box is None:
        smallest = questions.answer("gpu", work, None, laptops=bool(draft.laptop))
    return Outcome(
        draft,
        workload=answers.answer(
            work, box, notes, kwh_price=kwh_price, situation=situation(draft, box, from_profile)
        ),
        smallest_gpu=smallest,
    )

"""After an answer: the follow-ups that change it most ("with QLoRA", "in int4", "with 32k
context"), each estimated, so the user sees where it leads before asking."""

from __future__ import annotations

from dataclasses import dataclass

from estimator.errors import EstimatorError
from estimator.estimate import estimate
from estimator.frameworks import default_method
from estimator.vocabulary import ASSUMED_MAX_CONTEXT, DEFAULT_CONTEXT

from .answer import machine, workload
from .slots import Draft

LIMIT = 3


@dataclass(frozen=True, slots=True)
class Refinement:
    key: str  # message key "refine.<kind>"
    value: str  # what the message says: "QLoRA", "int4", "32768"
    draft: Draft
    per_device_bytes: int
    verdict: str


def _candidates(d: Draft) -> list[tuple[str, str, Draft]]:
    out: list[tuple[str, str, Draft]] = []
    context = d.context or DEFAULT_CONTEXT[d.task or "inference"]
    if d.task == "training":
        for method, key, label in (
            ("full", "method_full", ""),
            ("lora", "method", "LoRA"),
            ("qlora", "method", "QLoRA"),
        ):
            if (d.method or default_method(d.engine)) != method:
                out.append((key, label, d.model_copy(update={"method": method})))
    else:
        for precision in ("int4", "int8", "bf16"):
            if (d.precision or "bf16") != precision:
                out.append(("precision", precision, d.model_copy(update={"precision": precision})))
        users = (d.concurrency or 1) * 8
        out.append(("users", str(users), d.model_copy(update={"concurrency": users})))
    if context * 4 <= ASSUMED_MAX_CONTEXT:
        # "32k" reads back as 32,768 tokens in both languages; "32,768" would read as 32.768.
        longer = context * 4
        value = f"{longer // 1024}k" if longer % 1024 == 0 else str(longer)
        out.append(("context", value, d.model_copy(update={"context": longer})))
    # Inference splits the model over more GPUs; plain data-parallel training would not.
    if d.task != "training" and (d.gpu or d.gpu_memory_gb):
        gpus = (d.gpus or 1) * 2
        out.append(("gpus", str(gpus), d.model_copy(update={"gpus": gpus})))
    return out


def refinements(draft: Draft, per_device_bytes: int) -> list[Refinement]:
    """The follow-ups that move the memory per device most, largest change first."""
    if draft.ml_kind or draft.inverse or not per_device_bytes:
        return []
    found = []
    for key, value, changed in _candidates(draft):
        try:
            est = estimate(workload(changed)[0], machine(changed))
        except EstimatorError:
            continue
        found.append(Refinement(key, value, changed, est.per_device_bytes, est.verdict))
    found.sort(key=lambda r: abs(r.per_device_bytes / per_device_bytes - 1), reverse=True)
    return found[:LIMIT]

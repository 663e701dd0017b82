"""The training fields of a workload, checked: names normalised, and options refused where the
framework has no such thing (an Unsloth run cannot be asked for ZeRO-3)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import EstimatorError
from ..vocabulary import (
    DISTRIBUTED,
    MAX_CONTEXT,
    MAX_GRAD_ACCUMULATION,
    MAX_SEQUENCES,
    OBJECTIVES,
    OFFLOAD_DEVICES,
    ONLINE_OBJECTIVES,
    ROLLOUT_ENGINES,
)
from . import FRAMEWORKS

if TYPE_CHECKING:
    from ..workload import Workload

DISTRIBUTED_ALIASES = {
    "zero": "deepspeed",
    "ds": "deepspeed",
    "fsdp2": "fsdp",
    "fully_sharded": "fsdp",
    "hybrid": "hsdp",
    "hybrid_shard": "hsdp",
    "data_parallel": "ddp",
}
OBJECTIVE_ALIASES = {"sft": "sft", "supervised": "sft", "cpo_simpo": "simpo"}
_ONLINE_ONLY = ("group_size", "generation_length", "rollout_engine", "rollout_memory_utilization")


def _name(value: str | None, aliases: dict[str, str]) -> str | None:
    if value is None:
        return None
    key = value.strip().lower().replace("-", "_").replace(" ", "_")
    return aliases.get(key, key)


def _count(field: str, value: int | None, high: int) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
        raise EstimatorError("out_of_range", field=field, value=str(value)[:30], low=1, high=high)


def validate_training(
    w: Workload, task: str, method: str | None, engine: str | None
) -> dict[str, Any]:
    """Normalised training fields of `w`; raises EstimatorError on what cannot be run."""
    distributed = _name(w.distributed, DISTRIBUTED_ALIASES)
    objective = _name(w.objective, OBJECTIVE_ALIASES)
    rollout = _name(w.rollout_engine, {})
    offload_device = _name(w.offload_device, {}) or "cpu"
    if distributed is not None and distributed not in DISTRIBUTED:
        raise EstimatorError(
            "unknown_distributed", distributed=distributed[:30], known=list(DISTRIBUTED)
        )
    if offload_device not in OFFLOAD_DEVICES:
        raise EstimatorError(
            "unknown_offload_device", device=offload_device[:30], known=list(OFFLOAD_DEVICES)
        )
    if objective is not None and objective not in OBJECTIVES:
        raise EstimatorError("unknown_objective", objective=objective[:30], known=list(OBJECTIVES))
    if rollout is not None and rollout not in ROLLOUT_ENGINES:
        raise EstimatorError(
            "unknown_rollout_engine", engine=rollout[:30], known=list(ROLLOUT_ENGINES)
        )
    _count("grad_accumulation", w.grad_accumulation, MAX_GRAD_ACCUMULATION)
    _count("group_size", w.group_size, MAX_SEQUENCES)
    _count("generation_length", w.generation_length, MAX_CONTEXT)
    share = w.rollout_memory_utilization
    if share is not None and not 0.05 <= share <= 0.95:
        raise EstimatorError(
            "out_of_range",
            field="rollout_memory_utilization",
            value=str(share)[:30],
            low=0.05,
            high=0.95,
        )
    online = objective in ONLINE_OBJECTIVES
    for field in _ONLINE_ONLY:
        if getattr(w, field) is not None and not online:
            raise EstimatorError(
                "needs_online_objective", field=field, known=list(ONLINE_OBJECTIVES)
            )
    if w.reward_model is not None and not online:
        raise EstimatorError(
            "needs_online_objective", field="reward_model", known=list(ONLINE_OBJECTIVES)
        )
    if task != "training":
        toggles = (
            "liger",
            "compile",
            "chunked_loss",
            "optimizer_in_backward",
            "activation_offload",
            "mixed_precision",
            "grad_accumulation",
        )
        if objective or distributed or any(getattr(w, f) is not None for f in toggles):
            raise EstimatorError("training_option_needs_training")
        return {}
    framework = FRAMEWORKS[engine or ("deepspeed" if w.zero else "transformers")]
    if method is not None and method not in framework.methods:
        raise EstimatorError(
            "method_not_in_framework",
            framework=framework.label,
            method=method,
            known=list(framework.methods),
        )
    wanted = [
        name
        for name, asked in (
            ("liger", w.liger),
            ("compile", w.compile),
            ("chunked_loss", w.chunked_loss is not None),
            ("optimizer_in_backward", w.optimizer_in_backward),
            ("activation_offload", w.activation_offload),
        )
        if asked
    ]
    if distributed is not None:
        wanted.append(distributed)
    if w.zero and not {"deepspeed", "fsdp"} & framework.options:
        wanted.append("deepspeed")
    for option in wanted:
        if option not in framework.options:
            raise EstimatorError(
                "option_not_in_framework",
                framework=framework.label,
                option=option,
                known=sorted(framework.options),
            )
    zero_backend = distributed is None and bool(w.zero) and "deepspeed" in framework.options
    deepspeed = framework.name == "deepspeed" or distributed == "deepspeed" or zero_backend
    if offload_device == "nvme" and not deepspeed:
        raise EstimatorError("nvme_needs_deepspeed")
    return {
        "distributed": distributed,
        "offload_device": offload_device,
        "objective": objective,
        "rollout_engine": rollout,
    }

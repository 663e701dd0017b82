"""What the user asks about: the workload, validated, before any default is filled in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import engines
from .errors import EstimatorError
from .frameworks import ALIASES as FRAMEWORK_ALIASES
from .frameworks import FRAMEWORKS
from .frameworks.validation import validate_training
from .models import rope
from .models.types import Architecture
from .vocabulary import MAX_CONTEXT, MAX_SEQUENCES, METHODS, TASKS, Method, Task

__all__ = ["Workload", "validate"]

TRAINING_ENGINES = tuple(FRAMEWORKS)
OPTIMIZERS = (
    "adamw",
    "adamw_foreach",
    "paged_adamw",
    "adamw_8bit",
    "paged_adamw_8bit",
    "sgd",
    "adafactor",
)
OPTIMIZER_ALIASES = {
    "adam": "adamw",
    "adamw_torch_fused": "adamw",
    "fused_adamw": "adamw",
    "adamw_torch": "adamw_foreach",
    "paged_adamw_32bit": "paged_adamw",
    "adamw8bit": "adamw_8bit",
    "adam8bit": "adamw_8bit",
    "adamw_bnb_8bit": "adamw_8bit",
    "8bit": "adamw_8bit",
    "paged_adamw8bit": "paged_adamw_8bit",
    "pagedadamw8bit": "paged_adamw_8bit",
}
LORA_TARGETS = ("all", "attention", "mlp")
ADAPTER_PRECISIONS = ("fp32", "bf16")


@dataclass(frozen=True, slots=True)
class Workload:
    """A question about one model. None means "use the stated default"."""

    model: Architecture
    task: Task
    method: Method | None = None
    precision: str | None = None
    kv_precision: str | None = None
    context: int | None = None
    # Tokens the prompt holds, processed at once by the prefill (default: the whole context).
    prompt_tokens: int | None = None
    batch: int = 1
    concurrency: int = 1
    engine: str | None = None
    optimizer: str | None = None
    lora_rank: int = 16
    lora_targets: str = "all"
    lora_train_embeddings: bool = False
    # fp32 adapters are PEFT's default since 0.12; bf16 halves them (autocast_adapter_dtype=False).
    adapter_precision: str | None = None
    grad_checkpointing: bool | None = None
    # Flash/SDPA attention keeps no sequence x sequence matrix; eager attention does.
    flash_attention: bool = True
    zero: int = 0
    offload: bool = False
    # The share of each GPU vLLM/SGLang may take (None: the engine's default).
    gpu_memory_utilization: float | None = None
    # Training, beyond the framework (engine): the data-parallel backend (ddp, deepspeed, fsdp,
    # hsdp; None: the framework's default for the GPU count), where offload goes (cpu, nvme),
    # kernels and compilation, torchtune's chunked loss and optimizer-in-backward, activation
    # offloading, fp32 masters (mixed precision) against pure bf16, and gradient accumulation
    # steps. None means the framework's default.
    distributed: str | None = None
    offload_device: str = "cpu"
    liger: bool | None = None
    compile: bool | None = None
    chunked_loss: bool | None = None
    optimizer_in_backward: bool | None = None
    activation_offload: bool | None = None
    mixed_precision: bool | None = None
    grad_accumulation: int | None = None
    # Alignment and RL: the objective (sft, dpo, ipo, orpo, kto, simpo, grpo, ppo, rloo), whether
    # a frozen reference model is loaded, completions per prompt and their length, where the
    # generations come from and a colocated vLLM's share of each GPU, and the reward (and PPO
    # value) model when it is a separate network.
    objective: str | None = None
    reference_model: bool | None = None
    group_size: int | None = None
    generation_length: int | None = None
    rollout_engine: str | None = None
    rollout_memory_utilization: float | None = None
    reward_model: Architecture | None = None


def _positive(name: str, value: int, upper: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= upper:
        raise EstimatorError("out_of_range", field=name, value=str(value)[:30], low=1, high=upper)


def validate(w: Workload) -> Workload:
    """The workload with names normalised; raises EstimatorError on nonsense."""
    task = w.task.strip().lower() if isinstance(w.task, str) else w.task
    if task in ("train", "finetune", "fine-tune", "fine_tune"):
        task = "training"
    if task in ("serve", "run", "infer", "generate"):
        task = "inference"
    if task not in TASKS:
        raise EstimatorError("unknown_task", task=str(w.task)[:30], known=list(TASKS))
    method = w.method.strip().lower() if w.method else None
    if method is not None and method not in METHODS:
        raise EstimatorError("unknown_method", method=method[:30], known=list(METHODS))
    if task == "inference" and method not in (None, "full"):
        raise EstimatorError("method_needs_training", method=method)
    engine = w.engine.strip().lower() if w.engine else None
    if engine is not None and task == "inference":
        named = engines.canonical(engine)
        if named is None:
            raise EstimatorError(
                "unknown_engine", engine=engine[:30], task=task, known=list(engines.ENGINES)
            )
        engine = named
    elif engine is not None:
        engine = FRAMEWORK_ALIASES.get(engine, engine)
        if engine not in TRAINING_ENGINES:
            raise EstimatorError(
                "unknown_engine", engine=engine[:30], task=task, known=list(TRAINING_ENGINES)
            )
    optimizer = w.optimizer.strip().lower().replace("-", "_") if w.optimizer else None
    if optimizer is not None:
        optimizer = OPTIMIZER_ALIASES.get(optimizer, optimizer)
        if optimizer not in OPTIMIZERS:
            raise EstimatorError(
                "unknown_optimizer", optimizer=optimizer[:30], known=list(OPTIMIZERS)
            )
    if w.context is not None:
        _positive("context", w.context, MAX_CONTEXT)
        limit = rope.longest(w.model)
        if limit and w.context > limit:
            if limit != w.model.max_context:
                raise EstimatorError(
                    "context_too_long_scaled",
                    context=w.context,
                    limit=limit,
                    native=w.model.max_context,
                    model=w.model.name,
                )
            raise EstimatorError(
                "context_too_long", context=w.context, limit=limit, model=w.model.name
            )
    if w.prompt_tokens is not None:
        _positive("prompt_tokens", w.prompt_tokens, w.context or MAX_CONTEXT)
    if w.adapter_precision is not None and w.adapter_precision not in ADAPTER_PRECISIONS:
        raise EstimatorError(
            "unknown_adapter_precision",
            precision=str(w.adapter_precision)[:30],
            known=list(ADAPTER_PRECISIONS),
        )
    _positive("batch", w.batch, MAX_SEQUENCES)
    _positive("concurrency", w.concurrency, MAX_SEQUENCES)
    smallest = min(w.model.hidden_size, *(lin.d_in for lin in w.model.linears))
    _positive("lora_rank", w.lora_rank, smallest)
    if w.lora_targets not in LORA_TARGETS:
        raise EstimatorError(
            "unknown_lora_targets", targets=str(w.lora_targets)[:30], known=list(LORA_TARGETS)
        )
    if isinstance(w.zero, bool) or w.zero not in (0, 1, 2, 3):
        raise EstimatorError("out_of_range", field="zero", value=str(w.zero)[:30], low=0, high=3)
    if w.gpu_memory_utilization is not None and not 0.05 <= w.gpu_memory_utilization <= 1.0:
        raise EstimatorError(
            "out_of_range",
            field="gpu_memory_utilization",
            value=str(w.gpu_memory_utilization)[:30],
            low=0.05,
            high=1.0,
        )
    from dataclasses import replace

    normal: dict[str, Any] = {
        "task": task,
        "method": method,
        "engine": engine,
        "optimizer": optimizer,
    }
    normal.update(validate_training(w, task, method, engine))
    # Most workloads come here normalised already (the planner's variants of one): a copy
    # of forty fields for nothing was a twentieth of an answer's time.
    if all(getattr(w, name) == value for name, value in normal.items()):
        return w
    return replace(w, **normal)

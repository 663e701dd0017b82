"""Fill in what the question left open, with the stated defaults (estimator/vocabulary.py), and record each one
as an assumption the answer shows."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import cast

from . import engines
from .errors import EstimatorError
from .frameworks import FRAMEWORKS, default_method
from .hardware.types import Machine
from .memory.alignment import objective_defaults
from .memory.constants import VLLM_UTILIZATION
from .models import rope
from .precision import FORMATS, WeightFormat, kv_element_bytes, weight_format
from .result import Note
from .vocabulary import DEFAULT_CONTEXT, Task
from .workload import Workload, validate

# What "int4"/"int8" mean in the training frameworks: bitsandbytes. The inference engines say
# what they mean in theirs (estimator/engines/).
TRAINING_INT = {"int4": "nf4", "int8": "int8"}
_FLOAT = {"fp32", "fp16", "bf16"}
# Bits alone: the engine chooses the format of that many bits (AWQ on vLLM, NF4 on transformers).
INT_WORDS = ("int4", "int8", "4bit", "8bit", "4-bit", "8-bit")
_QLORA_BASES = {"nf4", "gptq", "awq", "int8", "gptq-int8"}


@dataclass(frozen=True, slots=True)
class Resolved:
    workload: Workload  # every field filled
    weight_format: WeightFormat
    kv_element_bytes: float
    assumptions: tuple[Note, ...]

    # resolve() is the only maker of a Resolved and always fills in the context and the GPU
    # share; Workload types them optional because a question may leave them open.
    @property
    def context(self) -> int:
        assert self.workload.context is not None
        return self.workload.context

    @property
    def utilization(self) -> float:
        assert self.workload.gpu_memory_utilization is not None
        return self.workload.gpu_memory_utilization


def _engine(w: Workload, machine: Machine | None, notes: list[Note]) -> str:
    """The engine asked for, or the default for the hardware and the load."""
    if w.engine:
        if w.task == "inference" and not engines.get(w.engine).runs_on(machine):
            assert machine is not None
            raise EstimatorError("engine_not_on_hardware", engine=w.engine, hardware=machine.name)
        return w.engine
    needed = _format_engine(w, machine) if w.task == "inference" else None
    if needed is None and _own_gguf(w):
        # A GGUF file runs as it is on llama.cpp; transformers would have to dequantize it.
        fmt = weight_format(str(w.model.measured_format))
        notes.append(Note("engine_for_gguf", {"engine": "llama.cpp", "precision": fmt.label}))
        return "llama.cpp"
    if needed:
        notes.append(Note("engine_for_format", {"engine": needed}))
        return needed
    if w.task == "training":
        engine = "deepspeed" if w.zero else "transformers"
    else:
        engine = _default_engine(w, machine)
    notes.append(Note("default_engine", {"engine": engine}))
    return engine


def _format_engine(w: Workload, machine: Machine | None) -> str | None:
    """The engine a requested weight format or KV precision needs when transformers, the
    general default, cannot run it: the first in registry order that can (GGUF weights or a
    q8_0/q4_0 KV cache on llama.cpp, an fp8 KV cache on vLLM)."""
    kv = _kv_name(w.kv_precision) if w.kv_precision else None
    fmt = None
    if w.precision and w.precision.strip().lower() not in INT_WORDS:
        try:
            fmt = weight_format(w.precision)
        except EstimatorError:
            return None
    if kv is None and fmt is None:
        return None

    def runs(engine: engines.Engine) -> bool:
        return (kv is None or kv in engine.kv_precisions) and (fmt is None or engine.accepts(fmt))

    if runs(engines.get("transformers")):
        return None
    return next((e.name for e in engines.on(machine) if runs(e)), None)


def _own_gguf(w: Workload) -> bool:
    """Whether the model is a GGUF file read from disk and the question names no other
    format for it ("int4"/"int8" leave the choice to the engine)."""
    if w.task != "inference" or w.model.measured_source != "gguf" or not w.model.measured_format:
        return False
    return w.precision is None or w.precision.strip().lower() in INT_WORDS


def _default_engine(w: Workload, machine: Machine | None) -> str:
    """The first engine in registry order that is the default for the model, the hardware and
    the number of sequences."""
    sequences = w.concurrency * w.batch
    return next(
        e.name for e in engines.ENGINES.values() if e.default_for(w.model, machine, sequences)
    )


def _precision(
    w: Workload, method: str, engine: str, machine: Machine | None, notes: list[Note]
) -> WeightFormat:
    no_bf16 = machine is not None and machine.gpu is not None and not machine.gpu.bf16
    requested = w.precision.strip().lower() if w.precision else None
    inference = engines.get(engine) if w.task == "inference" else None
    int_formats = inference.int_formats if inference is not None else TRAINING_INT
    if requested is not None:
        key = int_formats.get(requested, requested)
        if key in ("int4", "4bit"):
            key = TRAINING_INT["int4"]
        fmt = weight_format(key)
    elif inference is None:
        fmt = FORMATS["nf4" if method == "qlora" else ("fp16" if no_bf16 else "bf16")]
        notes.append(Note("default_precision", {"precision": fmt.label}))
    else:
        fmt = weight_format(inference.default_format(w.model, machine))
        notes.append(Note("default_precision", {"precision": fmt.label}))
    if inference is not None and not inference.accepts(fmt):
        if fmt.gguf:
            raise EstimatorError("gguf_needs_llamacpp", precision=fmt.name)
        if inference.accepts(FORMATS["q4_k_m"]):
            raise EstimatorError("engine_needs_gguf", precision=fmt.name)
        raise EstimatorError(
            "format_not_in_engine",
            engine=inference.label,
            precision=fmt.name,
            known=inference.ladder,
        )
    if inference is not None:
        notes += inference.format_notes(fmt, machine)
    if inference is None and fmt.gguf:
        raise EstimatorError("gguf_not_for_training", precision=fmt.name)
    if w.task == "training":
        if method in ("full", "freeze", "lora") and fmt.name not in _FLOAT:
            raise EstimatorError("training_needs_float", method=method, precision=fmt.name)
        if method == "qlora" and fmt.name not in _QLORA_BASES:
            raise EstimatorError("qlora_needs_4bit", precision=fmt.name)
    if no_bf16 and fmt.name == "bf16" and machine is not None:
        notes.append(Note("no_bf16", {"gpu": machine.name}))
    return fmt


def _kv_name(text: str) -> str:
    name = text.strip().lower()
    return {"f16": "fp16", "f32": "fp32", "float16": "fp16", "bfloat16": "bf16"}.get(name, name)


def _kv(w: Workload, engine: str, fmt: WeightFormat) -> tuple[str, float]:
    inference = engines.get(engine) if w.task == "inference" else None
    if w.kv_precision:
        name = _kv_name(w.kv_precision)
    elif inference is not None:
        name = inference.default_kv(fmt)
    else:
        name = "fp32" if fmt.name == "fp32" else "bf16"
    element = kv_element_bytes(name, w.model.head_dim)
    if inference is not None and name not in inference.kv_precisions:
        raise EstimatorError(
            "kv_not_in_engine",
            engine=engine,
            kv_precision=name,
            known=sorted(inference.kv_precisions),
        )
    return name, element


def _rope(w: Workload, context: int, inference: engines.Engine | None, notes: list[Note]) -> None:
    """A context past the config's runs on the RoPE scaling the model card documents, in an
    engine whose command can enable it."""
    scaling = rope.needed(w.model, context)
    card = w.model.rope_scaling
    if scaling is None or card is None:
        return
    if inference is not None and not inference.scales_rope:
        raise EstimatorError(
            "rope_scaling_not_in_engine",
            engine=inference.label,
            model=w.model.name,
            context=context,
            native=w.model.max_context,
            known=[e.label for e in engines.ENGINES.values() if e.scales_rope],
        )
    notes.append(
        Note(
            "rope_scaling",
            {
                "context": context,
                "native": w.model.max_context,
                "factor": scaling.factor,
                "original": scaling.original,
                "card_factor": card.factor,
                "limit": card.max_context,
            },
        )
    )


@lru_cache(maxsize=4096)
def resolve(workload: Workload, machine: Machine | None) -> Resolved:
    """The workload with every default filled in (pure, so memoised: an estimate, its speed and
    the searches resolve the same workloads again and again)."""
    w = validate(workload)
    notes: list[Note] = []
    method = "full" if w.task == "inference" else w.method
    if method is None:
        method = default_method(w.engine)
        if method != "full":
            framework = FRAMEWORKS[w.engine or ""]
            notes.append(
                Note(
                    f"framework_{method}",
                    {
                        "method": method,
                        "framework": framework.label,
                        "source": framework.default_method_source,
                    },
                )
            )
        else:
            notes.append(Note("default_method", {"method": "full"}))
    if w.task == "training":
        w = replace(w, **objective_defaults(w, method, notes))
    engine = _engine(w, machine, notes)
    fmt = _precision(w, method, engine, machine, notes)
    kv_name, kv_bytes = _kv(w, engine, fmt)
    inference = engines.get(engine) if w.task == "inference" else None
    context = w.context
    if context is None:
        own = inference.default_context(w.model, machine) if inference is not None else None
        # validate() has reduced the task to one of TASKS.
        context = own or DEFAULT_CONTEXT[cast(Task, w.task)]
        if w.model.max_context and context > w.model.max_context:
            context = w.model.max_context
        notes.append(
            Note("engine_context", {"context": context, "engine": inference.label})
            if own and inference is not None
            else Note("default_context", {"context": context})
        )
    _rope(w, context, inference, notes)
    utilization = w.gpu_memory_utilization
    if utilization is None:
        gpus = machine.count if machine is not None and machine.kind == "gpu" else 1
        utilization = (
            inference.default_utilization(gpus) if inference is not None else VLLM_UTILIZATION
        )
    optimizer = w.optimizer
    if w.task == "training" and optimizer is None:
        gpus = machine.count if machine is not None and machine.kind == "gpu" else 1
        optimizer = FRAMEWORKS[engine].default_optimizer(method, gpus)
        notes.append(Note("default_optimizer", {"optimizer": optimizer}))
    checkpointing = w.grad_checkpointing
    if w.task == "training" and checkpointing is None:
        checkpointing = True
        notes.append(Note("default_checkpointing", {}))
    adapter_precision = w.adapter_precision
    if w.task == "training" and method in ("lora", "qlora"):
        notes.append(Note("lora_settings", {"rank": w.lora_rank, "targets": w.lora_targets}))
        if adapter_precision is None:
            adapter_precision = FRAMEWORKS[engine].adapter_precision
            notes.append(Note("default_adapter_precision", {"precision": adapter_precision}))
    if w.zero and w.task != "training":
        raise EstimatorError("zero_needs_training")
    w = replace(
        w,
        method=method,
        engine=engine,
        precision=fmt.name,
        kv_precision=kv_name,
        context=context,
        optimizer=optimizer,
        grad_checkpointing=checkpointing,
        adapter_precision=adapter_precision,
        prompt_tokens=w.prompt_tokens or context,
        gpu_memory_utilization=utilization,
    )
    for note in w.model.notes:
        notes.append(Note(note, {}))
    return Resolved(w, fmt, kv_bytes, tuple(notes))

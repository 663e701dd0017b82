"""Fill in what the question left open, with the defaults DESIGN.md states, and record each one
as an assumption the answer shows."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .errors import EstimatorError
from .frameworks import FRAMEWORKS
from .hardware.types import Machine
from .memory.alignment import objective_defaults
from .precision import FORMATS, GGUF_BPW, WeightFormat, kv_element_bytes, weight_format
from .result import Note
from .vocabulary import DEFAULT_CONTEXT
from .workload import Workload, validate

# What "int4"/"int8" mean in each engine: bitsandbytes in transformers, AWQ/GPTQ checkpoints in
# vLLM, K-quants in llama.cpp (Ollama's default download is Q4_K_M).
ENGINE_INT = {
    "transformers": {"int4": "nf4", "int8": "int8"},
    "vllm": {"int4": "awq", "int8": "gptq-int8"},
    "llama.cpp": {"int4": "q4_k_m", "int8": "q8_0", "bf16": "f16", "fp16": "f16"},
    # Training frameworks quantize a QLoRA base with bitsandbytes (torchtune with its own NF4).
    **{name: {"int4": "nf4", "int8": "int8"} for name in FRAMEWORKS if name != "transformers"},
}
LLAMACPP_DEFAULT = "q4_k_m"
KV_ALLOWED = {
    "transformers": {"bf16", "fp16", "fp32", "int8"},
    "vllm": {"bf16", "fp16", "fp8"},
    "llama.cpp": {"fp16", "bf16", "fp32", "q8_0", "q4_0"},
}
_FLOAT = {"fp32", "fp16", "bf16"}
_QLORA_BASES = {"nf4", "gptq", "awq", "int8", "gptq-int8"}


@dataclass(frozen=True, slots=True)
class Resolved:
    workload: Workload  # every field filled
    weight_format: WeightFormat
    kv_element_bytes: float
    assumptions: tuple[Note, ...]


def _engine(w: Workload, machine: Machine | None, notes: list[Note]) -> str:
    """The engine asked for, or the default for the hardware and the load."""
    if w.engine:
        if w.engine == "vllm" and machine is not None and machine.kind == "apple":
            raise EstimatorError("engine_not_on_hardware", engine="vllm", hardware=machine.name)
        return w.engine
    needed = _format_engine(w, machine) if w.task == "inference" else None
    if needed:
        notes.append(Note("engine_for_format", {"engine": needed}))
        return needed
    if w.task == "training":
        engine = "deepspeed" if w.zero else "transformers"
    elif machine is not None and machine.kind in ("cpu", "apple"):
        engine = "llama.cpp"
    elif w.concurrency * w.batch > 1:
        engine = "vllm"
    else:
        engine = "transformers"
    notes.append(Note("default_engine", {"engine": engine}))
    return engine


def _format_engine(w: Workload, machine: Machine | None) -> str | None:
    """The engine a requested format needs: GGUF weights or a q8_0/q4_0 KV cache run only on
    llama.cpp, an fp8 KV cache (on a GPU) on vLLM."""
    kv = (w.kv_precision or "").strip().lower()
    if kv in ("q8_0", "q4_0"):
        return "llama.cpp"
    if kv == "fp8" and (machine is None or machine.kind == "gpu"):
        return "vllm"
    if w.precision and w.precision.strip().lower() in GGUF_BPW:
        return "llama.cpp"
    return None


def _precision(
    w: Workload, method: str, engine: str, machine: Machine | None, notes: list[Note]
) -> WeightFormat:
    native = w.model.checkpoint_precision
    no_bf16 = machine is not None and machine.gpu is not None and not machine.gpu.bf16
    requested = w.precision.strip().lower() if w.precision else None
    if requested is not None:
        key = ENGINE_INT.get(engine, {}).get(requested, requested)
        if key in ("int4", "4bit"):
            key = ENGINE_INT["transformers"]["int4"]
        fmt = weight_format(key)
    elif w.task == "training":
        fmt = FORMATS["nf4" if method == "qlora" else ("fp16" if no_bf16 else "bf16")]
        notes.append(Note("default_precision", {"precision": fmt.label}))
    elif engine == "llama.cpp":
        fmt = FORMATS["mxfp4" if native == "mxfp4" else LLAMACPP_DEFAULT]
        notes.append(Note("default_precision", {"precision": fmt.label}))
    else:
        name = (
            native if native in ("fp8_block", "mxfp4", "fp8") else ("fp16" if no_bf16 else "bf16")
        )
        fmt = FORMATS[name]
        notes.append(Note("default_precision", {"precision": fmt.label}))
    if engine == "llama.cpp" and not (fmt.gguf or fmt.name == "mxfp4"):
        raise EstimatorError("engine_needs_gguf", precision=fmt.name)
    if engine != "llama.cpp" and fmt.gguf:
        raise EstimatorError("gguf_needs_llamacpp", precision=fmt.name)
    if w.task == "training":
        if method in ("full", "freeze", "lora") and fmt.name not in _FLOAT:
            raise EstimatorError("training_needs_float", method=method, precision=fmt.name)
        if method == "qlora" and fmt.name not in _QLORA_BASES:
            raise EstimatorError("qlora_needs_4bit", precision=fmt.name)
    if no_bf16 and fmt.name == "bf16" and machine is not None:
        notes.append(Note("no_bf16", {"gpu": machine.name}))
    return fmt


def _kv(w: Workload, engine: str, fmt: WeightFormat, notes: list[Note]) -> tuple[str, float]:
    if w.kv_precision:
        name = w.kv_precision.strip().lower()
        name = {"f16": "fp16", "f32": "fp32", "float16": "fp16", "bfloat16": "bf16"}.get(name, name)
    else:
        name = "fp32" if fmt.name == "fp32" else ("fp16" if engine == "llama.cpp" else "bf16")
    element = kv_element_bytes(name, w.model.head_dim)
    allowed = KV_ALLOWED.get(engine)
    if allowed is not None and name not in allowed and w.task == "inference":
        raise EstimatorError(
            "kv_not_in_engine", engine=engine, kv_precision=name, known=sorted(allowed)
        )
    return name, element


def resolve(workload: Workload, machine: Machine | None) -> Resolved:
    w = validate(workload)
    notes: list[Note] = []
    method = w.method
    if w.task == "training" and method is None:
        method = "full"
        notes.append(Note("default_method", {"method": "full"}))
    if w.task == "inference":
        method = "full"
    if w.task == "training":
        w = replace(w, **objective_defaults(w, method, notes))
    engine = _engine(w, machine, notes)
    fmt = _precision(w, method, engine, machine, notes)
    kv_name, kv_bytes = _kv(w, engine, fmt, notes)
    context = w.context
    if context is None:
        context = DEFAULT_CONTEXT[w.task]
        if w.model.max_context and context > w.model.max_context:
            context = w.model.max_context
        notes.append(Note("default_context", {"context": context}))
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
    )
    for note in w.model.notes:
        notes.append(Note(note, {}))
    return Resolved(w, fmt, kv_bytes, tuple(notes))

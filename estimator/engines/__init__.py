"""The inference engines, one module each, and the registry the estimator and planner use."""

from __future__ import annotations

from ..errors import EstimatorError
from ..hardware.types import Machine
from ..result import Estimate
from . import exllamav2, llamacpp, mlx, ollama, sglang, transformers, vllm
from .base import Engine, Launch
from .repos import repository

__all__ = [
    "ENGINES",
    "Engine",
    "Launch",
    "canonical",
    "command",
    "get",
    "in_ram",
    "launch",
    "on",
    "rented",
    "tried",
]

# Registry order is the order of preference when several engines could run a request.
ENGINES: dict[str, Engine] = {
    e.name: e
    for e in (
        transformers.ENGINE,
        vllm.ENGINE,
        sglang.ENGINE,
        mlx.ENGINE,
        llamacpp.ENGINE,
        ollama.ENGINE,
        exllamav2.ENGINE,
    )
}
ALIASES: dict[str, str] = {alias: e.name for e in ENGINES.values() for alias in e.aliases}


def canonical(name: str) -> str | None:
    """The registry name for what someone typed, or None for no inference engine."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    return key if key in ENGINES else None


def get(name: str) -> Engine:
    """The engine of a registry name or of what someone typed for it (a workload the planner
    gets may still carry "gguf" or "tabbyapi")."""
    engine = ENGINES.get(canonical(name) or name)
    if engine is None:
        raise EstimatorError(
            "unknown_engine", engine=name[:30], task="inference", known=list(ENGINES)
        )
    return engine


def on(machine: Machine | None) -> list[Engine]:
    """The engines that run on `machine` (all of them when no hardware is given)."""
    return [e for e in ENGINES.values() if e.runs_on(machine)]


def tried(kind: str) -> list[Engine]:
    """The engines the planner tries unasked on a kind of device ("none": no hardware), in
    registry order; the others are planned when asked for or as the question's default."""
    return [e for e in ENGINES.values() if kind in e.tried]


def rented(name: str | None) -> Engine:
    """`name`'s engine if the rented GPU servers run it, else the first that they do."""
    if name:
        engine = get(name)
        if engine.rented:
            return engine
    return next(e for e in ENGINES.values() if e.rented)


def in_ram(name: str) -> Engine:
    """`name`'s engine if it runs the layers it keeps in RAM on the CPU, else the first that
    does (llama.cpp): copying them to the GPU every token (accelerate) is slower."""
    engine = get(name)
    if engine.offloads_layers and not engine.streams_offload:
        return engine
    return next(e for e in ENGINES.values() if e.offloads_layers and not e.streams_offload)


def launch(est: Estimate) -> Launch:
    """What the launch command of `est` states."""
    i = est.inputs
    off = est.offload
    gpu_layers = off.gpu_layers if off is not None else None
    return Launch(
        model=i.model,
        repo=repository(i.model),
        precision=i.precision,
        kv_precision=i.kv_precision or "",
        context=i.context,
        sequences=i.concurrency * i.batch,
        gpus=i.gpu_count,
        utilization=i.gpu_memory_utilization,
        gpu_layers=gpu_layers,
        total_layers=off.total_layers if off is not None and gpu_layers is not None else None,
        cpu_moe_layers=off.expert_layers if off is not None else 0,
        tensor_split=_tensor_split(est),
        apple=i.machine_kind == "apple",
        expert_parallel=any(n.key == vllm.EXPERT_PARALLEL for n in est.steps),
        cpu=i.machine_kind == "cpu",
        rope=i.rope_scaling,
        vision=i.vision,
    )


def _tensor_split(est: Estimate) -> tuple[int, ...]:
    """Layers per GPU when different GPUs split the layers (what --tensor-split states)."""
    layers = [d.layers for d in est.devices]
    mixed = len({d.capacity_bytes for d in est.devices}) > 1
    return tuple(n for n in layers if n is not None) if mixed and None not in layers else ()


def command(est: Estimate) -> str:
    """The command that runs what `est` estimated, in its engine."""
    return get(est.inputs.engine).command(launch(est))

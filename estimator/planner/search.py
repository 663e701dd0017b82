"""The planner: every plan a practitioner would consider for a workload on the user's hardware,
estimated and ranked. Pure: the same question gives the same plans."""

from __future__ import annotations

from dataclasses import replace

from .. import engines, inverse
from ..cost import cloud_machine
from ..errors import EstimatorError
from ..hardware.types import Machine
from ..models.types import Architecture
from ..precision import WeightFormat, weight_bytes, weight_format
from ..resolve import resolve
from ..result import Estimate
from ..speed import inference_speed, ram_ceiling
from ..workload import Workload
from . import training
from .context import longest_context
from .inference import Option, options
from .quality import low_bits, quality_bits
from .rank import key
from .types import ANY, CLOUD, MORE_GPUS, YOURS, Plan, PlanOffload

# Plans returned, and how many of the best get their longest context worked out.
LIMIT = 8
CONTEXT_PLANS = 2
# GPU counts a job is planned on: a single node of 1, 2, 4 or 8 GPUs, then whole 8-GPU nodes.
NODE_COUNTS = (1, 2, 4, 8, 16, 24, 32, 48, 64)


def plans(
    workload: Workload,
    machine: Machine | None,
    *,
    gpu_count_asked: bool = False,
    cloud: bool = True,
    limit: int = LIMIT,
) -> tuple[Plan, ...]:
    """The plans for `workload` on `machine` (or on no hardware), best first."""
    try:
        asked = resolve(workload, machine).workload
    except EstimatorError:
        asked = workload
    if workload.task == "training":
        found = list(training.options(workload, machine))
    else:
        found = list(options(workload, machine))
    hardware = YOURS if machine is not None else ANY
    built = [_plan(o, hardware, asked) for o in found]
    # Elsewhere too when nothing on theirs runs faster than people read.
    if gpu_count_asked or not any(p.runs and not p.slow_offload for p in built):
        built += _elsewhere(workload, machine, asked, cloud)
    built = [replace(p, leaves_named=_leaves_named(p, workload)) for p in built]
    unique: dict[tuple, Plan] = {}
    for p in sorted(built, key=lambda p: key(p, gpu_count_asked)):
        unique.setdefault(
            (
                p.hardware,
                p.engine,
                p.precision,
                p.kv_precision,
                p.method,
                p.gpus,
                p.parallelism,
                p.machine and p.machine.name,
            ),
            p,
        )
    ranked = list(unique.values())[:limit]
    return tuple(_with_context(p) if i < CONTEXT_PLANS else p for i, p in enumerate(ranked))


# Formats within this many bits per weight of the one named are the same request (int4 asked:
# AWQ, NF4 or Q4_K_M; FP16 asked: BF16).
SAME_FORMAT_BITS = 2.0


def _leaves_named(plan: Plan, said: Workload) -> bool:
    """Whether the plan gives up what the question named itself (`said` before defaults)."""
    if said.method and plan.method != said.method:
        return True
    if not said.precision:
        return False
    try:
        named = weight_format(said.precision).bits
    except EstimatorError:
        return False
    return abs(weight_format(plan.precision).bits - named) > SAME_FORMAT_BITS


def _with_context(plan: Plan) -> Plan:
    if plan.verdict not in ("fits", "tight") or plan.machine is None:
        return plan
    return replace(plan, context_max=longest_context(plan.workload, plan.machine, plan.estimate))


def _changes(est: Estimate, asked: Workload, planned: Workload) -> tuple[str, ...]:
    i = est.inputs
    out = []
    if planned.context and planned.context != asked.context:
        out.append("context")  # shorter than the engine's default, which did not fit
    if asked.engine and i.engine != asked.engine:
        out.append("engine")
    if asked.precision and i.precision != asked.precision:
        out.append("precision")
    if asked.kv_precision and i.kv_precision and i.kv_precision != asked.kv_precision:
        out.append("kv_precision")
    if asked.method and i.method != asked.method:
        out.append("method")
    if i.task == "training" and (i.optimizer or "adamw") != (asked.optimizer or "adamw"):
        out.append("optimizer")
    if i.task == "training" and i.grad_checkpointing and asked.grad_checkpointing is False:
        out.append("checkpointing")
    if i.task == "training" and i.batch < asked.batch:
        out.append("batch")  # one sequence per micro-batch, gradient accumulation for the rest
    if i.zero != asked.zero or i.offload != asked.offload:
        out.append("sharding")
    if est.verdict == "offload" and est.offload is not None and est.offload.ram_bytes:
        out.append("offload")
    return tuple(out)


def _parallelism(est: Estimate, machine: Machine | None) -> str:
    i = est.inputs
    if machine is None or machine.kind == "cpu":
        return "cpu" if machine is not None else "single"
    if machine.kind == "apple":
        return "unified"
    if i.task == "training":
        return training.parallelism(i)
    if i.gpu_count <= 1:
        return "single"
    return engines.get(i.engine).parallelism


def _offload(est: Estimate) -> PlanOffload | None:
    off = est.offload
    if off is None or not off.ram_bytes:
        return None
    if off.expert_layers:
        return PlanOffload("experts", off.ram_bytes, None, off.expert_layers)
    if off.gpu_layers is not None:
        return PlanOffload("layers", off.ram_bytes, off.gpu_layers)
    if est.inputs.task == "training":
        # Offloaded states are the optimizer's below ZeRO-3 (ZeRO-Offload), and with ZeRO-3 or
        # FSDP also the sharded parameters; offloaded activations are checkpoints (Unsloth).
        states = ""
        if off.states_ram_bytes:
            states = "parameters" if est.inputs.shards_parameters else "optimizer"
        what = "_".join(w for w in (states, "activations" if off.activation_ram_bytes else "") if w)
        return PlanOffload(what, off.ram_bytes)
    return PlanOffload("embeddings", off.ram_bytes)


def _plan(
    option: Option, hardware: str, asked: Workload, usd_per_hour: float | None = None
) -> Plan:
    est = option.estimate
    i = est.inputs
    machine = option.machine
    fmt = weight_format(i.precision)
    arch = option.workload.model
    runs = est.verdict in ("fits", "tight", "offload")
    decode = prefill = ram_bound = None
    if runs and machine is not None and i.task == "inference":
        resolved = resolve(option.workload, machine)
        speed = inference_speed(resolved, machine, est)
        if speed is not None:
            decode, prefill = speed.decode_per_sequence, speed.prefill
        elif est.offload is not None:
            ram_bound = ram_ceiling(resolved, machine, est)
    off = est.offload
    per_device = off.gpu_bytes if off is not None and off.gpu_bytes else est.per_device_bytes
    return Plan(
        workload=option.workload,
        machine=machine,
        estimate=est,
        engine=i.engine,
        precision=i.precision,
        kv_precision=i.kv_precision,
        method=i.method,
        gpus=i.gpu_count if machine is not None and machine.kind == "gpu" else 0,
        parallelism=_parallelism(est, machine),
        offload=_offload(est),
        per_device_bytes=per_device,
        verdict=est.verdict,
        context_max=None,
        decode=decode,
        prefill=prefill,
        command=training.command(est, machine) if i.task == "training" else engines.command(est),
        hardware=hardware,
        quality_bits=quality_bits(fmt, arch),
        estimate_bits=_estimate_bits(est, arch, fmt),
        low_bits=low_bits(fmt, arch),
        usd_per_hour=usd_per_hour,
        changes=_changes(est, asked, option.workload),
        ram_bound=ram_bound,
    )


def _estimate_bits(est: Estimate, arch: Architecture, fmt: WeightFormat) -> float:
    """Bits per weight that break ties. Training: the format's own, wherever its weights are
    (sharded, or all in RAM with FSDP's CPU offload, which counted none and ranked the run as
    asked after DeepSpeed needing 2.5 times its RAM). Inference: those on the fullest GPU, so
    that between formats of one quality a plan keeping the whole model on its GPUs (vLLM's
    BF16) comes before one keeping the input embeddings in RAM (llama.cpp's F16)."""
    if est.inputs.task == "training":
        total = weight_bytes(arch, fmt).total
    else:
        total = est.components.weights
    return round(8 * total / max(1, est.inputs.params), 1)


def _elsewhere(w: Workload, machine: Machine | None, asked: Workload, cloud: bool) -> list[Plan]:
    """Plans on other hardware: more GPUs of the user's kind than they have (their own count is
    planned as theirs), and the cheapest cloud instance, in the best format and in 4 bits."""
    out: list[Plan] = []
    for variant in _variants(w):
        if machine is not None and machine.kind == "gpu" and machine.gpu is not None:
            found = inverse.gpus_needed(variant, machine.gpu, machine.ram_bytes, counts=NODE_COUNTS)
            if (
                found.value is not None
                and found.estimate is not None
                and found.value > machine.count
            ):
                bigger = machine.more_of_first(found.value)
                out.append(_plan(Option(variant, bigger, found.estimate), MORE_GPUS, asked))
        if cloud:
            rented = inverse.cheapest_cloud(variant)
            if rented.value is not None and rented.estimate is not None:
                instance = rented.value
                out.append(
                    _plan(
                        Option(variant, cloud_machine(instance), rented.estimate),
                        CLOUD,
                        asked,
                        instance.usd_per_hour,
                    )
                )
    return out


def _variants(w: Workload) -> list[Workload]:
    """The workload as asked and in 4 bits, on the engines GPU servers run; for many users also
    in 4 bits with the engine's 8-bit KV cache (the cache is then most of the memory: a 70B
    for 100 users of 4,096 tokens holds 125 GiB of it in BF16, half that in FP8)."""
    if w.task == "training":
        return training.variants(w)
    engine = engines.rented(w.engine)
    four = engine.int_formats["int4"]
    same = replace(w, engine=engine.name)
    try:
        resolve(same, None)
    except EstimatorError:
        same = replace(same, precision=None, kv_precision=None)
    out = [same] if same.precision == four else [same, replace(same, precision=four)]
    if (w.concurrency or 1) > 1 and w.kv_precision is None and engine.kv8:
        out.append(replace(same, precision=four, kv_precision=engine.kv8))
    return out

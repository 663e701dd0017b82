"""The estimator's entry point: a workload on a machine -> memory per device and a verdict."""

from __future__ import annotations

from functools import lru_cache

from . import engines
from .capacity import fit_verdict, gpu_usable, host_usable, ram_usable
from .hardware.types import Machine
from .memory import constants as k
from .memory import training_plan
from .memory.inference import InferencePlan
from .memory.notes import param_counts
from .memory.placement import gpu_layers_that_fit
from .memory.reported import views
from .models import rope
from .resolve import Resolved, resolve
from .result import Components, Device, Estimate, Inputs, Note, Offload
from .vocabulary import Verdict
from .workload import Workload


def _inputs(r: Resolved, machine: Machine | None, parallelism: str | None) -> Inputs:
    w = r.workload
    arch = w.model
    training = w.task == "training"
    lora = training and w.method in ("lora", "qlora")
    return Inputs(
        model=arch.name,
        params=param_counts(arch)[0],
        active_params=param_counts(arch)[1],
        task=w.task,
        method=w.method or "full",
        precision=w.precision or "",
        kv_precision=None if training else w.kv_precision,
        context=w.context or 0,
        batch=w.batch,
        concurrency=w.concurrency,
        engine=w.engine or "",
        optimizer=w.optimizer if training else None,
        lora_rank=w.lora_rank if lora else None,
        lora_targets=w.lora_targets if lora else None,
        grad_checkpointing=w.grad_checkpointing if training else None,
        flash_attention=w.flash_attention,
        zero=w.zero,
        offload=w.offload,
        machine=machine.name if machine else None,
        machine_kind=machine.kind if machine else None,
        gpu_count=machine.count if machine and machine.kind == "gpu" else (1 if machine else 0),
        device_memory_bytes=machine.device_bytes if machine else None,
        gpu_memory_utilization=r.utilization,
        vision=bool(arch.vision_params),
        objective=w.objective if training else None,
        group_size=(w.group_size or 0) if training else 0,
        generation_length=(w.generation_length or 0) if training else 0,
        rollout_engine=w.rollout_engine if training else None,
        rollout_memory_utilization=w.rollout_memory_utilization if training else None,
        parallelism=parallelism,
        liger=training and bool(w.liger),
        rope_scaling=rope.needed(arch, r.context),
    )


@lru_cache(maxsize=4096)
def estimate(workload: Workload, machine: Machine | None = None) -> Estimate:
    """Memory of `workload`, per device of `machine` (or for one device when none is given).

    Pure, so memoised: the advice and the inverse questions ask about the same alternatives
    again and again."""
    r = resolve(workload, machine)
    w = r.workload
    assumptions = list(r.assumptions)
    engine = engines.get(w.engine or "") if w.task == "inference" else None
    iplan = None
    disk_needed = managed = 0
    parallelism = None
    offloading = w.offload
    held = (0, 0)  # training: model states and activations in RAM
    if engine is not None:
        iplan = engine.memory_plan(r, machine)
        parts, steps, ram_needed = iplan.devices, list(iplan.steps), iplan.host_only
        transient = [c.activations + c.overhead for c in parts]
    else:
        tplan = training_plan.plan(r, machine)
        parts, steps, ram_needed = tplan.devices, list(tplan.steps), tplan.ram_bytes
        disk_needed, managed = tplan.disk_bytes, tplan.managed_bytes
        parallelism = tplan.recipe.sharding.parallelism
        offloading = tplan.recipe.sharding.offload is not None
        held = (tplan.states_ram_bytes, tplan.activation_ram_bytes)
        assumptions += tplan.assumptions
        transient = [tplan.transient_bytes] * len(parts)
    inputs = _inputs(r, machine, parallelism)
    total = sum(parts, Components())
    kind = machine.kind if machine is not None else "gpu"
    floor = 0
    if machine is not None and engine is not None and engine.preallocates:
        floor = int(machine.device_bytes * r.utilization)
    seen = [
        views(c, kind=kind, gpus=len(parts), transient=t, managed=managed, floor=floor)
        for c, t in zip(parts, transient, strict=True)
    ]
    if machine is None:
        devices = tuple(
            Device(
                f"device {i}",
                c,
                allocated_bytes=v.allocated,
                reserved_bytes=v.reserved,
                device_total_bytes=v.device_total,
            )
            for i, (c, v) in enumerate(zip(parts, seen, strict=True))
        )
        steps.append(
            Note("no_hardware", {"total": total.total, "per_device": max(c.total for c in parts)})
        )
        return Estimate(inputs, total, devices, "unknown", None, tuple(steps), tuple(assumptions))
    usable = []
    for index in range(len(parts)):
        if engine is not None:
            free, notes = engine.usable_bytes(machine, r.utilization, index)
        elif machine.kind == "gpu":
            free, notes = gpu_usable(machine, index, machine.device_capacities[index])
        else:
            free, notes = host_usable(machine)
        usable.append(free)
        if index == 0:
            assumptions += notes
    groups = iplan.layer_groups if iplan is not None else ()
    devices = tuple(
        Device(
            _label(machine, i, len(parts)),
            c,
            machine.device_capacities[i] if machine.kind == "gpu" else machine.device_bytes,
            u,
            layers=groups[i] if groups else None,
            allocated_bytes=v.allocated,
            reserved_bytes=v.reserved,
            device_total_bytes=v.device_total,
        )
        for i, (c, u, v) in enumerate(zip(parts, usable, seen, strict=True))
    )
    verdict, headroom = fit_verdict([c.total for c in parts], usable)
    offload = None
    ram = ram_usable(machine)
    if ram_needed or disk_needed:
        offload = Offload(
            ram_needed,
            disk_bytes=disk_needed,
            states_ram_bytes=held[0],
            activation_ram_bytes=held[1],
            ram_usable_bytes=ram,
        )
        if ram is not None and ram_needed > ram:
            verdict = "does_not_fit"
        elif offloading and verdict != "does_not_fit":
            verdict = "offload"
    if verdict == "does_not_fit" and engine is not None and iplan is not None:
        verdict, offload = _try_offload(
            engine, machine, parts, usable, iplan, ram, verdict, offload, assumptions
        )
    if machine.kind == "gpu":
        shown = max(devices, key=lambda d: d.components.total)
        steps.append(
            Note(
                "device_views",
                {
                    "allocated": shown.allocated_bytes,
                    "reserved": shown.reserved_bytes,
                    "device_total": shown.device_total_bytes,
                },
            )
        )
    steps.append(
        Note(
            "verdict",
            {
                "verdict": verdict,
                "per_device": max(c.total for c in parts),
                "usable": min(usable),
                "capacity": machine.device_bytes,
                "devices": len(parts),
                "headroom": headroom,
            },
        )
    )
    return Estimate(inputs, total, devices, verdict, offload, tuple(steps), tuple(assumptions))


def _label(machine: Machine, index: int, devices: int) -> str:
    if machine.cards and machine.mixed:
        return f"{machine.cards[index].name} #{index}"
    return f"{machine.name} #{index}" if devices > 1 else machine.name


def _try_offload(
    engine: engines.Engine,
    machine: Machine,
    parts: list[Components],
    usable: list[int],
    iplan: InferencePlan,
    ram: int | None,
    verdict: Verdict,
    offload: Offload | None,
    assumptions: list[Note],
) -> tuple[Verdict, Offload | None]:
    """Inference that does not fit on the GPUs: can the engine keep the MoE experts of some
    layers in CPU RAM (llama.cpp --n-cpu-moe), or whole layers (llama.cpp -ngl, transformers
    device_map with max_memory)?"""
    if machine.kind == "apple":
        # Over the GPU working-set cap but within unified memory: llama.cpp runs the remaining
        # layers on the CPU, or the cap can be raised (sysctl iogpu.wired_limit_mb).
        if max(c.total for c in parts) <= machine.device_bytes - k.OS_RESERVE_BYTES:
            assumptions.append(Note("apple_over_working_set", {}))
            return "offload", Offload(0)
        return verdict, offload
    if machine.kind != "gpu" or not engine.offloads_layers or not iplan.layer_bytes:
        return verdict, offload
    if ram is None:
        assumptions.append(Note("ram_unknown", {}))
        return verdict, offload
    if engine.offloads_experts and iplan.expert_bytes:
        experts = _offload_experts(parts, usable, iplan)
        if experts is not None:
            return ("offload" if experts.ram_bytes <= ram else verdict), experts
    budget = sum(usable) - sum(c.activations + c.overhead for c in parts) - iplan.gpu_fixed
    gpu_layers = gpu_layers_that_fit(iplan.layer_bytes, max(0, budget))
    on_gpu = sum(iplan.layer_bytes[len(iplan.layer_bytes) - gpu_layers :])
    ram_needed = sum(iplan.layer_bytes) - on_gpu + iplan.host_only
    per_gpu = (on_gpu + iplan.gpu_fixed) // len(parts) + max(
        c.activations + c.overhead for c in parts
    )
    result = Offload(ram_needed, gpu_layers, len(iplan.layer_bytes), gpu_bytes=per_gpu)
    return ("offload" if ram_needed <= ram else verdict), result


def _offload_experts(
    parts: list[Components], usable: list[int], iplan: InferencePlan
) -> Offload | None:
    """The fewest leading layers whose experts must move to RAM for the rest to fit (llama.cpp
    --n-cpu-moe N keeps the experts of layers 0..N-1 in RAM); None when even all of them are
    not enough. Several GPUs are taken together: the layer split rebalances what is left."""
    need = sum(c.total for c in parts)
    room = sum(usable) if len(parts) > 1 else usable[0]
    moved = 0
    for index, size in enumerate(iplan.expert_bytes):
        moved += size
        if size and need - moved <= room:
            return Offload(
                moved + iplan.host_only,
                total_layers=len(iplan.layer_bytes),
                expert_layers=index + 1,
                moe_layers=sum(1 for b in iplan.expert_bytes if b),
                gpu_bytes=(need - moved) // len(parts),
            )
    return None

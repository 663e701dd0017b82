"""The one fact a rule evaluation sees: the asked workload, its estimate, the hardware, and the
same workload under alternatives, flat and in real units (bytes, USD, hours); rules/engine.py
encodes it for durable-rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from estimator import engines
from estimator.estimate import estimate
from estimator.hardware.catalog import machine as make_machine
from estimator.hardware.types import Machine
from estimator.memory.constants import OS_RESERVE_BYTES
from estimator.planner import CLOUD, MORE_GPUS, YOURS, Plan
from estimator.planner import ladder as alternatives
from estimator.planner.ladder import Alternative
from estimator.report import Report
from estimator.resolve import resolve
from estimator.result import Estimate
from estimator.speed import inference_speed
from estimator.training_time import training_time
from estimator.vocabulary import FITTING
from estimator.workload import Workload

# The CPU the small-model guidance quotes when the question named none: a desktop with 64 GB of
# dual-channel DDR5-5600, running llama.cpp with Q4_K_M (Ollama's default download).
GUIDANCE_CPU = "ddr5-5600"
GUIDANCE_RAM_GB = 64
GUIDANCE_GPU = "RTX 4090"
DESKTOP_SEGMENTS = ("consumer", "workstation")


@dataclass(frozen=True, slots=True)
class Facts:
    fact: dict[str, Any]
    estimate: Estimate | None
    alternatives: dict[str, Alternative]
    # The best plan that runs, by where it runs (YOURS, MORE_GPUS, CLOUD): what a plan rule
    # recommends.
    plans: dict[str, Plan] = field(default_factory=dict)


def _alternative_fields(alts: list[Alternative]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for a in alts:
        out[f"{a.name}_fits"] = int(a.fits)
        out[f"{a.name}_bytes"] = max(d.components.total for d in a.estimate.devices)
        if a.estimate.offload is not None:
            out[f"{a.name}_ram_bytes"] = a.estimate.offload.ram_bytes
        for key, value in a.params.items():
            out[f"{a.name}_{key}"] = value
    return out


def _hardware_fields(m: Machine | None, est: Estimate) -> dict[str, Any]:
    if m is None:
        return {"device": "none", "gpu_count": 0}
    out: dict[str, Any] = {
        "device": m.kind,
        "gpu_count": m.count if m.kind == "gpu" else 0,
        # The fullest device's, beside per_device_bytes (also the fullest's): on a mixed set
        # the smallest card's room next to the largest card's need would not add up.
        "usable_bytes": max(est.devices, key=lambda d: d.components.total).usable_bytes or 0,
        "capacity_bytes": m.device_bytes,
        "ram_known": int(m.ram_bytes is not None),
    }
    if m.kind == "gpu":
        # Decode speed follows memory bandwidth, which "a 24 GB GPU" does not say.
        out["gpu_bandwidth_known"] = int(bool(m.boards) and all(b.bandwidth_gbs for b in m.boards))
    if m.gpu is not None:
        g = m.gpu
        out.update(
            gpu=g.name,
            gpu_bf16=int(g.bf16),
            gpu_fa2=g.flash_attention2,
            gpu_nvlink=int(g.nvlink),
            gpu_display=int(g.drives_display and not g.laptop),
            gpu_laptop=int(g.laptop),
            gpu_watts=round(sum(b.tdp_w or 0 for b in m.boards)),
            # Consumer and workstation cards sit in a PC on a household circuit; data-centre
            # boards in a server on a rack's feed.
            gpu_desktop=int(all(b.segment in DESKTOP_SEGMENTS for b in m.boards)),
            # Different models never share an NVLink bridge; the machine's name lists them.
            gpu_mixed=int(m.mixed),
            gpu_set=m.name,
        )
    if m.apple is not None:
        out["apple_limit_bytes"] = m.device_bytes - OS_RESERVE_BYTES
    return out


def _named(gpu: str, ram_gb: float | None = None, cpu: str | None = None) -> Machine:
    """The machine of named hardware (machine() gives None only when none is named)."""
    found = make_machine(gpu=gpu, ram_gb=ram_gb, cpu=cpu)
    assert found is not None, gpu
    return found


def _guidance_fields(w: Workload, m: Machine | None, est: Estimate) -> dict[str, Any]:
    """Numbers the CPU-versus-GPU guidance quotes: how fast a CPU decodes this model, and how long
    a million training tokens take on a CPU and on a GPU."""
    out: dict[str, Any] = {}
    cpu = _named("cpu", GUIDANCE_RAM_GB, GUIDANCE_CPU)
    if est.inputs.task == "inference":
        gguf = Workload(
            model=w.model,
            task="inference",
            engine="llama.cpp",
            context=min(est.inputs.context, 4096),
        )
        # The asker's own CPU when it is one whose memory bandwidth is known (a 12-channel
        # EPYC decodes several times faster than the desktop the guidance assumes).
        speed = None
        if m is not None and m.kind == "cpu":
            speed = inference_speed(resolve(gguf, m), m, estimate(gguf, m))
        if speed is None:
            speed = inference_speed(resolve(gguf, cpu), cpu, estimate(gguf, cpu))
        # The guidance CPU is a catalog platform, so its memory bandwidth is known.
        assert speed is not None
        out.update(
            cpu_tps_low=round(speed.decode_per_sequence.low, 1),
            cpu_tps_high=round(speed.decode_per_sequence.high, 1),
        )
    else:
        gpu = m if m is not None and m.kind == "gpu" and m.gpu is not None else _named(GUIDANCE_GPU)
        cpu_time = training_time(resolve(w, cpu), cpu, None)
        gpu_time = training_time(resolve(w, gpu), gpu, None)
        if cpu_time and gpu_time:
            out.update(
                cpu_hours_low=round(cpu_time.hours.low, 1),
                cpu_hours_high=round(cpu_time.hours.high, 1),
                gpu_hours_low=round(gpu_time.hours.low, 2),
                gpu_hours_high=round(gpu_time.hours.high, 2),
                guidance_gpu=gpu.name,
            )
    return out


def _cost_fields(rep: Report, m: Machine | None) -> dict[str, Any]:
    """Buying the asked GPUs against renting what the answer weighed them against (the cheapest
    instance that fits, for several GPUs as many rented GPUs), and power: the answer's own cost
    figures (its electricity price, its instances), not a second search."""
    if m is None or m.kind != "gpu":
        return {}
    out: dict[str, Any] = {}
    if rep.electricity is not None:
        out["power_usd_per_hour"] = rep.electricity.per_hour
        out["kwh_price"] = rep.kwh_price
    buy = rep.purchase
    if buy is not None:
        out.update(purchase_usd=round(buy.usd), purchase_verified=int(buy.verified))
        rented = buy.rented
        if buy.break_even_hours is not None and rented is not None:
            out.update(
                break_even_hours=round(buy.break_even_hours),
                cloud_usd_per_hour=rented.usd_per_hour,
                cloud_instance=f"{rented.provider} {rented.instance}",
            )
    return out


def best_plans(plans: tuple[Plan, ...]) -> dict[str, Plan]:
    """The first plan that runs in each place (YOURS also holds the plans of a question without
    hardware), when it changes something the question asked. On the user's own hardware, a
    plan partly in RAM slower than people read (405B on a 4090 at 0.2 tokens/s) is theirs only
    when nothing runs elsewhere."""
    out: dict[str, Plan] = {}
    for p in plans:
        where = CLOUD if p.hardware == CLOUD else MORE_GPUS if p.hardware == MORE_GPUS else YOURS
        if p.runs and where not in out:
            out[where] = p
    slow = YOURS in out and out[YOURS].slow_offload
    if slow and any(p.runs and p.hardware in (CLOUD, MORE_GPUS) for p in plans):
        del out[YOURS]
    return {k: p for k, p in out.items() if p.kind != "as_asked"}


# A plan is clearly faster when the middle of its decode range is this factor above the
# asked configuration's (each range holds its engine's spread on the calibration rows).
CLEARLY_FASTER = 1.5
FASTER = "faster"


def faster_plan(plans: tuple[Plan, ...]) -> Plan | None:
    """A plan on the user's hardware that fits on the GPUs, keeps at least the asked format's
    quality and decodes clearly faster than the question as asked (transformers, the default
    engine, against vLLM or llama.cpp)."""
    asked = next((p for p in plans if p.kind == "as_asked" and p.hardware != CLOUD), None)
    if asked is None or asked.decode is None or asked.verdict not in FITTING:
        return None
    for p in plans:
        if (
            p.kind != "as_asked"
            and p.hardware == asked.hardware
            and p.verdict in FITTING
            and p.decode is not None
            and p.quality_bits >= asked.quality_bits
            and p.decode.low + p.decode.high
            >= CLEARLY_FASTER * (asked.decode.low + asked.decode.high)
        ):
            return p
    return None


def _recommended(plans: tuple[Plan, ...]) -> dict[str, Plan]:
    """What the plan rules may recommend: the best plan in each place, and a faster one."""
    found = best_plans(plans)
    faster = faster_plan(plans)
    if faster is not None:
        found[FASTER] = faster
    return found


def _plan_fields(plans: tuple[Plan, ...], recommended: dict[str, Plan]) -> dict[str, Any]:
    """The planner's best plan, and which places have a plan that runs, for the plan rules."""
    out = {
        "plan_runs": int(any(place in recommended for place in (YOURS, MORE_GPUS, CLOUD))),
        "plan_yours_runs": int(YOURS in recommended),
        "plan_more_gpus_runs": int(MORE_GPUS in recommended),
        "plan_cloud_runs": int(CLOUD in recommended),
        "plan_faster": int(FASTER in recommended),
    }
    if not plans:
        return out
    best = plans[0]
    return {
        **out,
        "plan_kind": best.kind,
        "plan_hardware": best.hardware,
        "plan_engine": best.engine,
        "plan_precision": best.precision,
        "plan_low_bits": int(best.low_bits),
        "plan_gpus": best.gpus,
        "plan_bytes": best.per_device_bytes,
    }


def _launch_fields(est: Estimate) -> dict[str, Any]:
    """Whether the answer shows the command that starts what was estimated, and its engine."""
    i = est.inputs
    if i.task != "inference":
        return {"launch": 0, "engine_label": ""}
    engine = engines.get(i.engine)
    runs = est.verdict in (*FITTING, "offload")
    return {"launch": int(engine.launch_hint and runs), "engine_label": engine.label}


def llm_facts(w: Workload, m: Machine | None, rep: Report, plans: tuple[Plan, ...] = ()) -> Facts:
    est = estimate(w, m)
    i = est.inputs
    fact: dict[str, Any] = {
        "t": "workload",
        "kind": "llm",
        "model": i.model,
        "task": i.task,
        "method": i.method,
        "engine": i.engine,
        "precision": i.precision,
        "kv_precision": i.kv_precision or "",
        "verdict": est.verdict,
        "params_m": round(i.params / 1e6),
        "active_params_m": round(i.active_params / 1e6),
        "context": i.context,
        "batch": i.batch,
        "concurrency": i.concurrency,
        "grad_checkpointing": int(bool(i.grad_checkpointing)),
        "per_device_bytes": est.per_device_bytes,
        "total_bytes": est.total_bytes,
        "offload_ram_bytes": est.offload.ram_bytes if est.offload else 0,
    }
    fact.update(_hardware_fields(m, est))
    fact.update(_launch_fields(est))
    recommended = _recommended(plans)
    fact.update(_plan_fields(plans, recommended))
    fact.update(_guidance_fields(w, m, est))
    alts: list[Alternative] = []
    if m is not None and est.verdict not in FITTING:
        alts = (
            alternatives.training(w, m, est)
            if i.task == "training"
            else alternatives.inference(w, m, est)
        )
    if m is not None and i.task == "inference" and est.verdict not in FITTING:
        # Nothing runs on the user's own GPUs as asked, nor a format of it that reads along:
        # the biggest smaller model of its line that does (a DeepSeek-R1 distill on a laptop).
        own = [p for p in plans if p.runs and p.hardware == YOURS and not p.slow_offload]
        smaller = None if own else alternatives.smaller_model(w, m)
        if smaller is not None:
            alts.append(smaller)
    fused = alternatives.fused_loss(w, m, est) if m is not None else None
    if fused is not None:
        # Also for a run that fits: a fused loss frees memory for a longer context or batch.
        alts.append(fused)
        saved = est.per_device_bytes - fused.estimate.per_device_bytes
        fact["fused_loss_saved_bytes"] = saved
        fact["fused_loss_saved_pct"] = round(100 * saved / max(est.per_device_bytes, 1))
    fact.update(_alternative_fields(alts))
    fact.update(_cost_fields(rep, m))
    return Facts(fact, est, {a.name: a for a in alts}, recommended)


def ml_fact(
    kind: str, rows: int, features: int, params: int, retrain_often: bool
) -> dict[str, Any]:
    """A classical-ML or small-network question: its data (float64, as numpy and scikit-learn
    hold it) and its size."""
    if kind not in ("classical", "neural_net"):
        raise ValueError(f"unknown workload kind {kind!r}")
    return {
        "t": "workload",
        "kind": kind,
        "rows": max(0, int(rows)),
        "features": max(0, int(features)),
        "data_bytes": max(0, rows) * max(0, features) * 8,
        "params_m": round(max(0, params) / 1e6, 3),
        "retrain_often": int(retrain_often),
    }

"""An Estimate as the `--json` contract."""

from __future__ import annotations

from estimator.planner import Plan
from estimator.planner.quality import LOW_BITS_SOURCE
from estimator.planner.serving import Capacity
from estimator.result import Estimate
from rules import Advice

from ..schemas import (
    AnswerOut,
    DeviceOut,
    InputsOut,
    MemoryOut,
    OffloadOut,
    PlanOffloadOut,
    PlanOut,
    RangeOut,
    RecommendationOut,
    ServingOut,
)
from . import notes
from .recommendations import texts


def answer(est: Estimate, lang: str) -> AnswerOut:
    i = est.inputs
    verdict_text = notes.t(f"verdict.{est.verdict}", lang)
    fullest = max(est.devices, key=lambda d: d.components.total)
    return AnswerOut(
        status="answered",
        inputs=InputsOut(
            model=i.model,
            params=i.params,
            active_params=i.active_params,
            task=i.task,
            method=i.method,
            precision=i.precision,
            kv_precision=i.kv_precision,
            context=i.context,
            batch=i.batch,
            concurrency=i.concurrency,
            gpu=i.machine,
            gpu_count=i.gpu_count,
            device_memory_bytes=i.device_memory_bytes,
            engine=i.engine,
            optimizer=i.optimizer,
            lora_rank=i.lora_rank,
            lora_targets=i.lora_targets,
            grad_checkpointing=i.grad_checkpointing,
            flash_attention=i.flash_attention,
            zero=i.zero,
            offload=i.offload,
            assumed=[notes.assumption(n, lang) for n in est.assumptions],
            objective=i.objective,
            parallelism=i.parallelism,
        ),
        memory=MemoryOut(
            total_bytes=est.total_bytes,
            per_device_bytes=est.per_device_bytes,
            components=est.components.as_dict(),
            devices=[
                DeviceOut(
                    label=d.label,
                    total_bytes=d.components.total,
                    capacity_bytes=d.capacity_bytes,
                    usable_bytes=d.usable_bytes,
                    components=d.components.as_dict(),
                    allocated_peak_bytes=d.allocated_bytes,
                    reserved_peak_bytes=d.reserved_bytes,
                    device_total_bytes=d.device_total_bytes,
                )
                for d in est.devices
            ],
            offload=None
            if est.offload is None
            else OffloadOut(
                ram_bytes=est.offload.ram_bytes,
                gpu_layers=est.offload.gpu_layers,
                total_layers=est.offload.total_layers,
                disk_bytes=est.offload.disk_bytes,
                expert_layers=est.offload.expert_layers,
            ),
            allocated_peak_bytes=fullest.allocated_bytes,
            reserved_peak_bytes=fullest.reserved_bytes,
            device_total_bytes=fullest.device_total_bytes,
        ),
        verdict=est.verdict,
        steps=[
            f"{n}. {notes.step(note, lang, verdict_text)}" for n, note in enumerate(est.steps, 1)
        ],
        recommendations=[],
    )


def recommendations(advice: Advice, lang: str) -> list[RecommendationOut]:
    out = []
    for rec in advice.recommendations:
        title, detail = texts(rec, advice.estimate, lang)
        out.append(
            RecommendationOut(
                rule=rec.rule,
                title=title,
                detail=detail,
                memory_bytes=rec.memory_bytes,
                verdict=rec.verdict,
                primary=rec.primary,
                group=rec.group,
            )
        )
    return out


def plans(found: tuple[Plan, ...], lang: str) -> list[PlanOut]:
    """The planner's plans, best first."""
    out = []
    for p in found:
        off = p.offload
        out.append(
            PlanOut(
                engine=p.engine,
                precision=p.precision,
                kv_precision=p.kv_precision,
                method=p.method,
                gpus=p.gpus,
                parallelism=p.parallelism,
                offload=None
                if off is None
                else PlanOffloadOut(
                    what=off.what,
                    ram_bytes=off.ram_bytes,
                    gpu_layers=off.gpu_layers,
                    expert_layers=off.expert_layers,
                ),
                per_device_bytes=p.per_device_bytes,
                verdict=p.verdict,
                context_max=p.context_max,
                decode_tokens_per_s=None
                if p.decode is None
                else RangeOut(low=p.decode.low, high=p.decode.high),
                prefill_tokens_per_s=None
                if p.prefill is None
                else RangeOut(low=p.prefill.low, high=p.prefill.high),
                decode_at_most_tokens_per_s=p.ram_bound,
                command=p.command,
                hardware=p.hardware,
                machine=p.machine.name if p.machine is not None else None,
                usd_per_hour=p.usd_per_hour,
                low_bits=p.low_bits,
                quality_note=notes.t(
                    "plan.low_bits", lang, bits=int(p.quality_bits), source=LOW_BITS_SOURCE
                )
                if p.low_bits
                else None,
                kind=p.kind,
                changes=list(p.changes),
            )
        )
    return out


def serving(found: Capacity | None) -> ServingOut | None:
    """What a queueing server does with more users than fit at once."""
    if found is None:
        return None
    decode = found.decode
    return ServingOut(
        asked=found.asked,
        at_once=found.at_once,
        context=found.context,
        average_tokens=found.average_tokens,
        at_average=found.at_average,
        decode_tokens_per_s=None if decode is None else RangeOut(low=decode.low, high=decode.high),
    )

"""`llm-sizer estimate`: flags -> Workload + Machine -> Estimate -> table or JSON."""

from __future__ import annotations

import argparse
import re
import sys

from estimator.errors import EstimatorError
from estimator.estimate import estimate
from estimator.hardware.catalog import machine as make_machine
from estimator.workload import Workload

from ..i18n import language
from ..model_source import resolve_model
from ..render import errors, estimate_json, estimate_text

_SUFFIX = {"k": 1024, "m": 1024 * 1024}
MAX_GB = 1_000_000.0


def parse_int(field: str, text: str) -> int:
    """An integer flag: 8192, 8_192, 8,192 or 32k (x1024)."""
    cleaned = text.strip().lower().replace("_", "").replace(",", "")
    m = re.fullmatch(r"(-?\d+)([km]?)", cleaned)
    if not m:
        raise EstimatorError("not_a_number", field=field, value=text[:30])
    return int(m.group(1)) * _SUFFIX.get(m.group(2), 1)


def parse_gb(field: str, text: str | None) -> float | None:
    if text is None:
        return None
    cleaned = text.strip().lower().removesuffix("gb").removesuffix("gib").strip()
    try:
        value = float(cleaned)
    except ValueError:
        raise EstimatorError("not_a_number", field=field, value=text[:30]) from None
    if not 0.1 <= value <= MAX_GB:
        raise EstimatorError(
            "out_of_range", field=field, value=text[:30], low=0.1, high=int(MAX_GB)
        )
    return value


def parse_share(field: str, text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise EstimatorError("not_a_number", field=field, value=text[:30]) from None


def build(args: argparse.Namespace) -> tuple[Workload, object, tuple]:
    choice = resolve_model(args.model)
    gpus = parse_int("gpus", args.gpus)
    if not 1 <= gpus <= 4096:
        raise EstimatorError("out_of_range", field="gpus", value=args.gpus, low=1, high=4096)
    if gpus > 1 and not (args.gpu or args.gpu_memory):
        raise EstimatorError("gpus_need_gpu")
    machine = make_machine(
        gpu=args.gpu,
        gpu_memory_gb=parse_gb("gpu_memory", args.gpu_memory),
        gpus=gpus,
        ram_gb=parse_gb("ram", args.ram),
    )
    workload = Workload(
        model=choice.architecture,
        task=args.task,
        method=args.method,
        precision=args.precision,
        kv_precision=args.kv_precision,
        context=None if args.context is None else parse_int("context", args.context),
        prompt_tokens=None if args.prompt is None else parse_int("prompt", args.prompt),
        batch=parse_int("batch", args.batch),
        concurrency=parse_int("concurrency", args.concurrency),
        engine=args.engine,
        optimizer=args.optimizer,
        lora_rank=parse_int("lora_rank", args.lora_rank),
        lora_targets=args.lora_targets.strip().lower(),
        lora_train_embeddings=args.lora_train_embeddings,
        adapter_precision=args.adapter_precision.strip().lower()
        if args.adapter_precision
        else None,
        grad_checkpointing=args.grad_checkpointing,
        flash_attention=args.flash_attention,
        zero=parse_int("zero", args.zero),
        offload=args.offload,
        gpu_memory_utilization=parse_share("gpu_memory_utilization", args.gpu_memory_utilization),
    )
    return workload, machine, choice.notes


def run(args: argparse.Namespace) -> int:
    lang = language(args.lang)
    try:
        workload, machine, model_notes = build(args)
        est = estimate(workload, machine)
    except EstimatorError as exc:
        print(f"error: {errors.message(exc, lang)}", file=sys.stderr)
        return 2
    from dataclasses import replace

    est = replace(est, assumptions=tuple(model_notes) + est.assumptions)
    if args.json:
        print(estimate_json.answer(est, lang).model_dump_json(indent=2))
    else:
        print(estimate_text.render(est, lang))
    return 0

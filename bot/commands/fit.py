"""`llm-sizer fit QUESTION`: the inverse questions (the largest context, the most users, the best
precision, the largest model, the smallest GPU, how many GPUs, the cheapest cloud instance)."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from estimator import inverse
from estimator.errors import EstimatorError
from estimator.hardware.types import CloudInstance

from ..i18n import language, t
from ..render import errors, estimate_json, estimate_text, numbers
from .estimate import build

QUESTIONS = ("context", "concurrency", "precision", "model", "gpu", "gpus", "cloud")
NEED_HARDWARE = ("context", "concurrency", "precision", "model", "gpus")
PLACEHOLDER_MODEL = "7B"  # `fit model` searches the catalog; the flag's model is not used


def _ask(question: str, args: argparse.Namespace) -> inverse.Answer:
    if question == "model" and not args.model:
        args.model = PLACEHOLDER_MODEL
    workload, machine, _ = build(args)
    if question in NEED_HARDWARE and machine is None:
        raise EstimatorError("fit_needs_hardware", question=question)
    if question == "gpus" and (machine.gpu is None or machine.kind != "gpu"):
        raise EstimatorError("fit_needs_gpu_kind")
    match question:
        case "context":
            return inverse.max_context(workload, machine)
        case "concurrency":
            return inverse.max_concurrency(workload, machine)
        case "precision":
            return inverse.best_precision(replace(workload, precision=None), machine)
        case "model":
            return inverse.largest_model(workload, machine)
        case "gpu":
            return inverse.smallest_gpu(
                workload, laptops=bool(machine and machine.gpu and machine.gpu.laptop)
            )
        case "gpus":
            return inverse.gpus_needed(workload, machine.gpu, machine.ram_bytes)
        case _:
            return inverse.cheapest_cloud(workload)


def run(args: argparse.Namespace) -> int:
    lang = language(args.lang)
    try:
        answer = _ask(args.question, args)
    except EstimatorError as exc:
        print(f"error: {errors.message(exc, lang)}", file=sys.stderr)
        return 2
    value = answer.value
    if isinstance(value, CloudInstance):
        value = (
            f"{value.provider} {value.instance} ({value.usd_per_hour:g} USD/h, {value.price_date})"
        )
    shown = numbers.integer(value, lang) if isinstance(value, int) else value
    text = (
        t(f"fit.{args.question}", lang, value=shown) if value is not None else t("fit.none", lang)
    )
    if args.json:
        import json

        body = {
            "question": args.question,
            "answer": value,
            "answer_text": text,
            "estimate": None
            if answer.estimate is None
            else json.loads(estimate_json.answer(answer.estimate, lang).model_dump_json()),
        }
        print(json.dumps(body, indent=2, ensure_ascii=False))
    else:
        print(text)
        if answer.estimate is not None:
            print()
            print(estimate_text.render(answer.estimate, lang))
    return 0 if value is not None else 1

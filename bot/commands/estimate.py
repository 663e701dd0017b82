"""`llm-sizer estimate`: flags -> Workload + Machine -> Estimate -> table or JSON."""

from __future__ import annotations

import argparse
import re
import sys
from decimal import Decimal

from estimator.errors import EstimatorError
from estimator.hardware.catalog import machine as make_machine
from estimator.hardware.types import Machine
from estimator.result import Note
from estimator.training_time import TrainingData
from estimator.vocabulary import MAX_CONTEXT, MAX_GPUS
from estimator.workload import Workload

from .. import sizing
from ..i18n import language
from ..model_source import resolve_model
from ..render import errors
from . import output

_BINARY = {"k": 1024, "m": 1024 * 1024}
_DECIMAL = {"k": 1000, "m": 1000**2, "b": 1000**3}
MAX_GB = 1_000_000.0


def parse_int(field: str, text: str, *, binary: bool = True) -> int:
    """An integer flag: 8192, 8_192, 8,192, or with a suffix: 32k context is 32,768 tokens
    (binary), 20M training tokens are 20,000,000 (decimal)."""
    cleaned = text.strip().lower().replace("_", "").replace(",", "")
    m = re.fullmatch(r"(-?\d+(?:\.\d+)?)([kmb]?)", cleaned)
    suffixes = _BINARY if binary else _DECIMAL
    if (
        not m
        or (m.group(2) and m.group(2) not in suffixes)
        or ("." in m.group(1) and not m.group(2))
    ):
        raise EstimatorError("not_a_number", field=field, value=text[:30])
    # Exact: a float overflows at 309 digits and misreads anything past 15.
    return round(Decimal(m.group(1)) * suffixes.get(m.group(2), 1))


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


MAX_EXAMPLES = 10**12
MAX_EPOCHS = 1000.0


def _count(field: str, text: str | None, high: int) -> int | None:
    if text is None:
        return None
    value = parse_int(field, text, binary=False)
    if not 1 <= value <= high:
        raise EstimatorError("out_of_range", field=field, value=text[:30], low=1, high=high)
    return value


def training_data(args: argparse.Namespace) -> TrainingData | None:
    """--examples x --example-tokens x --epochs, when given."""
    examples = _count("examples", args.examples, MAX_EXAMPLES)
    per = _count("example_tokens", args.example_tokens, MAX_CONTEXT)
    if examples is None and per is None:
        return None
    if examples is None or per is None:
        raise EstimatorError("data_needs_both")
    epochs = 1.0 if args.epochs is None else parse_share("epochs", args.epochs)
    if not 0.01 <= epochs <= MAX_EPOCHS:
        raise EstimatorError(
            "out_of_range", field="epochs", value=args.epochs[:30], low=0.01, high=MAX_EPOCHS
        )
    return TrainingData(examples, per, epochs)


def build(args: argparse.Namespace) -> tuple[Workload, Machine | None, tuple[Note, ...]]:
    choice = resolve_model(args.model, precision=args.precision)
    gpus = parse_int("gpus", args.gpus)
    if not 1 <= gpus <= MAX_GPUS:
        raise EstimatorError("out_of_range", field="gpus", value=args.gpus, low=1, high=MAX_GPUS)
    if gpus > 1 and not (args.gpu or args.gpu_memory):
        raise EstimatorError("gpus_need_gpu")
    machine = make_machine(
        gpu=args.gpu,
        gpu_memory_gb=parse_gb("gpu_memory", args.gpu_memory),
        gpus=gpus,
        ram_gb=parse_gb("ram", args.ram),
        cpu=args.cpu,
    )
    workload = Workload(
        model=choice.architecture,
        task=args.task,
        method=args.method,
        precision=args.precision or choice.precision,
        kv_precision=args.kv_precision,
        context=None if args.context is None else parse_int("context", args.context),
        prompt_tokens=None if args.prompt is None else parse_int("prompt", args.prompt),
        batch=parse_int("batch", args.batch),
        concurrency=parse_int("concurrency", args.concurrency),
        engine=args.engine or choice.engine,
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
        gpu_memory_utilization=None
        if args.gpu_memory_utilization is None
        else parse_share("gpu_memory_utilization", args.gpu_memory_utilization),
        distributed=args.distributed,
        offload_device=args.offload_device,
        liger=args.liger,
        compile=args.compile,
        chunked_loss=args.chunked_loss,
        optimizer_in_backward=args.optimizer_in_backward,
        activation_offload=args.activation_offload,
        mixed_precision=args.mixed_precision,
        grad_accumulation=_count("grad_accumulation", args.grad_accumulation, 100_000),
        objective=args.objective,
        reference_model=args.reference_model,
        group_size=_count("group_size", args.group_size, 100_000),
        generation_length=_count("generation_length", args.generation_length, MAX_CONTEXT),
        rollout_engine=args.rollout_engine,
        rollout_memory_utilization=None
        if args.rollout_memory_utilization is None
        else parse_share("rollout_memory_utilization", args.rollout_memory_utilization),
        reward_model=None
        if args.reward_model is None
        else resolve_model(args.reward_model).architecture,
    )
    return workload, machine, choice.notes


def tokens_of(args: argparse.Namespace) -> int | TrainingData | None:
    """The training data the flags describe: --tokens, or the examples, their length and epochs."""
    tokens: int | TrainingData | None = training_data(args)
    if args.tokens is not None:
        if tokens is not None:
            raise EstimatorError("tokens_or_data")
        tokens = parse_int("tokens", args.tokens, binary=False)
        if not 1 <= tokens <= 10**15:
            raise EstimatorError(
                "out_of_range", field="tokens", value=args.tokens, low=1, high=10**15
            )
    return tokens


def answer(args: argparse.Namespace) -> sizing.Sizing:
    """The workload the flags describe, answered (`estimate` and the MCP server's tools)."""
    workload, machine, model_notes = build(args)
    tokens = tokens_of(args)
    price = None if args.kwh_price is None else parse_share("kwh_price", args.kwh_price)
    if price is not None and not 0 <= price <= 100:
        raise EstimatorError(
            "out_of_range", field="kwh_price", value=args.kwh_price, low=0, high=100
        )
    return sizing.size(workload, machine, model_notes, tokens=tokens, kwh_price=price)


def run(args: argparse.Namespace) -> int:
    lang = language(args.lang)
    try:
        ans = answer(args)
    except EstimatorError as exc:
        print(f"error: {errors.message(exc, lang)}", file=sys.stderr)
        return 2
    match output.chosen(args):
        case "json":
            print(sizing.as_json(ans, lang).model_dump_json(indent=2))
        case "markdown":
            from ..conversation.answer import Outcome
            from ..conversation.compose import answered
            from ..conversation.slots import Draft
            from ..render import markdown

            reply = answered(Outcome(Draft(), workload=ans), [], lang)
            print(markdown.render(reply, ans.estimate), end="")
        case _:
            print(sizing.as_text(ans, lang))
    return 0

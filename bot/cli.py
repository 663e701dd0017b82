"""`llm-sizer`: the command line. Each subcommand imports its work lazily so start-up stays fast."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from . import __version__
from .commands import ask, bot, chat, completion, data, detect, history, mcp, output, profile
from .commands.training_flags import training_args
from .i18n import LANGUAGES, language, t

# Commands that print their answer and end; nothing of theirs runs at interpreter exit.
ONE_SHOT = frozenset({"ask", "estimate", "fit"})


class _Parser(argparse.ArgumentParser):
    """argparse that reports a bad argument in one line and exits 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        print(f"error: {message} (see llm-sizer --help)", file=sys.stderr)
        raise SystemExit(2)


def _estimate_args(p: argparse.ArgumentParser, model_required: bool = True) -> None:
    p.add_argument(
        "--model",
        required=model_required,
        help="catalog name, HF id, size like 7B, or a config.json path",
    )
    p.add_argument("--task", required=True, help="inference or training")
    p.add_argument("--method", help="training method: full, lora, qlora or freeze (default full)")
    p.add_argument(
        "--precision",
        help="weights: bf16, fp16, fp32, fp8, int8, int4, nf4, gptq, awq, q4_k_m, q8_0, ...",
    )
    p.add_argument("--kv-precision", help="KV cache: bf16, fp16, fp8, int8, q8_0, q4_0")
    p.add_argument(
        "--context",
        help="tokens per sequence, e.g. 8192 or 32k (default 4096 inference, 2048 training)",
    )
    p.add_argument("--prompt", help="prompt tokens processed at once (default: the whole context)")
    p.add_argument("--batch", default="1", help="sequences per step (training: per GPU)")
    p.add_argument("--concurrency", default="1", help="concurrent sequences served (inference)")
    hw = p.add_mutually_exclusive_group()
    hw.add_argument(
        "--gpu",
        help='GPU or machine: "RTX 4090", "2x 3090 + 3060", "4090 laptop", "A100 80GB", '
        '"M3 Max 64GB", "Raspberry Pi 5 8GB", "cpu"',
    )
    hw.add_argument(
        "--gpu-memory", help="memory of one GPU in GB, when the GPU is not in the catalog"
    )
    p.add_argument("--gpus", default="1", help="number of GPUs")
    p.add_argument("--ram", help="CPU RAM in GB (CPU-only machines, offload)")
    p.add_argument(
        "--cpu",
        help="CPU memory platform for CPU speed: ddr5-6000, epyc genoa, threadripper pro, ...",
    )
    p.add_argument(
        "--engine",
        # Written out: importing the registries would cost every command's start-up 0.1 s;
        # tests/bot/test_cli.py checks the lists against them.
        help="inference: transformers, vllm, sglang, mlx, llama.cpp, ollama, exllamav2; training: "
        "transformers, unsloth, torchtune, axolotl, llama-factory, deepspeed, fsdp",
    )
    p.add_argument(
        "--optimizer", help="adamw, paged_adamw, adamw_8bit, paged_adamw_8bit, sgd, adafactor"
    )
    p.add_argument("--lora-rank", default="16", help="LoRA rank (default 16)")
    p.add_argument("--lora-targets", default="all", help="all linear layers, attention or mlp only")
    p.add_argument(
        "--lora-train-embeddings", action="store_true", help="also train embeddings and lm_head"
    )
    p.add_argument("--adapter-precision", help="LoRA adapters in fp32 (PEFT default) or bf16")
    p.add_argument(
        "--grad-checkpointing",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="gradient checkpointing (default on)",
    )
    p.add_argument(
        "--flash-attention",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="flash/SDPA attention (default on); off adds the attention matrix",
    )
    p.add_argument("--zero", default="0", help="DeepSpeed ZeRO / FSDP stage 0-3 across --gpus")
    p.add_argument(
        "--offload",
        action="store_true",
        help="offload optimizer states (and ZeRO-3 weights) to CPU RAM",
    )
    p.add_argument(
        "--gpu-memory-utilization",
        default=None,
        help="vLLM's / SGLang's share of GPU memory (default: the engine's, 0.9 for vLLM)",
    )
    training_args(p)
    p.add_argument("--tokens", help="training tokens for the training time and cost (default 1M)")
    p.add_argument(
        "--kwh-price", help="electricity price in USD per kWh (default 0.16, the US average)"
    )
    p.add_argument("--json", action="store_true", help="print the JSON contract instead of a table")
    output.add_format(p)
    p.add_argument("--lang", help="en or nl (default: LLM_SIZER_LANG, else en)")


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="llm-sizer", description="Will this model run or fine-tune on my hardware?")
    p.add_argument("--version", action="version", version=f"llm-sizer {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _estimate_args(
        sub.add_parser("estimate", help="memory, verdict, speed and cost of one workload")
    )
    fit = sub.add_parser(
        "fit", help="the inverse questions: largest context, most users, best precision, ..."
    )
    fit.add_argument(
        "question",
        choices=("context", "concurrency", "batch", "precision", "model", "gpu", "gpus", "cloud"),
        help="context|concurrency|precision: the most that fits the hardware; model: the largest catalog "
        "model; gpu: the smallest GPU; gpus: how many of --gpu; cloud: the cheapest instance",
    )
    _estimate_args(fit, model_required=False)
    ask.register(sub)
    chat.register(sub)
    profile.register(sub)
    history.register(sub)
    data.register(sub)
    bot.register(sub)
    mcp.register(sub)
    detect.register(sub)
    completion.register(sub)
    cal = sub.add_parser("calibrate", help="compare the estimator with published measurements")
    cal.add_argument("--json", action="store_true", help="print rows and summary as JSON")
    cal.add_argument("--lang", help="en or nl")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    return _main(argv)[0]


def entry() -> NoReturn:
    """The `llm-sizer` console script. After a one-shot command everything is printed, and
    tearing the interpreter down (SQLAlchemy's and pydantic's objects freed one by one) would
    add a fifth to a cold `ask`: those exit at once instead."""
    code, command = _main(None)
    if command not in ONE_SHOT:
        sys.exit(code)
    logging.shutdown()
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)


def _main(argv: Sequence[str] | None) -> tuple[int, str | None]:
    command = None
    try:
        args = parser().parse_args(argv)
        command = args.command
        if not _known_language(args):
            return 2, command
        return _dispatch(args), command
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, as other command line tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0, command
    except KeyboardInterrupt:
        return 130, command


def _known_language(args: argparse.Namespace) -> bool:
    """Whether --lang, where given, names a language of the catalogs; says so when not."""
    requested = getattr(args, "lang", None)
    if requested is None or requested.strip().lower() in LANGUAGES:
        return True
    message = t("error.unknown_lang", language(None), value=requested.strip()[:20])
    print(f"error: {message}", file=sys.stderr)
    return False


def _dispatch(args: argparse.Namespace) -> int:
    if hasattr(args, "func"):
        return args.func(args)
    if args.command == "estimate":
        from .commands.estimate import run

        return run(args)
    if args.command == "fit":
        from .commands.fit import run as fit

        return fit(args)
    from .commands.calibrate import run as calibrate

    return calibrate(args)


if __name__ == "__main__":
    entry()

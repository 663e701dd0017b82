"""The planner's plans as sentences: what a plan runs (format, KV cache, engine or framework,
how the GPUs are used, where), its figures (memory per GPU, verdict, what stays in RAM, price),
and its speed and longest context."""

from __future__ import annotations

from estimator import engines
from estimator.frameworks import FRAMEWORKS
from estimator.planner import CLOUD, MORE_GPUS, Plan
from estimator.planner.quality import LOW_BITS_SOURCE, UNUSABLE_BITS, UNUSABLE_SOURCE
from estimator.precision import weight_format
from estimator.speed import Range
from estimator.training_time import TrainingTime

from ..i18n import t
from . import numbers
from .hardware import label as hardware_label

# A KV cache in the weights' own 16-bit type is not a choice worth naming.
_PLAIN_KV = frozenset({None, "bf16", "fp16", "auto"})
# Frameworks whose name the sharding already says ("DeepSpeed ZeRO-3 over 8 GPUs").
_SHARDING_FRAMEWORKS = frozenset({"deepspeed", "fsdp"})
# What a llama.cpp plan keeps in RAM by itself (the token embeddings) is no offload to report.
_QUIET_OFFLOAD = frozenset({"embeddings"})


def _states_offloaded(plan: Plan) -> bool:
    """Training with model states in CPU RAM (ZeRO-Offload, FSDP's CPU offload)."""
    off = plan.offload
    return off is not None and off.what.startswith(("parameters", "optimizer"))


def _placement(plan: Plan, lang: str) -> str:
    kind = plan.parallelism
    if plan.gpus <= 1 or kind in ("single", "cpu", "unified"):
        return ""
    offloaded = _states_offloaded(plan)
    if kind.startswith("zero"):
        key = "plan.zero_offload" if offloaded else "plan.zero"
        return t(key, lang, stage=kind[4:], gpus=plan.gpus)
    if kind == "fsdp" and offloaded:
        return t("plan.fsdp_offload", lang, gpus=plan.gpus)
    key = f"plan.{kind}"
    return t(
        key if kind in ("tensor", "layers", "fsdp", "ddp") else "plan.gpus", lang, gpus=plan.gpus
    )


def _where(plan: Plan, lang: str) -> str:
    machine = plan.machine
    if machine is None:
        return ""
    if plan.hardware == MORE_GPUS:
        return t("plan.on_more", lang, hardware=hardware_label(machine.name, plan.gpus))
    if plan.hardware == CLOUD:
        price = numbers.usd(plan.usd_per_hour or 0, lang)
        return t("plan.on_cloud", lang, hardware=hardware_label(machine.name, plan.gpus), usd=price)
    return ""


def summary(plan: Plan, lang: str) -> str:
    """What the plan runs: "GGUF Q4_K_M, q8_0 KV cache, on llama.cpp, layers split over 2 GPUs"."""
    w = plan.workload
    if w.task == "training":
        method = t(f"plan.method.{plan.method}", lang)
        text = method
        if plan.engine not in _SHARDING_FRAMEWORKS and plan.engine in FRAMEWORKS:
            text = t("plan.with", lang, what=method, framework=FRAMEWORKS[plan.engine].label)
        if w.optimizer in ("adamw_8bit", "paged_adamw_8bit"):
            text += t("plan.optimizer_8bit", lang)
        if plan.engine == "deepspeed" and plan.gpus <= 1 and w.zero:
            text += t("plan.zero_single", lang, stage=w.zero)
        if "checkpointing" in plan.changes:
            text += t("plan.checkpointing", lang)
        if "batch" in plan.changes:
            text += t("plan.micro_batch", lang)
    else:
        text = weight_format(plan.precision).label
        if plan.kv_precision not in _PLAIN_KV:
            text += t("plan.kv", lang, kv=plan.kv_precision)
        text = t("plan.on_engine", lang, what=text, engine=engines.get(plan.engine).label)
        if "context" in plan.changes:  # shorter than the engine's default, which did not fit
            context = numbers.integer(plan.estimate.inputs.context, lang)
            text += t("plan.context_set", lang, context=context)
    text += _placement(plan, lang) + _where(plan, lang)
    # A line or a sentence starts with it ("Full fine-tuning ...", "Or: Full ...").
    return text[:1].upper() + text[1:]


def figures(plan: Plan, lang: str) -> str:
    """Memory per GPU and the verdict, what stays in RAM, and what low-bit formats cost."""
    memory = numbers.size(plan.per_device_bytes, lang)
    key = (
        "plan.figures_gpu"
        if plan.machine is not None and plan.machine.kind == "gpu"
        else "plan.figures"
    )
    text = t(key, lang, memory=memory, verdict=t(f"verdict.{plan.verdict}", lang))
    off = plan.offload
    if off is not None and off.what not in _QUIET_OFFLOAD and off.ram_bytes > 0:
        what = t(f"plan.offload.{off.what}", lang)
        # RAM the question did not state: the plan says what it asks of the machine.
        unstated = plan.machine is not None and plan.machine.ram_bytes is None
        key = "plan.ram_needed" if unstated else "plan.ram"
        text += t(key, lang, ram=numbers.size(off.ram_bytes, lang), what=what)
    if plan.quality_bits < UNUSABLE_BITS:
        bits = int(plan.quality_bits)
        text += "; " + t("plan.unusable_bits", lang, bits=bits, source=UNUSABLE_SOURCE)
    elif plan.low_bits:
        text += "; " + t("plan.low_bits", lang, bits=int(plan.quality_bits), source=LOW_BITS_SOURCE)
    return text


def speed(plan: Plan, lang: str) -> str | None:
    """Decode and prompt speed of one sequence and the longest context the plan holds, when
    known."""
    parts = rates(plan.decode, plan.prefill, lang) or bound(plan, lang)
    if plan.context_max:
        parts.append(t("plan.context", lang, context=numbers.integer(plan.context_max, lang)))
    return "; ".join(parts) or None


def training(time: TrainingTime, plan: Plan, lang: str) -> str:
    """ "training 1,000,000 tokens in 30.5–48.9 min", with what it costs on a rented plan."""
    hours = time.hours
    said = {
        "tokens": numbers.integer(time.tokens, lang),
        "time": numbers.duration(hours.low, hours.high, lang),
    }
    price = plan.usd_per_hour
    if not price:
        return t("plan.training", lang, **said)
    low, high = numbers.ends(hours.low * price, hours.high * price, lang)
    return t("plan.training_cost", lang, low=low, high=high, price=numbers.usd(price, lang), **said)


def rates(decode: Range | None, prefill: Range | None, lang: str) -> list[str]:
    """ "about 34–41 tokens/s per sequence", "prompt at 968–1,815 tokens/s", as far as known."""
    parts = []
    if decode is not None:
        low, high = numbers.ends(decode.low, decode.high, lang)
        parts.append(t("plan.speed", lang, low=low, high=high))
    if prefill is not None:
        low, high = numbers.ends(prefill.low, prefill.high, lang)
        parts.append(t("plan.prefill", lang, low=low, high=high))
    return parts


def bound(plan: Plan, lang: str) -> list[str]:
    """ "at most 4.6 tokens/s per sequence" for a plan partly in RAM on a GPU known by its
    memory alone, when the part in RAM bounds it."""
    if plan.ram_bound is None:
        return []
    return [t("plan.speed_at_most", lang, bound=numbers.significant(plan.ram_bound, lang))]


def line(plan: Plan, lang: str) -> str:
    """The plan in one line, for an alternative."""
    return t("plan.alternative", lang, plan=summary(plan, lang), figures=figures(plan, lang))

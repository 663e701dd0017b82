"""What the question is about: the task (running or training), the training method and
objective, the weight and KV-cache formats, and the engine."""

from __future__ import annotations

import re

from estimator.precision import exl2_name

from .. import lexicon as lx
from .reading import Found

# Formats only inference uses: a question in one of them is about running the model.
INFERENCE_FORMATS = frozenset({"awq", "gptq", "exl2", "int4", "int8", "fp8", "mxfp4"})
TRAINING_FRAMEWORKS = frozenset(
    {"unsloth", "axolotl", "torchtune", "llama-factory", "fsdp", "deepspeed", "trl"}
)
# "q4", "q8" are llama.cpp's words for its 4- and 8-bit GGUF types: Q4_K_M, the 4-bit type
# Ollama's default tags ship (ollama.com/library, e.g. llama3.1:8b) and llama.cpp's quantize
# README recommends, and Q8_0, its only 8-bit type. "q5", "q3" likewise name the K-quant
# llama.cpp's README recommends at that size (Q5_K_M, Q3_K_M); Q6_K and Q2_K are the only ones.
_GGUF_SHORT = {
    "q2": "q2_k",
    "q3": "q3_k_m",
    "q4": "q4_k_m",
    "q5": "q5_k_m",
    "q6": "q6_k",
    "q8": "q8_0",
}
_BLANK = " "


def blank(text: str, m: re.Match[str]) -> str:
    return text[: m.start()] + _BLANK * (m.end() - m.start()) + text[m.end() :]


def _negated(low: str, start: int) -> bool:
    """Whether the word at `start` is negated: "not training", "geen lora", "instead of"."""
    before = low[max(0, start - 30) : start]
    negation = lx.fragment("negation") + "|" + lx.fragment("without")
    return bool(re.search(r"(?<![\w])(?:" + negation + r")\s+(?:\w+\s+)?$", before))


def _mentions(concept: str, low: str) -> list[re.Match[str]]:
    return [m for m in lx.finditer(concept, low) if not _negated(low, m.start())]


def task(low: str, found: Found) -> None:
    training = _mentions("training", low)
    methods = [m for c in ("lora", "qlora", "sft") for m in _mentions(c, low)]
    objectives = [m for _, c in lx.variants("objective") for m in _mentions(c, low)]
    inference = _mentions("inference", low)
    if inference:
        # "run my fine-tuned model": the participle describes the model, not the task.
        training = [m for m in training if not lx.pattern("fine_tuned").fullmatch(m.group())]
    if training or methods or objectives:
        found.set("task", "training")
    elif inference:
        found.set("task", "inference")
    found.set("running_question", bool(lx.search("running_question", low)))


def method(low: str, found: Found) -> None:
    if _full_before_the_alternative(low, found):
        found.set("method", "full")
    elif _mentions("qlora", low):
        found.set("method", "qlora")
    elif _mentions("lora", low):
        found.set("method", "lora")
    elif found.get("task") == "training" and _mentions("full", low):
        found.set("method", "full")
    elif _mentions("freeze", low):
        found.set("method", "freeze")
    for value, concept in lx.variants("objective"):
        if _mentions(concept, low):
            found.set("objective", value)
            found.set("task", "training")
            break


def _full_before_the_alternative(low: str, found: Found) -> bool:
    """ "full finetune with fsdp, or should I go to LoRA": the full fine-tune is asked, LoRA is
    the way out the question weighs (and the plans offer)."""
    full = _mentions("full", low) if found.get("task") == "training" else []
    adapters = [m for c in ("lora", "qlora") for m in _mentions(c, low)]
    if not full or not adapters:
        return False
    first, later = full[0], min(m.start() for m in adapters)
    return first.end() <= later and lx.search("or", low[first.end() : later]) is not None


def kv_precision(low: str, found: Found) -> str:
    """A KV-cache format ("kv cache in fp8", "q8_0 kv"); its words are blanked, so "fp8" is not
    also read as the weights' format."""
    kv = lx.fragment("kv")
    for value, concept in lx.variants("kv"):
        name = lx.fragment(concept)
        m = re.search(
            rf"(?<![\w]){kv}\s*(?:(?:{lx.fragment('place')}|{lx.fragment('amount_link')}|[=:])\s*)?"
            rf"{name}(?![\w])"
            rf"|(?<![\w]){name}\s+{kv}(?![\w])",
            low,
        )
        if m:
            found.set("kv_precision", value)
            return blank(low, m)
    return low


def engine(low: str, found: Found) -> str:
    """The engine named ("vllm", "ollama", "llama.cpp"), blanked so that no model name is read
    in it ("llama" in "llama.cpp")."""
    return named(low, found, "engine", "engine")


def named(low: str, found: Found, prefix: str, slot: str) -> str:
    """The first of the lexicon's "prefix:value" concepts the text names, set as `slot` and
    blanked."""
    for value, concept in lx.variants(prefix):
        m = lx.search(concept, low)
        if m:
            found.set(slot, value)
            return blank(low, m)
    return low


# ExLlamaV2's bits per weight ("4.65 bpw", "exl2 6.0bpw"): EXL2 at any rate.
_BPW = re.compile(r"(?<![\w.])(\d{1,2}(?:\.\d{1,3})?)\s*bpw(?![\w])")


def precision(low: str, found: Found) -> None:
    bpw = _BPW.search(low)
    if bpw:
        found.set("precision", exl2_name(float(bpw.group(1))))
        return
    # "8-bit Adam" is an optimizer, not the model's format.
    for _, concept in lx.variants("optimizer"):
        low = lx.pattern(concept).sub(" ", low)
    for value, concept in lx.variants("precision"):
        m = lx.search(concept, low)
        if m is None:
            continue
        said = m.group()
        training = found.get("task") == "training"
        if value == "gguf":
            value = said
        elif value == "gguf_short" and training:
            continue  # a GGUF type is no format to train in
        elif said in _GGUF_SHORT and not training:
            value = _GGUF_SHORT[said]
        found.set("precision", value)
        break
    else:
        if lx.search("half_precision", low):
            found.set("precision", "fp16")
        elif lx.search("full_precision", low):
            found.set("precision", "fp32")
    if found.get("task") == "training" and found.get("precision") in ("int4", "nf4"):
        # Fine-tuning a 4-bit base is QLoRA, whose 4-bit format is NF4.
        found.set("method", "qlora")
        found.set("precision", "nf4")


def framework(low: str, found: Found) -> None:
    for value, concept in lx.variants("framework"):
        if lx.search(concept, low):
            found.set("framework", value)
            found.set("task", "training")
            break
    if lx.search("liger", low):
        found.set("liger", True)
        found.set("task", "training")

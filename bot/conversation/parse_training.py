"""How the model is trained, as people say it: ZeRO stage, FSDP, DDP or hybrid sharding, CPU/NVMe
offload of the states or of the activations, online RL's rollout (vLLM colocated, completions per
prompt and their length), gradient checkpointing on or off, the optimizer, LoRA rank and targets,
packing and the batch size.

A setting named without "on" or "off" is on ("with gradient checkpointing", "packing"); it is
off after "without"/"no"/"zonder"/"geen" or before "off"/"uit"/"=False".
"""

from __future__ import annotations

import re

from estimator.vocabulary import MAX_CONTEXT, MAX_SEQUENCES

from .. import lexicon as lx
from .parse_numbers import integer
from .parse_task import blank, named
from .reading import Found

MAX_LORA_RANK = 65_536  # the estimator refuses ranks above the model's smallest width
_NUMBER = r"(\d{1,19})"


def switched(low: str, m: re.Match[str]) -> bool:
    """Whether the setting named at `m` is on."""
    before = low[max(0, m.start() - 24) : m.start()]
    if re.search(
        r"(?<![\w])" + lx.fragment("without") + r"[\s:-]+(?:" + lx.fragment("article") + r"\s+)?$",
        before,
    ):
        return False
    after = low[m.end() : m.end() + 24]
    off = (
        r"^\s*(?:(?:[:=]|"
        + lx.fragment("amount_link")
        + r")\s*)?"
        + lx.fragment("off")
        + r"(?![\w])"
    )
    return re.match(off, after) is None


def zero(low: str, found: Found) -> str:
    """The ZeRO stage ("zero-3", "ZeRO stage 2", "deepspeed stage 3"), ZeRO-Offload and
    ZeRO-Infinity, FSDP's sharding strategy, DDP or hybrid sharding, and the rollout of online
    RL. Returns the text with them blanked: read first, before the engine ("vllm colocated" is
    no inference engine) and the context ("512 generated tokens" is no context length)."""
    low = named(low, found, "distributed", "distributed")
    low = rollout(low, found)
    stage = lx.fragment("stage")
    zero_word = lx.fragment("zero")
    m = re.search(
        rf"(?<![\w]){zero_word}[\s_-]*(?:{stage}[\s_-]*)?([0-3])(?![\w.])"
        rf"|(?<![\w]){stage}[\s_-]*([0-3])(?![\w.])(?=.*\b{zero_word}\b)"
        rf"|(?<![\w]){zero_word}\b.*?(?<![\w]){stage}[\s_-]*([0-3])(?![\w.])",
        low,
    )
    if m:
        found.set("zero", int(next(g for g in m.groups() if g is not None)))
        if lx.search("framework:deepspeed", m.group()):
            found.set("framework", "deepspeed")
        low = blank(low, m)
    infinity = lx.search("zero_infinity", low)
    if infinity:
        # ZeRO-Infinity is stage 3 with parameters and optimizer states offloaded to NVMe.
        found.set("zero", 3)
        found.set("offload", True)
        found.set("offload_to", "nvme")
        low = blank(low, infinity)
    offload = lx.search("zero_offload", low)
    if offload and found.get("zero") is None:
        # ZeRO-Offload (the DeepSpeed tutorial's setup): stage 2 with the optimizer on the CPU.
        found.set("zero", 2)
    if lx.search("fsdp_shard_grad_op", low):
        found.set("zero", 2)
    elif lx.search("fsdp_no_shard", low):
        found.set("zero", 0)
    if found.get("zero") is not None:
        found.set("task", "training")
    return low


def rollout(low: str, found: Found) -> str:
    """Online RL's generations: vLLM colocated on the training GPUs ("vllm colocated",
    "colocate"), completions per prompt ("group size 8", "16 generations per prompt") and their
    length ("completion length 512", "1024 generated tokens"), each blanked."""
    m = lx.search("rollout:vllm", low)
    if m:
        found.set("rollout_engine", "vllm")
        low = blank(low, m)
    link = rf"\s*(?:{lx.fragment('amount_link')}|[=:])?\s*"
    for slot, after, before, high in (
        ("group_size", "group_size", "per_prompt", MAX_SEQUENCES),
        ("generation_length", "generation_length", "generated_tokens", MAX_CONTEXT),
    ):
        m = re.search(
            rf"(?<![\w]){lx.fragment(after)}{link}{_NUMBER}(?![\w.])"
            rf"|(?<![\w.]){_NUMBER}\s*{lx.fragment(before)}(?![\w])",
            low,
        )
        if m:
            value = next(g for g in m.groups() if g is not None)
            if found.bounded(slot, integer(value), m.group(), 1, high):
                found.set("task", "training")
            low = blank(low, m)
    return low


def offload(low: str, found: Found) -> str:
    """CPU or NVMe offload of the training states; the phrase is blanked so that "offload to
    CPU" is not read as a CPU-only machine. Activation offloading is read first, as its own
    setting: it moves the activations, not the optimizer states."""
    m = lx.search("activation_offload", low)
    if m is not None:
        found.set("activation_offload", switched(low, m))
        found.set("task", "training")
        low = blank(low, m)
    target_cpu = lx.fragment("offload_target_cpu")
    target_nvme = lx.fragment("offload_target_nvme")
    phrase = re.compile(
        rf"(?<![\w])(?:(?:{target_nvme}|{target_cpu})[\s_-]+)?"
        rf"(?:{lx.fragment('offload')}|{lx.fragment('offload_term')})"
        rf"(?:\s+(?:\w+\s+){{0,2}}?{lx.fragment('toward')}\s+(?:{lx.fragment('article')}\s+)?"
        rf"(?:{target_nvme}|{target_cpu}))?(?![\w])"
    )
    m = phrase.search(low)
    if m is None:
        return low
    on = switched(low, m)
    found.set("offload", on)
    if on and found.get("offload_to") is None:
        nvme = re.search(rf"(?<![\w]){target_nvme}(?![\w])", m.group())
        found.set("offload_to", "nvme" if nvme else "cpu")
    if not on:
        found.set("offload_to", None)
    return blank(low, m)


def grad_checkpointing(low: str, found: Found) -> None:
    if lx.search("grad_checkpointing_flag_off", low):
        found.set("grad_checkpointing", False)
        return
    if lx.search("grad_checkpointing_flag_on", low):
        found.set("grad_checkpointing", True)
        return
    m = lx.search("grad_checkpointing", low)
    if m is not None:
        found.set("grad_checkpointing", switched(low, m))


def reference_model(low: str, found: Found) -> None:
    """ "with the reference model loaded too", "zonder referentiemodel": the objective's frozen
    reference loaded or not."""
    m = lx.search("reference_model", low)
    if m is not None:
        found.set("reference_model", switched(low, m))


def optimizer(low: str, found: Found) -> None:
    negation = lx.fragment("negation")
    for value, concept in lx.variants("optimizer"):
        for m in lx.finditer(concept, low):
            if re.search(negation + r"\s+$", low[max(0, m.start() - 16) : m.start()]):
                continue
            found.set("optimizer", value)
            return


def lora(low: str, found: Found) -> None:
    rank = lx.fragment("rank")
    lora_word = lx.fragment("lora")
    link = r"(?:" + lx.fragment("amount_link") + r"|[=:])"
    m = re.search(
        rf"(?<![\w])(?:{lora_word}[\s_-]+)?(?:{rank})[\s_-]*{link}?\s*{_NUMBER}(?![\w.])"
        rf"|(?<![\w]){_NUMBER}[\s_-]*(?:{rank})(?![\w])"
        rf"|(?<![\w]){lora_word}[\s_-]*r\s*(?:=|:)?\s*{_NUMBER}(?![\w.])"
        rf"|(?<![\w])r\s*=\s*{_NUMBER}(?![\w.])",
        low,
    )
    if m is None and lx.search("lora", low):
        # "lora all linear layers r 32": a bare "r" counts beside the word LoRA.
        m = re.search(rf"(?<![\w])r\s+{_NUMBER}(?![\w.])", low)
    if m:
        value = next(g for g in m.groups() if g is not None)
        if found.bounded("lora_rank", integer(value), m.group(), 1, MAX_LORA_RANK):
            found.set("task", "training")
    if lx.search("attention_only", low):
        found.set("lora_targets", "attention")
    elif lx.search("all_linear", low):
        found.set("lora_targets", "all")


def packing(low: str, found: Found) -> None:
    m = lx.search("packing", low)
    if m is not None:
        found.set("packing", switched(low, m))


def batch(low: str, found: Found) -> None:
    """The batch per device ("batch size 8", "bs=4", "batchgrootte 16"), not a global batch
    or the gradient accumulation steps."""
    m = re.search(
        rf"(?<![\w])(?:({lx.fragment('not_micro_batch')})\s+)?(?:{lx.fragment('batch')})"
        rf"\s*(?:{lx.fragment('amount_link')}|[=:])?\s*{_NUMBER}(?![\w.])",
        low,
    )
    if m is None or m.group(1):
        return
    found.bounded("batch", integer(m.group(2)), m.group(), 1, MAX_SEQUENCES)

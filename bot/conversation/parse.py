"""Free text (English or Dutch) -> a Reading: the slots one message fills (a Draft), or the
conversation act it is, and the values it gives that are out of range. Pure and offline.

Numbers are made plain first ("six" -> 6, "50,000" -> 50000), then the words that contain
hardware-like words are read and blanked out ("offload to CPU", "ZeRO-3"), then the hardware
("RTX 4090" is never a context length, "M3 Max 64GB" never 64GB of VRAM), the data and prices,
the model, the task and its settings, and the remaining amounts.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from estimator.vocabulary import (
    MAX_CONTEXT,
    MAX_GPUS,
    MAX_MEMORY_GB,
    MAX_SEQUENCES,
    MIN_MEMORY_GB,
)
from storage.checks import CONTROL_IN_TEXT

from .. import lexicon as lx
from . import (
    language,
    parse_acts,
    parse_compare,
    parse_hardware,
    parse_model,
    parse_numbers,
    parse_quantities,
    parse_task,
    parse_training,
)
from .reading import Found, Reading, Refusal, Unreadable
from .slots import Draft

MAX_TEXT = 2000
# Distinct texts whose reading is kept: 4,096 of the longest (MAX_TEXT characters) take
# about 20 MB; a question is a tenth of that.
READINGS_KEPT = 4096
# What no message may hold, found at C speed (asked per character, 0.4 ms a message): a lone
# surrogate, and the control characters stored text may not hold either.
_SURROGATE = re.compile("[\ud800-\udfff]")
_QUESTION_SLOTS = frozenset(Draft.model_fields) - {"language"}
_NEGATIVE = re.compile(
    r"(?:^|(?<=[\s(]))-\s*(\d{1,19}(?:[.,]\d+)?)\s*"
    r"(?:(k)|("
    + lx.fragment("users")
    + r")|("
    + lx.fragment("tokens")
    + r"|"
    + lx.fragment("context_word")
    + r"))(?![\w])"
)
# A model's version after its name or size: "mistral 7b v0.3", "deepseek v3", "qwen v2.5".
# ("v100" is a GPU: a version has one or two digits before its dot.)
_VERSION = re.compile(r"(?<=[a-z0-9] )v\d{1,2}(?:\.\d+)*(?![\w.])")
# Slashes in everyday writing that are never a Hugging Face org/name: "w/o", "tokens/s",
# "24/7", "0.30/kWh".
_NOT_AN_ID = re.compile(r"^(?:w|tok|toks|tokens?|t|\d+(?:[.,]\d+)?)/|/(?:o|s|sec|kwh|\d+)$", re.I)


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text[:MAX_TEXT]).lower()
    return text.replace("×", "x").replace("’", "'").replace("‘", "'")


def unreadable(text: str) -> Unreadable | None:
    """Why `text` cannot be read: a lone surrogate (not text at all) or control characters
    other than line breaks and tabs."""
    if _SURROGATE.search(text):
        return "surrogates"
    if CONTROL_IN_TEXT.search(text):
        return "control_characters"
    return None


def parse(text: str) -> Draft:
    """The slots `text` fills. Never raises: unreadable text is an empty Draft."""
    return read(text).draft


def read(text: str) -> Reading:
    """The whole reading of `text`. Never raises."""
    if not isinstance(text, str):
        return Reading(Draft())
    return _reading(text[:MAX_TEXT])


@lru_cache(maxsize=READINGS_KEPT)
def _reading(original: str) -> Reading:
    """Pure, so remembered: the same words come again and again (the buttons' texts, the
    examples, people asking the same question), and reading them costs 1-3 ms."""
    why = unreadable(original)
    if why is not None:
        return Reading(
            Draft(language=language.detect(normalise(_printable(original)))), unreadable=why
        )
    low = parse_numbers.plain(normalise(original))
    found = _read(low, original)
    spans = parse_compare.options(low, _snippet)
    if len(spans) >= 2:
        found = _compared(low, original, spans, found)
    slots = {k: v for k, v in found.slots.items() if v is not None}
    has_question = any(k in _QUESTION_SLOTS for k in slots)
    act = None if has_question else parse_acts.act(low)
    label = parse_acts.own_hardware(low)
    hardware = any(slots.get(k) for k in ("gpu", "gpu_memory_gb", "apple", "cpu_only", "ram_gb"))
    if label is not None and hardware and "model" not in slots and not slots.get("inverse"):
        act = "own_hardware"
    if "model" not in slots and lx.search("other_model", low):
        act = "other_model"
    draft = Draft.model_validate({k: v for k, v in slots.items() if k in Draft.model_fields})
    return Reading(
        draft,
        act,
        tuple(found.refused),
        profile_label=label or None,
        running=bool(found.get("running_question")),
        follow_up=bool(re.match(r"^\W*" + lx.fragment("follow_up") + r"(?![\w])", low)),
    )


def _compared(low: str, original: str, spans: list[tuple[int, int]], found: Found) -> Found:
    """The question read as its first option, with the options it compares; as it was when
    an option differs from the question in nothing the answer could show ("fsdp or zero 2"
    beside Axolotl, which names the framework already)."""
    neutral = _read(_blanked(low, spans), original)
    each = [_read(_blanked(low, spans[:i] + spans[i + 1 :]), original) for i in range(len(spans))]
    options = [_differing(one, neutral) for one in each]
    parse_compare.same_device(options)
    # What every option implies ("ZeRO-2 or ZeRO-3": training) is the question's.
    for slot in set.intersection(*(set(o) for o in options)):
        if len({repr(o[slot]) for o in options}) == 1:
            for o in options:
                del o[slot]
    if not all(options):
        return found
    # The question reads as its first option, so whatever reads it without the
    # comparison (a team's machines, the next refinement) reads a whole question.
    first = each[0]
    first.set("compare", options)
    return first


def _printable(text: str) -> str:
    return _SURROGATE.sub("", text)


def _blanked(text: str, spans: list[tuple[int, int]]) -> str:
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _differing(option: Found, base: Found) -> dict[str, object]:
    """The slots an option sets differently from the question without its options."""
    return {
        k: v
        for k, v in option.slots.items()
        if v is not None and base.get(k) != v and k in _QUESTION_SLOTS
    }


@lru_cache(maxsize=4096)
def _snippet(text: str) -> dict[str, object]:
    """The slots a few words name on their own (for finding the options of a comparison); the
    same few words recur in every message that compares, so they are remembered. Read only."""
    return _read(text, text).slots


def _read(low: str, original: str) -> Found:
    found = Found()
    said = low
    found.set("language", language.detect(low))
    low = _refuse_absurd(low, found)
    _inverse(low, found)
    low = parse_training.zero(low, found)
    low = parse_training.offload(low, found)
    # Prices first: "£900 gpu" is a budget, not 900 GPUs.
    low = parse_quantities.electricity(low, found)
    low = parse_quantities.budget(low, found)
    low = _hardware(low, found)
    low = parse_task.engine(low, found)
    if not (lx.search("classical", low) or lx.search("neural_net", low)):
        low = parse_quantities.dataset(low, found)
    low, repository = _model(original, low, found)
    _purpose(low, found)
    parse_task.task(low, found)
    parse_task.method(low, found)
    low = parse_task.kv_precision(low, found)
    # A repository's name may say its format ("...-AWQ", "...-GPTQ-Int8"); the message, after.
    parse_task.precision(repository, found)
    parse_task.precision(low, found)
    parse_task.framework(low, found)
    parse_training.grad_checkpointing(low, found)
    parse_training.reference_model(low, found)
    parse_training.optimizer(low, found)
    parse_training.lora(low, found)
    parse_training.packing(low, found)
    parse_training.batch(low, found)
    low = parse_quantities.prompt_and_output(low, found)
    low = parse_quantities.context(low, found)
    low = parse_quantities.plain_tokens(low, found)
    low = parse_quantities.bare_k(low, found)
    parse_quantities.users(low, found)
    if found.get("context") or lx.search("users", said):
        found.set("running_question", True)
    if found.get("inverse") is None and found.get("model") is None and lx.search("what_runs", said):
        # "what can I run on a 4090", "kan ik iets draaien": no model, so the biggest that runs.
        found.set("inverse", "largest_model")
    if lx.search("faster", said):
        found.set("asks_faster", True)
    if found.get("inverse") == "largest_model" and found.get("task") is None:
        found.set("task", "inference")
    _classical(low, found)
    if (found.get("ml_kind") or found.get("cpu_only")) and lx.search("ram_question", low):
        found.set("asks_ram", True)  # on a CPU the memory asked about is RAM
    found.set("profile", parse_acts.named_machine(low))
    return found


def _refuse_absurd(low: str, found: Found) -> str:
    """Negative users or context ("-5 users"): refused, and blanked so no later reader takes
    the number without its sign. (The hardware reader keeps "-24GB" and "99999x" as said.)"""
    m = _NEGATIVE.search(low)
    if m is not None:
        slot = "concurrency" if m.group(3) else "context"
        high = MAX_SEQUENCES if slot == "concurrency" else MAX_CONTEXT
        found.refused.append(Refusal(slot, m.group().strip()[:30], 1, high))
        low = parse_task.blank(low, m)
    return low


def _hardware(low: str, found: Found) -> str:
    """The hardware reader's slots; a count or memory outside its range is refused (and kept
    as said, so the machine built from the Draft refuses it too, never a replaced value).
    A model's version ("mistral 7b v0.3") is hidden from it and left for the model reader."""
    versions = list(_VERSION.finditer(low))
    hidden = low
    for m in versions:
        hidden = parse_task.blank(hidden, m)
    slots, rest = parse_hardware.read(
        hidden, cpu_only=bool(lx.search("cpu_only", low)), laptop=bool(lx.search("laptop", low))
    )
    for m in versions:
        rest = rest[: m.start()] + m.group() + rest[m.end() :]
    low = rest
    bounds = {
        "gpus": (1, MAX_GPUS),
        "gpu_memory_gb": (MIN_MEMORY_GB, MAX_MEMORY_GB),
        "ram_gb": (MIN_MEMORY_GB, MAX_MEMORY_GB),
    }
    for slot, value in slots.items():
        if slot in bounds and isinstance(value, int | float) and not isinstance(value, bool):
            found.bounded(slot, value, f"{value:g}", *bounds[slot])
        found.set(slot, value)
    return low


def _model(original: str, low: str, found: Found) -> tuple[str, str]:
    """The model named, and the text without a repository id or path it names with that id
    (or ""): its uploader and name are no framework or quantity for the readers after this
    one ("unsloth/Llama-3.3-70B-Instruct-GGUF" is not an Unsloth training question)."""
    named = parse_model.hf_id(original)
    if named is not None and _NOT_AN_ID.search(named):
        named = None
    if named is not None:
        found.set("model", named)
        written = normalise(named)
        return low.replace(written, " " * len(written)), written
    tag = parse_model.ollama_tag(low)
    if tag is not None:
        found.set("model", tag)
        return low.replace(tag, " " * len(tag)), tag
    named = parse_model.catalog_model(low)
    if named is None:
        named = parse_model.bare_size(low)
    found.set("model", named)
    return low, ""


def _purpose(low: str, found: Found) -> None:
    """What a model is for ("a coding model on a 4090"): with no model named, the question is
    the biggest model made for it."""
    if found.get("model") is not None:
        return
    for purpose, concept in (("code", "coding"), ("vision", "vision_use")):
        if lx.search(concept, low):
            found.set("purpose", purpose)
            if found.get("inverse") is None:
                found.set("inverse", "largest_model")
            return


def _inverse(low: str, found: Found) -> None:
    biggest, longest, how_many = (
        lx.fragment("biggest"),
        lx.fragment("longest"),
        lx.fragment("how_many"),
    )
    which, smallest = lx.fragment("which"), lx.fragment("smallest")
    patterns = (
        (rf"\b{biggest}\s+(?:\w+\s+){{0,2}}{lx.fragment('model_word')}\b", "largest_model"),
        (
            rf"\b{which}\s+{lx.fragment('model_word')}\b(?:\s+[\w']+){{0,4}}?\s+(?:{biggest}|max(?:imaal|imum)?)\b",
            "largest_model",
        ),
        (rf"\b{longest}\s+(?:\w+\s+)?{lx.fragment('context_word')}", "max_context"),
        # "what context can I get", "welke context kan ik krijgen", "wat voor context past er".
        (
            rf"\b{which}\s+(?:\w+\s+)?{lx.fragment('context_word')}\s+"
            rf"(?:{lx.fragment('context_on_offer')})\b",
            "max_context",
        ),
        (rf"\b{how_many}\s+(?:\w+\s+)?{lx.fragment('users')}", "max_concurrency"),
        # "max-model-len for gemma 3 27b on a 4090, the highest I can set", "hoe hoog kan ik
        # de context zetten".
        (
            rf"\b{lx.fragment('context_word')}\b(?:\s+[\w'.,-]+){{0,14}}?\s+"
            rf"(?:{lx.fragment('highest_setting')})\b",
            "max_context",
        ),
        (
            rf"\b(?:{lx.fragment('highest_setting')})\s+(?:\w+\s+){{0,3}}?"
            rf"{lx.fragment('context_word')}\b",
            "max_context",
        ),
        (rf"\b{lx.fragment('batch_question')}\b", "max_batch"),
        (rf"\b{which}\s+{lx.fragment('quantization_word')}\b", "best_precision"),
        (rf"\b{smallest}\s+{lx.fragment('gpu_word')}", "smallest_gpu"),
        # Read before the hardware is blanked out: "how many H100s", "hoeveel 4090's".
        (
            rf"\b{how_many}\s+(?:[\w-]+\s+)?(?:{lx.fragment('gpu_word')}|[a-z]*\d{{2,4}}\w*?'?s)(?!\w)",
            "gpus_needed",
        ),
        # "how many a100 80gb do i need", "hoeveel a100 heb ik nodig".
        (
            rf"\b{how_many}\s+[a-z]*\d{{2,4}}\w*(?:\s+[\w-]+){{0,2}}?\s+(?:{lx.fragment('needed')})\b",
            "gpus_needed",
        ),
    )
    for pattern, kind in patterns:
        if re.search(pattern, low):
            found.set("inverse", kind)
            break
    if lx.search("cloud", low) or lx.search("cloud_provider", low):
        found.set("cloud", True)
        # "which GPU should I rent" is answered with the instance and its price.
        if found.get("inverse") == "smallest_gpu" or (
            lx.search("cheapest", low) and found.get("inverse") is None
        ):
            found.set("inverse", "cheapest_cloud")


def _classical(low: str, found: Found) -> None:
    if lx.search("classical", low):
        found.set("ml_kind", "classical")
    elif lx.search("neural_net", low):
        found.set("ml_kind", "neural_net")
    else:
        return
    found.set("task", None)  # "retrain every day" is about the model's data, not an LLM task
    parse_quantities.classical(low, found)

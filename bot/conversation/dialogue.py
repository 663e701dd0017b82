"""The slot-filling state machine: one message in, the question so far out, and either the one
missing slot to ask for, a complete question, or a conversation act (a greeting, thanks, help,
something out of scope) that leaves the question as it was. Pure: the caller loads and stores
the State."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict

from estimator import engines
from estimator.errors import EstimatorError
from estimator.hardware.catalog import find_gpu
from estimator.models import catalog, lookup, sizes
from estimator.precision import weight_format

from .. import lexicon as lx
from .. import searches
from ..i18n import Language
from .answer import sold_sized
from .parse import normalise
from .parse_task import INFERENCE_FORMATS
from .reading import Act, Reading
from .slots import FIT_QUESTION, HARDWARE_SLOTS, TRAINING_SLOTS, Draft

Slot = Literal["model", "task", "hardware", "ram", "features"]
# Inverse questions answered from the hardware: without it there is nothing to search.
NEED_HARDWARE = frozenset(k for k, q in FIT_QUESTION.items() if q in searches.NEED_HARDWARE)
RESET = re.compile(r"^\s*/?" + lx.fragment("reset") + r"\s*[.!]?\s*$")
INFERENCE_ENGINES = frozenset(
    {
        "vllm",
        "ollama",
        "lm studio",
        "llama.cpp",
        "mlx",
        "sglang",
        "exllamav2",
        "tgi",
        "tensorrt-llm",
    }
)
_ONLY_NUMBER = re.compile(r"^\s*(\d{1,7}(?:[.,]\d{1,3})?)\s*(?:gb|gib|g)?\s*$")
# A reply to "which model?" longer than this is a sentence, not a name.
MAX_MODEL_WORDS = 4


class State(BaseModel):
    """What is stored per (chat, user) between messages."""

    model_config = ConfigDict(extra="ignore")

    draft: Draft = Draft()
    awaiting: Slot | None = None
    answered: bool = False
    language: Language | None = None
    # What the numbered choices of the last reply send, so "2" picks the second.
    choices: list[str] = []


@dataclass(frozen=True, slots=True)
class Turn:
    state: State
    missing: tuple[Slot, ...]  # empty when the question can be answered
    from_profile: bool  # the hardware came from the saved profile
    implied_task: bool = False  # inference was read from the question, not said
    reset: bool = False
    unknown_model: str | None = None  # the text we tried as a model name, when it named none
    act: Act | None = None  # not a question: the state is the one before the message
    kept_hardware: bool = False  # a new question on the previous question's machine


# What cannot be rented: a question about renting drops it from the previous machine.
_NOT_RENTED = ("apple", "laptop", "cpu", "cpu_only", "ram_gb")
# Inverse questions whose answer is the hardware itself.
_CHOOSES_HARDWARE = ("smallest_gpu", "cheapest_cloud")


def _could_be_a_laptop(draft: Draft) -> bool:
    """Hardware a laptop may have: said to be one, a laptop GPU, or an Apple chip (MacBooks)."""
    return bool(draft.laptop or draft.apple or (draft.gpu and "laptop" in draft.gpu.lower()))


def _desktop_card(draft: Draft) -> bool:
    """A consumer or workstation card in a desktop: one a user swaps for another in their PC
    (not a laptop's, a Mac, a CPU or a board, nor a data-centre GPU in a server)."""
    if not draft.gpu or draft.laptop or draft.apple or draft.cpu_only:
        return False
    gpu = find_gpu(draft.gpu)
    return gpu is not None and not gpu.laptop and gpu.segment in ("consumer", "workstation")


def _hardware(draft: Draft) -> Draft:
    return Draft.model_validate(draft.model_dump(include=set(HARDWARE_SLOTS), exclude_none=True))


def _answer_to_question(state: State, msg: Draft, text: str) -> tuple[Draft, str | None]:
    """Read a short reply as the answer to the slot we asked for, when the parser found none."""
    if state.awaiting == "model" and msg.model is None:
        candidate = text.strip()
        try:
            found = lookup.find(candidate) if candidate else None
        except EstimatorError:
            found = None
        if found is None:
            return msg, candidate[:80] or None
        return msg.model_copy(update={"model": candidate}), None
    m = _ONLY_NUMBER.match(normalise(text))
    if m and state.awaiting in ("hardware", "ram") and not msg.has_hardware() and not msg.ram_gb:
        value = float(m.group(1).replace(",", "."))
        slot = "ram_gb" if state.awaiting == "ram" else "gpu_memory_gb"
        return msg.model_copy(update={slot: value}), None
    if m and state.awaiting == "features" and msg.features is None:
        return msg.model_copy(update={"features": round(float(m.group(1).replace(",", ".")))}), None
    return msg, None


def _says_something(msg: Draft, reading: Reading) -> bool:
    filled = msg.model_dump(exclude_none=True, exclude={"language"})
    return bool(filled) or reading.running


def _is_new_question(state: State, msg: Draft) -> bool:
    if not state.answered and state.awaiting is not None:
        return False
    return bool((msg.model and msg.task) or msg.ml_kind or (msg.inverse and msg.task))


def _sibling(previous: Draft, msg: Draft) -> Draft:
    """ "and the 120b one?" after gpt-oss-20b: a size alone names the previous model's family
    member of that size, when the family has one."""
    if not (msg.model and previous.model and sizes.is_size(msg.model)):
        return msg
    found = catalog.sibling(previous.model, msg.model)
    return msg if found is None else msg.model_copy(update={"model": found.name})


def _merge(base: Draft, msg: Draft) -> Draft:
    if msg.has_hardware():
        # A new machine replaces the old one, it does not mix with it, and its RAM goes with it
        # unless one desktop card takes another's place in the same PC.
        machine = ["gpu", "gpus", "gpu_memory_gb", "apple", "cpu", "cpu_only", "laptop"]
        if not (_desktop_card(base) and _desktop_card(msg)):
            machine.append("ram_gb")
        base = base.model_copy(update=dict.fromkeys(machine))
    elif msg.cloud:
        # Renting: a Mac, a laptop or a CPU is not what is rented, nor its RAM.
        base = base.model_copy(update=dict.fromkeys(_NOT_RENTED))
    elif msg.budget:
        # A budget asks what to buy: the card it buys, not the machine asked about before.
        base = base.model_copy(update=dict.fromkeys(HARDWARE_SLOTS))
    if msg.task and msg.task != base.task and msg.method is None:
        base = base.model_copy(update={"method": None})
    if msg.task == "inference" and base.task == "training":
        base = base.model_copy(update={s: None for s in TRAINING_SLOTS})
    if msg.model and base.ml_kind:
        base = base.model_copy(update={"ml_kind": None, "rows": None, "features": None})
    if base.compare and not msg.compare:
        # Setting what the options vary ("on the L4 then") ends the comparison.
        varied = {k for option in base.compare for k in option.model_dump(exclude_none=True)}
        if varied & set(msg.model_dump(exclude_none=True)):
            base = base.model_copy(update={"compare": None})
    if msg.engine and msg.precision is None and base.precision:
        base = base.model_copy(update={"precision": _format_on(msg.engine, base.precision)})
    if (
        msg.precision
        and msg.engine is None
        and base.engine
        and not _runs(base.engine, msg.precision)
    ):
        # "and with q8 instead?" after a question on vLLM: the format named last decides, on
        # the engine that runs it (llama.cpp), not a refusal of the pair.
        base = base.model_copy(update={"engine": None})
    merged = msg.merged_over(base)
    # A message that sets what the inverse question computes asks a forward question instead
    # (asking for the cloud is not choosing an instance).
    computed = FIT_QUESTION.get(merged.inverse or "")
    if (
        computed not in (None, "cloud")
        and msg.inverse is None
        and (getattr(msg, computed) is not None or msg.compare)
    ):
        # A comparison after it ("q4 or q8?") weighs the options as a forward question too.
        merged = merged.model_copy(update={"inverse": None})
    if merged.method and merged.task is None:
        merged = merged.model_copy(update={"task": "training"})
    return merged


def _runs(engine: str, precision: str) -> bool:
    """Whether the engine loads the format; an unknown name is the estimator's to refuse."""
    try:
        return engines.get(engine).accepts(weight_format(precision))
    except EstimatorError:
        return True


def _format_on(engine: str, precision: str) -> str:
    """The format asked before, as the engine a follow-up names can run it: "q4 on Ollama",
    then "what if I use vLLM" is 4 bits on vLLM (AWQ there), not a GGUF file vLLM cannot load."""
    if _runs(engine, precision):
        return precision
    fmt = weight_format(precision)  # a name _runs could read
    if fmt.bits >= 16:
        return "fp16"
    return "int8" if fmt.bits > 6 else "int4"


def implies_inference(draft: Draft, running: bool) -> bool:
    """A question about speed, memory, context, users, in a serving format or engine, about a
    model on some hardware, an inverse question, or comparing options, is about running the
    model (a training question says so: "fine-tune", "LoRA", "ZeRO-3"); asking "inference or
    training?" then would only be in the way (the answer says what it assumed)."""
    options = draft.compare or []
    return bool(
        running
        or options
        or (draft.model and draft.has_hardware())
        or draft.concurrency
        or draft.kv_precision
        or draft.inverse is not None
        or draft.budget is not None
        or _serving_format(draft.precision)
        or draft.engine in INFERENCE_ENGINES
        or any(_serving_format(o.precision) or o.engine in INFERENCE_ENGINES for o in options)
    )


def _serving_format(precision: str | None) -> bool:
    return bool(precision) and (
        precision in INFERENCE_FORMATS or precision.startswith(("q", "iq"))  # type: ignore[union-attr]
    )


def _missing(draft: Draft) -> tuple[Slot, ...]:
    if draft.ml_kind:
        # The memory of a table depends on its width: asked for when the question is how much
        # RAM; otherwise a typical width is assumed and said.
        asks_memory = draft.ml_kind == "classical" and draft.asks_ram
        return ("features",) if asks_memory and draft.features is None else ()
    missing: list[Slot] = []
    # A budget without hardware or a model: the biggest model on the card it buys.
    buys = draft.budget is not None and not draft.has_hardware()
    if draft.model is None and draft.inverse != "largest_model" and not buys:
        missing.append("model")
    if draft.task is None:
        missing.append("task")
    hardware_needed = draft.inverse in NEED_HARDWARE or (draft.laptop and draft.inverse is None)
    if hardware_needed and not draft.has_hardware() and not buys:
        missing.append("hardware")
    if draft.cpu_only and draft.ram_gb is None and not draft.asks_ram and not sold_sized(draft):
        missing.append("ram")
    return tuple(missing)


def step(
    state: State,
    reading: Reading | Draft,
    text: str,
    profile: Draft | None = None,
    *,
    keep_machine: bool = True,
) -> Turn:
    """The next state after the message `text` (read as `reading`), with the saved `profile`.
    `keep_machine`: a new question runs on the previous question's machine (in a chat; a
    one-shot question starts afresh). A bare Draft is a reading with nothing else in it."""
    if isinstance(reading, Draft):
        reading = Reading(reading)
    msg = reading.draft
    language = msg.language or state.language
    if RESET.match(normalise(text)):
        return Turn(State(language=language), (), False, reset=True)
    act = _act(state, reading, text)
    if act is not None:
        draft = state.draft
        if act == "own_hardware":
            # The machine just described is saved as theirs: the next question runs on it, not
            # on the previous question's.
            draft = draft.model_copy(update=dict.fromkeys(HARDWARE_SLOTS))
        kept = state.model_copy(update={"language": language, "choices": [], "draft": draft})
        return Turn(kept, (), False, act=act)
    msg, unknown = _answer_to_question(state, msg, text)
    msg = _sibling(state.draft, msg)
    new_question = _is_new_question(state, msg) or (
        msg.model is not None
        and not reading.follow_up
        and (not keep_machine or (state.answered and implies_inference(msg, reading.running)))
    )
    base = state.draft
    if new_question:
        base = _hardware(state.draft) if keep_machine else Draft()
        if msg.inverse in _CHOOSES_HARDWARE and not msg.has_hardware():
            base = Draft()  # "which GPU do I need": not the one asked about before
        if msg.laptop and not msg.has_hardware() and not _could_be_a_laptop(base):
            base = Draft()  # "on my laptop" after a question about a desktop card: ask which
    kept_hardware = new_question and base.has_hardware() and not msg.has_hardware()
    draft = _merge(base, msg)
    implied = draft.task is None and not draft.ml_kind and implies_inference(draft, reading.running)
    if implied:
        draft = draft.model_copy(update={"task": "inference"})
    from_profile = False
    if (
        not draft.has_hardware()
        and not draft.cloud  # renting: not about the machine they own
        and profile is not None
        and profile.has_hardware()
        and (not draft.laptop or _could_be_a_laptop(profile))
    ):
        draft = draft.merged_over(profile)
        from_profile = True
        kept_hardware = False
    missing = _missing(draft)
    new = State(
        draft=draft,
        awaiting=missing[0] if missing else None,
        answered=not missing,
        language=language,
    )
    return Turn(
        new,
        missing,
        from_profile,
        implied_task=implied,
        unknown_model=unknown,
        kept_hardware=kept_hardware,
    )


def _act(state: State, reading: Reading, text: str) -> Act | None:
    """The conversation act of a message that is not part of the question."""
    if reading.act == "own_hardware" and state.awaiting in ("hardware", "ram"):
        return None  # the answer to "which hardware?"
    if reading.act is not None:
        return reading.act
    if _says_something(reading.draft, reading):
        return None
    words = len(text.split())
    if state.awaiting == "model" and words <= MAX_MODEL_WORDS:
        return None  # maybe a model name the parser does not know: looked up
    if state.awaiting in ("hardware", "ram", "features") and _ONLY_NUMBER.match(normalise(text)):
        return None
    return "out_of_scope"

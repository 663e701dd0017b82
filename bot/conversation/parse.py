"""Free text (English or Dutch) -> a Draft: the slots one message fills. Pure and offline.

Hardware is read first and blanked out of the text, so "RTX 4090" is never a context length and
"M3 Max 64GB" is never 64GB of VRAM; then the model, the task and the numbers.
"""

from __future__ import annotations

import re
import unicodedata

from . import language, parse_hardware, parse_model
from . import vocabulary as v
from .slots import Draft

MAX_TEXT = 2000
MAX_TOKENS = 10_000_000
MAX_COUNT = 1_000_000
_BINARY = {"k": 1024, "m": 1024**2}
_DECIMAL = {
    "k": 1000,
    "thousand": 1000,
    "duizend": 1000,
    "m": 1000**2,
    "mln": 1000**2,
    "million": 1000**2,
    "miljoen": 1000**2,
}
_NEGATED = re.compile(r"\b(not|no|niet|geen|instead\s+of|in\s+plaats\s+van)\s+(?:\w+\s+)?$")
_PARTICIPLE = re.compile(r"^(fine[\s-]?tuned|finetuned|trained|getraind|gefinetuned|gefinetuned)$")
_KV = re.compile(
    r"\b(?:kv[\s-]?cache|kv)\s*(?:in\s+|op\s+|at\s+)?(fp8|int8|int4|q8_0|q4_0|8[\s-]?bits?|4[\s-]?bits?)\b"
    r"|\b(fp8|int8|int4|q8_0|q4_0|8[\s-]?bits?|4[\s-]?bits?)\s+kv\b"
)
_KV_NAMES = {"8bit": "int8", "8bits": "int8", "4bit": "q4_0", "4bits": "q4_0", "int4": "q4_0"}
_ADAM_8BIT = re.compile(r"\b8[\s-]?bits?\s+adam\w*|\badam\w*\s+8[\s-]?bits?|\badam\w*8bit\b")


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text[:MAX_TEXT]).lower()
    return text.replace("×", "x").replace("’", "'").replace("‘", "'")


def number(value: str, scale: str | None, *, binary: bool) -> int:
    base = float(value.replace(",", "."))
    if scale is None:
        return round(base)
    return round(base * (_BINARY if binary and scale in _BINARY else _DECIMAL)[scale])


def parse(text: str) -> Draft:
    """The slots `text` fills. Never raises: unreadable text is an empty Draft."""
    if not isinstance(text, str):
        return Draft()
    original = text[:MAX_TEXT]
    low = normalise(text)
    slots: dict[str, object] = {"language": language.detect(low)}
    _inverse(low, slots)
    low = _hardware(low, slots)
    _model(original, low, slots)
    _task(low, slots)
    _numbers(low, slots)
    if slots.get("inverse") == "largest_model" and slots.get("task") is None:
        slots["task"] = "inference"
    _classical(low, slots)
    return Draft.model_validate({k: val for k, val in slots.items() if val is not None})


def _hardware(low: str, slots: dict[str, object]) -> str:
    found, low = parse_hardware.read(
        low, cpu_only=bool(v.CPU_ONLY.search(low)), laptop=bool(v.LAPTOP.search(low))
    )
    slots.update(found)
    return low


def _model(original: str, low: str, slots: dict[str, object]) -> None:
    named = parse_model.hf_id(original)
    if named is None:
        named = parse_model.catalog_model(low)
    if named is None:
        named = parse_model.bare_size(low)
    slots["model"] = named


def _mentions(pattern: re.Pattern[str], low: str) -> list[re.Match[str]]:
    """Matches of `pattern` that are not negated ("not training")."""
    return [m for m in pattern.finditer(low) if not _NEGATED.search(low[: m.start()])]


def _task(low: str, slots: dict[str, object]) -> None:
    training = _mentions(v.TRAINING, low)
    inference = _mentions(v.INFERENCE, low)
    if inference:
        # "run my fine-tuned model": the participle describes the model, not the task.
        training = [m for m in training if not _PARTICIPLE.match(m.group())]
    if training:
        slots["task"] = "training"
    elif inference:
        slots["task"] = "inference"
    if v.QLORA.search(low):
        slots["method"] = "qlora"
    elif v.LORA.search(low):
        slots["method"] = "lora"
    elif v.FULL.search(low) and training:
        slots["method"] = "full"
    elif v.FREEZE.search(low):
        slots["method"] = "freeze"
    kv = _KV.search(low)
    if kv:
        name = (kv.group(1) or kv.group(2)).replace(" ", "").replace("-", "")
        slots["kv_precision"] = _KV_NAMES.get(name, name)
        low = low[: kv.start()] + " " * (kv.end() - kv.start()) + low[kv.end() :]
    for pattern, engine in v.ENGINES:
        if pattern.search(low):
            slots["engine"] = engine
            break
    low = _ADAM_8BIT.sub(" ", low)
    for pattern, precision in v.PRECISIONS:
        m = pattern.search(low)
        if m:
            slots["precision"] = m.group(1) if precision == "gguf" else precision
            break
    if slots.get("task") == "training" and slots.get("precision") in ("int4", "nf4"):
        # Fine-tuning a 4-bit base is QLoRA, whose 4-bit format is NF4.
        slots["method"] = "qlora"
        slots["precision"] = "nf4"


def _numbers(low: str, slots: dict[str, object]) -> None:
    for i, pattern in enumerate(v.CONTEXT):
        m = pattern.search(low)
        if m is None:
            continue
        value, scale = m.group(1), m.group(2)
        if i == len(v.CONTEXT) - 1 and scale in ("m", "mln", "million", "miljoen"):
            continue  # "20M tokens" is training data, not a context length
        tokens = number(value, scale, binary=True)
        if 1 <= tokens <= MAX_TOKENS:
            slots["context"] = tokens
            break
    m = v.USERS.search(low)
    if m:
        slots["concurrency"] = _bounded(number(m.group(1), m.group(2), binary=False))
    m = v.BATCH.search(low)
    if m:
        slots["batch"] = _bounded(int(m.group(1)))


def _bounded(value: int) -> int | None:
    return value if 1 <= value <= MAX_COUNT else None


def _inverse(low: str, slots: dict[str, object]) -> None:
    for pattern, kind in v.INVERSE:
        if pattern.search(low):
            slots["inverse"] = kind
            break
    if v.CLOUD.search(low):
        slots["cloud"] = True
        if v.CHEAPEST.search(low) and slots.get("inverse") in (None, "smallest_gpu"):
            slots["inverse"] = "cheapest_cloud"


def _classical(low: str, slots: dict[str, object]) -> None:
    if v.CLASSICAL.search(low):
        slots["ml_kind"] = "classical"
    elif v.NEURAL_NET.search(low):
        slots["ml_kind"] = "neural_net"
    else:
        return
    m = v.ROWS.search(low)
    if m:
        slots["rows"] = number(m.group(1), m.group(2), binary=False)
    m = v.FEATURES.search(low)
    if m:
        slots["features"] = int(m.group(1))
    m = v.ML_PARAMS.search(low)
    if m:
        slots["ml_params"] = number(m.group(1), m.group(2), binary=False)
    if v.RETRAIN.search(low):
        slots["retrain_often"] = True

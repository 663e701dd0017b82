"""The packaged model catalog: data/models/<group>.json, one entry per model, each with the
config.json fields it was transcribed from, the source of that config, the parameter count the
config implies and the published count it is checked against, and the month the weights were
first published (the model's Hugging Face repository or its vendor's release announcement);
official quantized repositories (FP8, AWQ, GPTQ, MXFP4) are catalog models of their own with the
same architecture. `card_rope_scaling` holds the RoPE scaling a model card documents for contexts
past the config's (estimator/models/rope.py)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources

from ..names import NameIndex, tokens
from . import config_json, rope
from .types import Architecture

# Suffixes that name a fine-tune or packaging of the same architecture.
FILLER = frozenset(
    {
        "instruct",
        "chat",
        "it",
        "base",
        "hf",
        "meta",
        "gguf",
        "model",
        "llm",
        "latest",
    }
)
# Quantization words: dropped when a name is matched to its base model; a quantized repository
# is found by its full HF id first.
QUANT_WORDS = frozenset({"awq", "gptq", "int4", "int8", "fp8", "bnb", "4bit", "8bit", "mlx"})


@dataclass(frozen=True, slots=True)
class Published:
    params: float
    active_params: float | None
    basis: str  # card (stated, rounded), safetensors (a checkpoint's tensor count), name
    source: str


@dataclass(frozen=True, slots=True)
class CatalogModel:
    name: str
    hf_id: str
    family: str
    released: str  # "YYYY-MM"
    architecture: Architecture
    config: dict
    reference_params: int
    reference_active_params: int | None
    source: str
    verification: str
    published: Published
    aliases: tuple[str, ...] = ()
    ollama: tuple[str, ...] = ()
    base: str | None = None  # the model a quantized repository packages

    @property
    def purposes(self) -> frozenset[str]:
        """What the model is made for beyond chat: "code" and "math" (such models say so in
        their names), "vision" (a vision tower)."""
        words = set(tokens(self.name))
        out = {purpose for purpose, names in PURPOSE_WORDS.items() if words & names}
        if self.architecture.vision_params:
            out.add("vision")
        return frozenset(out)


# The name words of models made for one purpose: Qwen2.5-Coder, Qwen3-Coder, Yi-Coder,
# DeepSeek-Coder, Codestral, Devstral, Kimi-Dev, StarCoder, CodeLlama, CodeGemma; Qwen2.5-Math,
# Mathstral.
PURPOSE_WORDS: dict[str, frozenset[str]] = {
    "code": frozenset(
        {"coder", "codestral", "devstral", "dev", "starcoder", "codellama", "codegemma"}
    ),
    "math": frozenset({"math", "mathstral"}),
}


def _files() -> list[dict]:
    folder = resources.files("estimator").joinpath("data/models")
    return [
        json.loads(f.read_text(encoding="utf-8"))
        for f in sorted(folder.iterdir(), key=lambda f: f.name)
        if f.name.endswith(".json")
    ]


def _load() -> list[CatalogModel]:
    out = []
    for group in _files():
        for entry in group["models"]:
            arch = config_json.from_dict(entry["config"], entry["name"])
            arch = replace(
                arch,
                checkpoint_precision=entry["checkpoint_precision"],
                rope_scaling=rope.from_card(entry.get("card_rope_scaling")),
            )
            pub = entry["published"]
            model = CatalogModel(
                name=entry["name"],
                hf_id=entry["hf_id"],
                family=entry["family"],
                released=entry["released"],
                architecture=arch,
                config=entry["config"],
                reference_params=entry["reference_params"],
                reference_active_params=entry["reference_active_params"],
                source=entry["source"],
                verification=entry["verification"],
                published=Published(
                    pub["params"], pub["active_params"], pub["basis"], pub["source"]
                ),
                aliases=tuple(entry["aliases"]),
                ollama=tuple(entry["ollama"]),
            )
            out.append(model)
            for quant in entry["quantized"]:
                repo = quant["hf_id"]
                out.append(
                    replace(
                        model,
                        name=repo.rsplit("/", 1)[-1],
                        hf_id=repo,
                        architecture=replace(
                            arch,
                            name=repo.rsplit("/", 1)[-1],
                            checkpoint_precision=quant["precision"],
                        ),
                        aliases=(),
                        ollama=(),
                        base=model.name,
                    )
                )
    return out


@cache
def _all() -> tuple[CatalogModel, ...]:
    return tuple(_load())


@cache
def models() -> tuple[CatalogModel, ...]:
    """Every model of the catalog, once each (quantized repositories left out)."""
    return tuple(m for m in _all() if m.base is None)


@cache
def variants() -> tuple[CatalogModel, ...]:
    """The official quantized repositories of catalog models."""
    return tuple(m for m in _all() if m.base is not None)


@cache
def _by_hf_id() -> dict[str, CatalogModel]:
    return {m.hf_id.lower(): m for m in _all()}


@cache
def _index() -> NameIndex[CatalogModel]:
    index: NameIndex[CatalogModel] = NameIndex(FILLER | QUANT_WORDS)
    for model in models():
        repo = model.hf_id.rsplit("/", 1)[-1]
        index.add(model, model.name, (model.hf_id, repo, *model.aliases, *model.ollama))
    return index


@cache
def _exact() -> dict[tuple[str, ...], CatalogModel]:
    """Every name with its filler words kept: without "base", Kimi-K2-Base reads as Kimi K2,
    which the Instruct model was registered under first."""
    out: dict[tuple[str, ...], CatalogModel] = {}
    for model in models():
        repo = model.hf_id.rsplit("/", 1)[-1]
        for name in (model.name, repo, *model.aliases, *model.ollama):
            out.setdefault(tokens(name), model)
    return out


def by_hf_id(text: str) -> CatalogModel | None:
    """The catalog model whose Hugging Face id is `text` exactly (case-insensitive)."""
    return _by_hf_id().get(text.strip().lower())


def find(text: str) -> CatalogModel | None:
    """The catalog model `text` names (HF id, name, alias or Ollama tag), or None."""
    exact = by_hf_id(text)
    if exact is not None:
        return exact
    name = text.rsplit("/", 1)[-1] if "/" in text else text
    return _exact().get(tokens(name)) or _index().find(name)


def sibling(name: str, size: str) -> CatalogModel | None:
    """The model of `name`'s family that has `size` in its name ("120B" beside gpt-oss-20b:
    gpt-oss-120b), else of its line ("14B" beside DeepSeek-R1: DeepSeek-R1-Distill-Qwen-14B);
    None when neither has one."""
    model = find(name)
    if model is None:
        return None
    want = size.lower()
    return next(
        (m for m in models() if m.family == model.family and want in tokens(m.name)), None
    ) or next((m for m, _ in line(model) if want in tokens(m.name)), None)


# A model's size in its name ("405b", "8x22b", "0.5b"): where its line's name ends.
_NAME_SIZE = re.compile(r"^(?:\d+x)?\d+(?:\.\d+)?[bm]$")


def line(model: CatalogModel) -> list[tuple[CatalogModel, bool]]:
    """The models of `model`'s line, whose names start with its name up to its size
    (Llama-3.1-405B: Llama-3.1-70B, -8B and Llama-3.1-Nemotron-70B; DeepSeek-R1: the R1
    distills), each with whether it is one of the line's own sizes (Llama-3.1-70B) rather than
    a fine-tune named after it."""
    words = []
    for word in tokens(model.name):
        if _NAME_SIZE.match(word):
            break
        words.append(word)
    if not words:
        return []
    prefix = tuple(words)
    named = ((m, tokens(m.name)) for m in models())
    return [(m, len(t) == len(prefix) + 1) for m, t in named if t[: len(prefix)] == prefix]


def suggest(text: str) -> list[str]:
    return _index().suggest(text)

"""The packaged model catalog (data/models.json, compiled from each model's config.json; every
entry names its source)."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources

from ..names import NameIndex
from . import config_json
from .types import Architecture

# Suffixes that name a fine-tune or packaging of the same architecture.
_FILLER = frozenset(
    {
        "instruct",
        "chat",
        "it",
        "base",
        "hf",
        "meta",
        "awq",
        "gptq",
        "gguf",
        "int4",
        "int8",
        "fp8",
        "bnb",
        "4bit",
        "8bit",
        "model",
        "llm",
    }
)

# Common ways people name a model that the token rules alone cannot resolve uniquely.
_ALIASES = {
    "Mistral-7B-v0.3": ("mistral 7b", "mistral 7b instruct"),
    "Mixtral-8x7B-v0.1": ("mixtral", "mixtral 8x7b"),
    "Mixtral-8x22B-v0.1": ("mixtral 8x22b",),
    "Llama-3.1-8B": ("llama 3.1 8b", "llama3.1", "llama 8b"),
    "Llama-3.1-70B": ("llama 3.1 70b", "llama 70b"),
    "Llama-3.1-405B": ("llama 405b",),
    "Llama-2-7B": ("llama 2 7b", "llama2"),
    "Llama-3-8B": ("llama 3 8b", "llama3"),
    "Gemma-3-27B": ("gemma 3",),
    "gpt-oss-20b": ("gpt oss 20b", "gptoss 20b"),
    "gpt-oss-120b": ("gpt oss 120b", "gptoss 120b"),
    "Phi-3-mini-4k": ("phi 3 mini", "phi3 mini"),
    "Phi-3-medium-4k": ("phi 3 medium", "phi3 medium"),
    "Mistral-Nemo-12B": ("mistral nemo", "nemo 12b"),
    "Mistral-Small-24B": ("mistral small", "mistral small 3"),
    "DeepSeek-R1": ("deepseek r1", "r1"),
    "DeepSeek-V3": ("deepseek v3", "deepseek"),
    "OLMo-2-7B": ("olmo 2 7b", "olmo2 7b"),
}


@dataclass(frozen=True, slots=True)
class CatalogModel:
    name: str
    hf_id: str
    family: str
    architecture: Architecture
    config: dict
    reference_params: int
    reference_active_params: int | None
    source: str
    verification: str


def _load() -> list[CatalogModel]:
    raw = json.loads(resources.files("estimator").joinpath("data/models.json").read_text())
    out = []
    for entry in raw["models"]:
        arch = config_json.from_dict(entry["config"], entry["name"])
        arch = replace(arch, checkpoint_precision=entry["checkpoint_precision"])
        out.append(
            CatalogModel(
                name=entry["name"],
                hf_id=entry["hf_id"],
                family=entry["family"],
                architecture=arch,
                config=entry["config"],
                reference_params=entry["reference_params"],
                reference_active_params=entry["reference_active_params"],
                source=entry["source"],
                verification=entry["verification"],
            )
        )
    return out


@cache
def models() -> tuple[CatalogModel, ...]:
    return tuple(_load())


@cache
def _index() -> NameIndex[CatalogModel]:
    index: NameIndex[CatalogModel] = NameIndex(_FILLER)
    for model in models():
        repo = model.hf_id.rsplit("/", 1)[-1]
        index.add(model, model.name, (model.hf_id, repo, *_ALIASES.get(model.name, ())))
    return index


def find(text: str) -> CatalogModel | None:
    """The catalog model `text` names (name, HF id or alias), or None."""
    return _index().find(text.rsplit("/", 1)[-1] if "/" in text else text)


def suggest(text: str) -> list[str]:
    return _index().suggest(text)

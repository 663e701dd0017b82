"""Which checkpoint a launch command loads for a weight format.

AWQ and GPTQ run from a checkpoint someone quantized (vLLM and SGLang read the method from its
config.json); fp8 and bitsandbytes 4-bit quantize a 16-bit checkpoint while loading unless the
publisher ships an FP8 checkpoint. The model catalog lists the publishers' own quantized
repositories (estimator/models/catalog.py variants); the table below adds the ones Hugging
Face's hugging-quants organisation publishes for Llama 3.1 (its Hugging Face model pages). They
are the instruct releases, the same architecture and size as the catalog entry. For any other
model the command names the checkpoint to fetch in angle brackets. MLX loads mlx-community's
conversions where one is published and converts the checkpoint itself otherwise.
"""

from __future__ import annotations

from functools import cache, lru_cache

from ..models import catalog

COMMUNITY_REPOS: dict[tuple[str, str], str] = {
    **{
        (f"Llama-3.1-{s}", "awq"): f"hugging-quants/Meta-Llama-3.1-{s}-Instruct-AWQ-INT4"
        for s in ("8B", "70B", "405B")
    },
    **{
        (f"Llama-3.1-{s}", "gptq"): f"hugging-quants/Meta-Llama-3.1-{s}-Instruct-GPTQ-INT4"
        for s in ("8B", "70B", "405B")
    },
}
_NAMES = {"awq": "AWQ", "gptq": "GPTQ 4-bit", "gptq-int8": "GPTQ 8-bit"}
# Formats a 16-bit checkpoint is quantized to at load time, and the --quantization value.
LOAD_TIME = {"fp8": "fp8", "nf4": "bitsandbytes"}
# A published FP8 checkpoint serves the fp8 format (per-block or per-tensor scales alike).
_PUBLISHED = {"fp8": ("fp8", "fp8_block"), "awq": ("awq",), "gptq": ("gptq",)}


@cache
def _variants() -> dict[str, catalog.CatalogModel]:
    """The publishers' quantized repositories by the name a question about one of them carries
    (the repository's name without its organisation: "Qwen3-Coder-480B-A35B-Instruct-FP8")."""
    return {v.name: v for v in catalog.variants()}


@lru_cache(maxsize=1024)
def repository(model: str) -> str:
    """The Hugging Face repository of a catalog model or of a publisher's quantized release of
    one, organisation included; the name itself for any other model."""
    found = catalog.find(model) or _variants().get(model)
    return found.hf_id if found else model


@cache
def _published() -> dict[tuple[str, str], str]:
    out: dict[tuple[str, str], str] = {}
    for variant in catalog.variants():
        assert variant.base is not None
        key = (variant.base, variant.architecture.checkpoint_precision)
        out.setdefault(key, variant.hf_id)
    return out


def published_precision(model: str, precision: str) -> str | None:
    """How the publisher's checkpoint that serves `precision` for `model` is stored
    ("fp8_block" for a per-block FP8 release), None when none is published."""
    own = _variants().get(model)
    kinds = _PUBLISHED.get(precision, (precision,))
    if own is not None and own.architecture.checkpoint_precision in kinds:
        return own.architecture.checkpoint_precision
    return next((kind for kind in kinds if (model, kind) in _published()), None)


def quantized_repo(model: str, repo: str, precision: str) -> tuple[str, str | None]:
    """(the checkpoint to load, the --quantization value for load-time quantization or None)."""
    own = _variants().get(model)
    if own is not None and own.architecture.checkpoint_precision in _PUBLISHED.get(
        precision, (precision,)
    ):
        # The question named the quantized release itself: its config.json states the method.
        return own.hf_id, None
    published = _published()
    for kind in _PUBLISHED.get(precision, (precision,)):
        if (model, kind) in published:
            return published[(model, kind)], None
    if precision in _NAMES:
        known = COMMUNITY_REPOS.get((model, precision))
        return (known or f"<{_NAMES[precision]} checkpoint of {repo}>"), None
    return repo, LOAD_TIME.get(precision)


# mlx-community's conversions (mlx_lm.convert -q, group 64) of catalog models, by bits: each
# repository's model card on Hugging Face ("converted to MLX format from <the instruct
# release>"), and for Qwen3-4B/30B-A3B-Instruct-2507 mlx-lm's own BENCHMARKS.md @a4c6470. The
# instruct releases have the catalog entry's architecture and size.
MLX_REPOS: dict[tuple[str, int], str] = {
    ("Llama-3.1-8B", 4): "mlx-community/Meta-Llama-3.1-8B-Instruct-4bit",
    ("Llama-3.1-8B", 8): "mlx-community/Meta-Llama-3.1-8B-Instruct-8bit",
    ("Llama-3.1-70B", 4): "mlx-community/Meta-Llama-3.1-70B-Instruct-4bit",
    ("Llama-3.2-3B", 4): "mlx-community/Llama-3.2-3B-Instruct-4bit",
    ("Llama-3.3-70B", 4): "mlx-community/Llama-3.3-70B-Instruct-4bit",
    ("Llama-3.3-70B", 3): "mlx-community/Llama-3.3-70B-Instruct-3bit",
    ("Qwen2.5-3B", 4): "mlx-community/Qwen2.5-3B-Instruct-4bit",
    ("Qwen2.5-7B", 4): "mlx-community/Qwen2.5-7B-Instruct-4bit",
    ("Qwen2.5-14B", 4): "mlx-community/Qwen2.5-14B-Instruct-4bit",
    ("Qwen2.5-32B", 4): "mlx-community/Qwen2.5-32B-Instruct-4bit",
    ("Qwen2.5-72B", 4): "mlx-community/Qwen2.5-72B-Instruct-4bit",
    ("Qwen2.5-Coder-32B", 4): "mlx-community/Qwen2.5-Coder-32B-Instruct-4bit",
    ("QwQ-32B", 4): "mlx-community/QwQ-32B-4bit",
    ("QwQ-32B", 3): "mlx-community/QwQ-32B-3bit",
    ("Qwen3-4B", 4): "mlx-community/Qwen3-4B-4bit",
    ("Qwen3-4B", 8): "mlx-community/Qwen3-4B-8bit",
    ("Qwen3-8B", 4): "mlx-community/Qwen3-8B-4bit",
    ("Qwen3-30B-A3B", 4): "mlx-community/Qwen3-30B-A3B-4bit",
    ("Qwen3-4B-Instruct-2507", 4): "mlx-community/Qwen3-4B-Instruct-2507-4bit",
    ("Qwen3-4B-Instruct-2507", 8): "mlx-community/Qwen3-4B-Instruct-2507-8bit",
    ("Qwen3-30B-A3B-Instruct-2507", 4): "mlx-community/Qwen3-30B-A3B-Instruct-2507-4bit",
    ("Qwen3-30B-A3B-Instruct-2507", 5): "mlx-community/Qwen3-30B-A3B-Instruct-2507-5bit",
    ("Qwen3-30B-A3B-Instruct-2507", 8): "mlx-community/Qwen3-30B-A3B-Instruct-2507-8bit",
    ("Qwen3-Coder-30B-A3B", 8): "mlx-community/Qwen3-Coder-30B-A3B-Instruct-8bit",
    ("Qwen3-Next-80B-A3B-Instruct", 4): "mlx-community/Qwen3-Next-80B-A3B-Instruct-4bit",
}


def mlx_repo(model: str, bits: int) -> str | None:
    """mlx-community's conversion of `model` at `bits`, if it publishes one."""
    return MLX_REPOS.get((model, bits))


def has_mlx_build(model: str) -> bool:
    """Whether mlx-community publishes the 4-bit conversion of `model`, the download MLX users
    start from."""
    return (model, 4) in MLX_REPOS

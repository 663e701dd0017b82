"""Which checkpoint a launch command loads for a weight format.

AWQ and GPTQ run from a checkpoint someone quantized (vLLM and SGLang read the method from its
config.json); fp8 and bitsandbytes 4-bit quantize a 16-bit checkpoint while loading unless the
publisher ships an FP8 checkpoint. The model catalog lists the publishers' own quantized
repositories (estimator/models/catalog.py variants); the table below adds the ones Hugging
Face's hugging-quants organisation publishes for Llama 3.1 (its Hugging Face model pages). They
are the instruct releases, the same architecture and size as the catalog entry. For any other
model the command names the checkpoint to fetch in angle brackets.
"""

from __future__ import annotations

from functools import cache

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
def _published() -> dict[tuple[str, str], str]:
    out: dict[tuple[str, str], str] = {}
    for variant in catalog.variants():
        assert variant.base is not None
        key = (variant.base, variant.architecture.checkpoint_precision)
        out.setdefault(key, variant.hf_id)
    return out


def quantized_repo(model: str, repo: str, precision: str) -> tuple[str, str | None]:
    """(the checkpoint to load, the --quantization value for load-time quantization or None)."""
    published = _published()
    for kind in _PUBLISHED.get(precision, (precision,)):
        if (model, kind) in published:
            return published[(model, kind)], None
    if precision in _NAMES:
        known = COMMUNITY_REPOS.get((model, precision))
        return (known or f"<{_NAMES[precision]} checkpoint of {repo}>"), None
    return repo, LOAD_TIME.get(precision)

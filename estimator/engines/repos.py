"""Which checkpoint a launch command loads for a weight format.

AWQ and GPTQ run from a checkpoint someone quantized (vLLM and SGLang read the method from its
config.json); fp8 and bitsandbytes 4-bit quantize a 16-bit checkpoint while loading. The table
names the quantized repositories the model publishers or Hugging Face's hugging-quants
organisation publish for catalog models (their Hugging Face model pages); they are the instruct
releases, the same architecture and size as the catalog entry. For any other model the command
names the checkpoint to fetch in angle brackets.
"""

from __future__ import annotations

_QWEN25 = ("0.5B", "1.5B", "3B", "7B", "14B", "32B", "72B")
QUANTIZED_REPOS: dict[tuple[str, str], str] = {
    **{(f"Qwen2.5-{s}", "awq"): f"Qwen/Qwen2.5-{s}-Instruct-AWQ" for s in _QWEN25},
    **{(f"Qwen2.5-{s}", "gptq"): f"Qwen/Qwen2.5-{s}-Instruct-GPTQ-Int4" for s in _QWEN25},
    **{(f"Qwen2.5-{s}", "gptq-int8"): f"Qwen/Qwen2.5-{s}-Instruct-GPTQ-Int8" for s in _QWEN25},
    **{(f"Qwen3-{s}", "awq"): f"Qwen/Qwen3-{s}-AWQ" for s in ("4B", "8B", "14B", "32B")},
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


def quantized_repo(model: str, repo: str, precision: str) -> tuple[str, str | None]:
    """(the checkpoint to load, the --quantization value for load-time quantization or None)."""
    if precision in _NAMES:
        known = QUANTIZED_REPOS.get((model, precision))
        return (known or f"<{_NAMES[precision]} checkpoint of {repo}>"), None
    return repo, LOAD_TIME.get(precision)

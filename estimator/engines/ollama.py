"""Ollama: llama.cpp underneath (the same GGUF memory plan), with Ollama's own defaults: the
Q4_K_M download of a library tag, a context (num_ctx) chosen by total VRAM, one request at a
time (OLLAMA_NUM_PARALLEL), the KV type set server-wide (OLLAMA_KV_CACHE_TYPE, needs
OLLAMA_FLASH_ATTENTION), and layers on the GPU decided by Ollama (PARAMETER num_gpu to pin)."""

from __future__ import annotations

from ..hardware.types import Machine
from ..models.types import Architecture
from ..vocabulary import GIB
from .base import Launch
from .llamacpp import QUANTIZED_KV, LlamaCpp

# server/routes.go @fb30760 (and docs/context-length.mdx): total VRAM >= 47 GiB -> 262144,
# >= 23 GiB -> 32768, else 4096 ("slightly lower thresholds ... than 48/24 GiB"); capped at the
# model's trained context (server/sched.go effectiveContext).
CONTEXT_TIERS = ((47 * GIB, 262_144), (23 * GIB, 32_768), (0, 4096))

# Ollama library names of catalog models (ollama.com/library/<name>): the bare tag is the
# Q4_K_M download (gpt-oss: its MXFP4 release); "<tag>-<suffix><quant>" names the other
# quantizations on the library's tags page.
LIBRARY: dict[str, tuple[str, str]] = {
    **{f"Qwen2.5-{s}": (f"qwen2.5:{s.lower()}", "instruct-") for s in ("0.5B", "1.5B", "3B")},
    **{f"Qwen2.5-{s}": (f"qwen2.5:{s.lower()}", "instruct-") for s in ("7B", "14B", "32B", "72B")},
    "Qwen2.5-Coder-7B": ("qwen2.5-coder:7b", "instruct-"),
    **{
        f"Qwen3-{s}": (f"qwen3:{s.lower()}", "")
        for s in ("0.6B", "1.7B", "4B", "8B", "14B", "32B", "30B-A3B", "235B-A22B")
    },
    **{f"Llama-3.1-{s}": (f"llama3.1:{s.lower()}", "instruct-") for s in ("8B", "70B", "405B")},
    **{f"Llama-3.2-{s}": (f"llama3.2:{s.lower()}", "instruct-") for s in ("1B", "3B")},
    **{f"Llama-3-{s}": (f"llama3:{s.lower()}", "instruct-") for s in ("8B", "70B")},
    **{f"Llama-2-{s}": (f"llama2:{s.lower()}", "chat-") for s in ("7B", "13B", "70B")},
    "Mistral-7B-v0.3": ("mistral:7b", "instruct-v0.3-"),
    "Mixtral-8x7B-v0.1": ("mixtral:8x7b", "instruct-v0.1-"),
    "Mixtral-8x22B-v0.1": ("mixtral:8x22b", "instruct-v0.1-"),
    "Mistral-Nemo-12B": ("mistral-nemo:12b", "instruct-2407-"),
    **{f"Gemma-2-{s}": (f"gemma2:{s.lower()}", "instruct-") for s in ("2B", "9B", "27B")},
    **{f"Gemma-3-{s}": (f"gemma3:{s.lower()}", "it-") for s in ("1B", "4B", "12B", "27B")},
    "Phi-4": ("phi4:14b", ""),
    "DeepSeek-R1": ("deepseek-r1:671b", ""),
    "DeepSeek-V3": ("deepseek-v3:671b", ""),
    "DeepSeek-R1-Distill-Qwen-7B": ("deepseek-r1:7b", "qwen-distill-"),
    "DeepSeek-R1-Distill-Qwen-32B": ("deepseek-r1:32b", "qwen-distill-"),
    "DeepSeek-R1-Distill-Llama-70B": ("deepseek-r1:70b", "llama-distill-"),
    "gpt-oss-20b": ("gpt-oss:20b", ""),
    "gpt-oss-120b": ("gpt-oss:120b", ""),
}
# How a library tag names a quantization (q4_K_M, not q4_k_m; f16 is "fp16").
_TAG_QUANT = {"f16": "fp16"}


def tag(launch: Launch) -> str:
    """The `ollama run` name of the estimated model and format."""
    known = LIBRARY.get(launch.model)
    if known is None:
        quant = launch.precision.upper()
        return f"hf.co/<GGUF repository of {launch.repo}>:{quant}"
    name, suffix = known
    if launch.precision in ("q4_k_m", "mxfp4"):
        return name
    first, *rest = launch.precision.split("_")
    quant = _TAG_QUANT.get(launch.precision) or "_".join(
        [first, *(part.upper() if part in ("k", "m", "s", "l") else part for part in rest)]
    )
    return f"{name}-{suffix}{quant}"


class Ollama(LlamaCpp):
    name = "ollama"
    label = "Ollama"
    aliases = ()
    # Ollama places whole layers (num_gpu); it has no setting to keep only the experts in RAM.
    offloads_experts = False

    def default_context(self, arch: Architecture, machine: Machine | None) -> int | None:
        if machine is None or machine.kind != "gpu":
            return CONTEXT_TIERS[-1][1]
        vram = sum(machine.device_capacities)
        return next(ctx for floor, ctx in CONTEXT_TIERS if vram >= floor)

    def command(self, launch: Launch) -> str:
        env = [f"OLLAMA_CONTEXT_LENGTH={launch.context}"]
        if launch.sequences > 1:
            env.append(f"OLLAMA_NUM_PARALLEL={launch.sequences}")
        if launch.kv_precision in QUANTIZED_KV:
            env += ["OLLAMA_FLASH_ATTENTION=1", f"OLLAMA_KV_CACHE_TYPE={launch.kv_precision}"]
        serve = " ".join([*env, "ollama serve"])
        model = tag(launch)
        if launch.gpu_layers is None:
            return f"{serve} & ollama run {model}"
        # Pin the layers on the GPU to what was estimated (Ollama picks its own otherwise).
        name = f"{launch.model.lower()}-gpu{launch.gpu_layers}"
        modelfile = f"FROM {model}\\nPARAMETER num_gpu {launch.gpu_layers}\\n"
        return (
            f"{serve} & printf '{modelfile}' > Modelfile && ollama create {name} -f Modelfile"
            f" && ollama run {name}"
        )


ENGINE = Ollama()

"""Ollama: llama.cpp underneath (the same GGUF memory plan), with Ollama's own defaults: the
Q4_K_M download of a library tag, a context (num_ctx) chosen by total VRAM, one request at a
time (OLLAMA_NUM_PARALLEL), the KV type set server-wide (OLLAMA_KV_CACHE_TYPE, needs
OLLAMA_FLASH_ATTENTION), and layers on the GPU decided by Ollama (PARAMETER num_gpu to pin)."""

from __future__ import annotations

from functools import cache

from ..hardware.types import Machine
from ..models import catalog
from ..models.types import Architecture
from ..vocabulary import GIB
from .base import AMD, INTEL, NVIDIA, Launch
from .llamacpp import QUANTIZED_KV, LlamaCpp

# server/routes.go @fb30760 (and docs/context-length.mdx): total VRAM >= 47 GiB -> 262144,
# >= 23 GiB -> 32768, else 4096 ("slightly lower thresholds ... than 48/24 GiB"); capped at the
# model's trained context (server/sched.go effectiveContext).
CONTEXT_TIERS = ((47 * GIB, 262_144), (23 * GIB, 32_768), (0, 4096))

# How the Ollama library names a model's other quantizations, after "<name>:<size>-" (its tags
# pages on ollama.com/library): qwen2.5:7b-instruct-q8_0, gemma3:27b-it-q8_0, qwen3:8b-q8_0.
TAG_SUFFIX = {
    "qwen2.5": "instruct-",
    "qwen2.5-coder": "instruct-",
    "llama3.1": "instruct-",
    "llama3.2": "instruct-",
    "llama3.3": "instruct-",
    "llama3": "instruct-",
    "llama2": "chat-",
    "mistral": "instruct-",
    "gemma2": "instruct-",
    "gemma3": "it-",
    "qwen3": "",
    "phi4": "",
    "deepseek-r1": "",
}
# How a library tag names a quantization (q4_K_M, not q4_k_m; f16 is "fp16").
_TAG_QUANT = {"f16": "fp16"}


@cache
def _library(model: str) -> str | None:
    found = catalog.find(model)
    return next((t for t in found.ollama if ":" in t), None) if found is not None else None


def tag(launch: Launch) -> str:
    """The `ollama run` name of the estimated model and format: the library tag (its bare tag is
    the Q4_K_M download; gpt-oss's is MXFP4), else the GGUF from Hugging Face."""
    name = _library(launch.model)
    quant = _TAG_QUANT.get(launch.precision) or _quant_tag(launch.precision)
    if name is not None and launch.precision in ("q4_k_m", "mxfp4"):
        return name
    suffix = TAG_SUFFIX.get(name.split(":")[0]) if name is not None else None
    if name is not None and suffix is not None:
        return f"{name}-{suffix}{quant}"
    return f"hf.co/<GGUF repository of {launch.repo}>:{launch.precision.upper()}"


def _quant_tag(precision: str) -> str:
    first, *rest = precision.split("_")
    return "_".join([first, *(p.upper() if p in ("k", "m", "s", "l") else p for p in rest)])


class Ollama(LlamaCpp):
    name = "ollama"
    label = "Ollama"
    aliases = ()
    # docs/gpu.mdx (Hardware support): NVIDIA from compute capability 5.0, AMD through ROCm and
    # Vulkan, Intel through Vulkan, Apple through Metal.
    vendors = frozenset({NVIDIA, AMD, INTEL})
    min_compute_capability = 5.0
    # Ollama places whole layers (num_gpu); it has no setting to keep only the experts in RAM.
    offloads_experts = False
    # Planned when asked for: it plans as llama.cpp, underneath it, does.
    tried: frozenset[str] = frozenset()
    rented = False
    # No setting of Ollama's turns YaRN on: it reads the scaling from the GGUF, so a stock
    # Qwen model stays at its trained context (ollama/ollama issue #8493: "The model needs to
    # be re-quantized with llama.cpp").
    scales_rope = False

    def default_for(self, arch: Architecture, machine: Machine | None, sequences: int) -> bool:
        # Answered when asked for; llama.cpp, underneath it, is the default.
        return False

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

"""ExLlamaV2 (served by TabbyAPI): EXL2 weights at any bits per weight, the token embeddings in
CPU RAM (exllamav2/model.py load_autosplit embed_cpu=True), a KV cache allocated for the whole
`cache_size` (a multiple of 256 tokens) in FP16 or grouped Q8/Q6/Q4, the prompt ingested in
chunks of 2048 tokens, layers split over GPUs by autosplit."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..hardware.types import Machine
from ..memory.activations import layer_peak_per_token
from ..memory.inference import InferencePlan, kv_note, layered
from ..memory.kv_cache import kv_cache, round_up
from ..memory.notes import weights_note
from ..models.types import Architecture
from ..precision import EXL2_HEAD_BITS, WeightFormat, exl2_name, weight_bytes
from ..result import Note
from ..speed_factors import Factor
from ..vocabulary import MIB
from .base import AMD, NVIDIA, EngineBase, Launch, capacities
from .llamacpp import DECODE as LLAMACPP_DECODE

if TYPE_CHECKING:
    from ..resolve import Resolved

# TabbyAPI config_sample.yml: cache_size "must be a multiple of 256"; chunk_size 2048;
# autosplit_reserve 96 MB on the first GPU.
CACHE_UNIT = 256
CHUNK = 2048
AUTOSPLIT_RESERVE = 96 * MIB
# The KV precisions ExLlamaV2 caches in (cache.py ExLlamaV2Cache, _Q8, _Q6, _Q4: grouped
# quantization with an fp16 scale per 32 values, the same bytes as ggml's q8_0 and q4_0), and
# TabbyAPI's cache_mode names for them.
CACHE_MODES = {"fp16": "FP16", "bf16": "FP16", "q8_0": "Q8", "q6": "Q6", "q4_0": "Q4"}


class ExLlamaV2(EngineBase):
    name = "exllamav2"
    label = "ExLlamaV2 (TabbyAPI)"
    aliases = ("exllama", "exllama2", "exl2", "tabbyapi", "tabby")
    devices = frozenset({"gpu"})
    # Its extension is CUDA C++ that also builds for ROCm through HIP: the releases ship CUDA
    # and ROCm wheels (.github/workflows/build-wheels-release.yml and
    # build-wheels-release-rocm62.yml); no Intel, Apple or CPU backend.
    vendors = frozenset({NVIDIA, AMD})
    int_formats: Mapping[str, str] = {
        "int4": exl2_name(4.0),
        "int8": exl2_name(8.0),
        "bf16": "fp16",
    }
    kv_precisions = frozenset(CACHE_MODES)
    kv8 = "q8_0"
    kv_unit = CACHE_UNIT
    ladder = tuple(exl2_name(b) for b in (8.0, 6.0, 5.0, 4.5, 4.0, 3.5, 3.0, 2.5))
    tried = frozenset({"gpu"})
    # The architectures exllamav2/architecture.py implements (ExLlamaV2ArchParams, by config
    # architecture; an unknown one is loaded as Llama, which MoE, MLA and hybrid models are
    # not): Llama, Mistral, Mixtral, Yi, Orion, Qwen2 and Qwen2(.5)-VL, Gemma 1-2, StarCoder2,
    # Cohere 1-2, DBRX, Phi-3, GPTBigCode, GPT-2, MiniCPM, InternLM2, Granite 3 and DeciLM.
    model_types = frozenset(
        {
            "llama", "mistral", "mixtral", "yi", "orion", "qwen2", "qwen2_vl", "qwen2_5_vl",
            "gemma", "gemma2", "starcoder2", "cohere", "cohere2", "dbrx", "phi3",
            "gpt_bigcode", "gpt2", "minicpm", "internlm2", "granite", "deci",
        }
    )  # fmt: skip
    # No ExLlamaV2 row in the calibration set: llama.cpp's CUDA figures (both decode at the
    # bandwidth bound with their own quantized kernels).
    decode: Mapping[str, tuple[Factor, Factor]] = {"gpu": LLAMACPP_DECODE["gpu"]}

    def accepts(self, fmt: WeightFormat) -> bool:
        return fmt.kind == "exl2" or fmt.name == "fp16"

    def default_format(self, arch: Architecture, machine: Machine | None) -> str:
        return exl2_name(4.0)

    def default_kv(self, fmt: WeightFormat) -> str:
        return "fp16"

    def memory_plan(self, r: Resolved, machine: Machine | None) -> InferencePlan:
        w = r.workload
        arch = w.model
        devices = machine.count if machine is not None and machine.kind == "gpu" else 1
        sequences = w.concurrency * w.batch
        wb = weight_bytes(arch, r.weight_format)
        steps = [weights_note(arch, r.weight_format, wb.total)]
        kv = kv_cache(
            self.kv_layout(arch, r.kv_element_bytes),
            context=r.context,
            sequences=sequences,
            block=CACHE_UNIT,
        )
        steps.append(kv_note(arch, kv, CACHE_UNIT))
        chunk = min(w.prompt_tokens or r.context, r.context, CHUNK)
        per_token = layer_peak_per_token(arch)
        activations = per_token * chunk + 4 * arch.vocab_size * sequences
        steps.append(
            Note(
                "exllama_prefill",
                {"tokens": chunk, "per_token_bytes": per_token, "bytes": activations},
            )
        )
        steps.append(Note("overhead_exllama", {"bytes": AUTOSPLIT_RESERVE}))
        # A tied model gets its own quantized output layer (the converter quantizes a copy of
        # the embeddings at head_bits).
        head_params = arch.lm_head_params or arch.embedding_params
        head = head_params * EXL2_HEAD_BITS // 8 if r.weight_format.kind == "exl2" else wb.lm_head
        return layered(
            arch,
            wb,
            kv,
            0,
            head,
            activations,
            AUTOSPLIT_RESERVE,
            devices,
            steps,
            wb.embedding,
            capacities=capacities(machine),
        )

    def command(self, launch: Launch) -> str:
        # TabbyAPI's command line spells its config keys with hyphens (common/args.py
        # init_argparser: field_name.replace("_", "-")); its config refuses a cache_size that is
        # not a multiple of 256 (common/config_models.py ModelConfig.cache_size), which is also
        # the cache the estimate allocated.
        folder = f"{launch.model}-{launch.precision}"
        parts = [
            f"python main.py --model-name {folder}",
            f"--max-seq-len {launch.context}",
            f"--cache-size {round_up(launch.context, CACHE_UNIT) * launch.sequences}",
            f"--cache-mode {CACHE_MODES.get(launch.kv_precision, 'FP16')}",
        ]
        if launch.gpus > 1:
            parts.append("--gpu-split-auto true")
        return " ".join(parts)


ENGINE = ExLlamaV2()

"""Hugging Face transformers `generate()`: bitsandbytes for int8/int4, a one-shot prefill of the
whole prompt, `device_map="auto"` to split layers over GPUs and keep the rest in CPU RAM."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..hardware.types import Machine
from ..memory import constants as k
from ..memory.activations import eager_scores_per_token, layer_peak_per_token
from ..memory.inference import InferencePlan, kv_note, layered
from ..memory.kv_cache import kv_cache
from ..memory.notes import weights_note
from ..models import rope
from ..models.types import Architecture
from ..precision import WeightFormat, weight_bytes
from ..result import Note
from ..speed_factors import Factor
from .base import EngineBase, Launch, capacities

if TYPE_CHECKING:
    from ..resolve import Resolved

_GPU = (
    Factor(0.7, 0.9, "HF generate on A100: S026 Qwen2.5-7B 40.38 t/s, S035 Qwen-7B 40.93 t/s"),
    Factor(
        15.0,
        20.0,
        "per-token Python floor of generate(): Qwen3-0.6B tops out at 58.6 t/s (17 ms)",
    ),
)
# Off NVIDIA GPUs: no published row; taken as the GPU figures.
DECODE = {"gpu": _GPU, "apple": _GPU, "cpu": _GPU}

_BNB = (
    'BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", '
    "bnb_4bit_use_double_quant=True, bnb_4bit_compute_dtype=torch.bfloat16)"
)
_LOAD = {
    "nf4": f"quantization_config={_BNB}",
    "int8": "quantization_config=BitsAndBytesConfig(load_in_8bit=True)",
    "fp8": "quantization_config=FineGrainedFP8Config()",
    "fp32": "torch_dtype=torch.float32",
    "fp16": "torch_dtype=torch.float16",
}


class Transformers(EngineBase):
    name = "transformers"
    label = "transformers"
    aliases = ("hf", "huggingface", "trl", "peft", "accelerate")
    devices = frozenset({"gpu", "apple", "cpu"})
    int_formats: Mapping[str, str] = {"int4": "nf4", "int8": "int8"}
    kv_precisions = frozenset({"bf16", "fp16", "fp32", "int8"})
    kv8 = "int8"
    offloads_layers = True
    # accelerate's AlignDevicesHook (accelerate/hooks.py, offload=True) copies the weights of a
    # layer mapped to "cpu" onto the execution GPU in pre_forward and drops them in post_forward.
    streams_offload = True
    ladder = ("bf16", "fp8", "int8", "nf4")
    # Its command is a Python snippet for a script, not a server to start.
    launch_hint = False
    # transformers' DeepSeek implementation caches full per-head K and V.
    mla_latent = False
    # from_pretrained passes a config field given as a keyword to the config, rope_scaling too.
    scales_rope = True
    decode = DECODE

    def default_for(self, arch: Architecture, machine: Machine | None, sequences: int) -> bool:
        # The reference implementation, for one sequence on a GPU or no stated hardware.
        return (machine is None or machine.kind == "gpu") and sequences == 1

    def accepts(self, fmt: WeightFormat) -> bool:
        return not fmt.gguf and fmt.kind not in ("mlx", "exl2")

    def runs_format(self, fmt: WeightFormat, machine: Machine | None) -> bool:
        # FineGrainedFP8Config's kernels need FP8 tensor cores (compute capability 8.9+).
        gpu = machine.gpu if machine is not None else None
        return not (fmt.kind == "fp8" and gpu is not None and not gpu.fp8)

    def default_format(self, arch: Architecture, machine: Machine | None) -> str:
        native = arch.checkpoint_precision
        if native in ("fp8_block", "mxfp4", "fp8"):
            return native
        no_bf16 = machine is not None and machine.gpu is not None and not machine.gpu.bf16
        return "fp16" if no_bf16 else "bf16"

    def memory_plan(self, r: Resolved, machine: Machine | None) -> InferencePlan:
        w = r.workload
        arch = w.model
        devices = machine.count if machine is not None and machine.kind == "gpu" else 1
        sequences = w.concurrency * w.batch
        context = r.context
        wb = weight_bytes(arch, r.weight_format)
        steps = [weights_note(arch, r.weight_format, wb.total)]
        kv = kv_cache(
            self.kv_layout(arch, r.kv_element_bytes), context=context, sequences=sequences
        )
        steps.append(kv_note(arch, kv, 1))
        prompt = min(w.prompt_tokens or context, context)
        per_token = layer_peak_per_token(arch)
        if not w.flash_attention:
            per_token += eager_scores_per_token(arch, prompt)
        prefill = per_token * prompt * sequences
        logits = k.TRANSFORMERS_LOGIT_COPIES * 4 * arch.vocab_size * sequences
        steps.append(
            Note(
                "prefill",
                {
                    "tokens": context * sequences,
                    "per_token_bytes": per_token,
                    "logits_bytes": logits,
                    "bytes": prefill + logits,
                },
            )
        )
        steps.append(Note("overhead_transformers", {"bytes": k.TRANSFORMERS_WORKSPACE_BYTES}))
        return layered(
            arch,
            wb,
            kv,
            wb.embedding,
            wb.lm_head,
            prefill + logits,
            k.TRANSFORMERS_WORKSPACE_BYTES,
            devices,
            steps,
            0,
            capacities=capacities(machine),
        )

    def command(self, launch: Launch) -> str:
        # device_map="auto" spreads the layers over the GPUs and keeps what does not fit in RAM.
        load = _LOAD.get(launch.precision, "torch_dtype=torch.bfloat16")
        cache = (
            ', cache_implementation="quantized", cache_config={"backend": "quanto", "nbits": 8}'
            if launch.kv_precision == "int8"
            else ""
        )
        scaled = f", rope_scaling={rope.config_fields(launch.rope)}" if launch.rope else ""
        return (
            f'AutoModelForCausalLM.from_pretrained("{launch.repo}", {load}, device_map="auto"'
            f"{scaled}); model.generate(..., max_length={launch.context}{cache})"
        )


ENGINE = Transformers()

"""MLX (mlx-lm) on Apple silicon: weights in unified memory, affine quantization in groups of 64
(`mlx_lm.convert -q --q-bits B`), a KV cache that grows in steps of 256 tokens
(mlx_lm/models/cache.py KVCache.step), the prompt processed in chunks of 2048 tokens
(`--prefill-step-size`), under macOS's GPU working-set limit (mlx_lm.server wires that much,
`mx.device_info()["max_recommended_working_set_size"]`, mlx_lm/server.py @0130d3b)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..hardware.types import Machine
from ..memory.activations import layer_peak_per_token
from ..memory.inference import InferencePlan, kv_note, layered
from ..memory.kv_cache import kv_cache
from ..memory.notes import weights_note
from ..models import rope
from ..models.types import Architecture
from ..precision import MLX_GROUP, WeightFormat, weight_bytes
from ..result import Note
from ..speed_factors import Factor
from .base import EngineBase, Launch
from .repos import has_mlx_build, mlx_repo

if TYPE_CHECKING:
    from ..resolve import Resolved

# mlx_lm/models/cache.py: KVCache.step = 256 (the cache grows by this many tokens).
KV_STEP = 256
# mlx_lm generate_step / server --prefill-step-size default.
PREFILL_STEP = 2048
# mlx_lm.server --prompt-concurrency default: prompts prefilled together.
PROMPT_CONCURRENCY = 8
# What MLX's peak holds beyond weights, the KV cache and one prefill chunk: the median remainder
# (0.60 GB, spread 0.50-0.69) of mlx-lm's benchmark rows (mlx_lm/BENCHMARKS.md @a4c6470,
# mlx_lm.benchmark -p 2048 -g 128 on a 64 GB M4 Max: Qwen3-4B-Instruct-2507 bf16 9.02, q8 5.254,
# q6 4.25, q5 3.86, q4 3.35 GB; Qwen3-30B-A3B-Instruct-2507 q8 33.46, q6 25.82, q5 22.01,
# q4 18.20 GB; mx.get_peak_memory() / 1e9).
WORKSPACE_BYTES = 600 * 10**6

# Same benchmark table: decode tokens/s against bytes read per token gives 497-515 GB/s of the
# M4 Max's 546 (91-94%) plus 2.2 ms a token (Qwen3-4B) to 4.8 ms (Qwen3-30B-A3B, MoE routing).
DECODE = {
    "apple": (
        Factor(0.85, 0.95, "mlx-lm BENCHMARKS.md @a4c6470: M4 Max, Qwen3-4B and 30B-A3B, bf16-q4"),
        Factor(2.0, 5.0, "mlx-lm BENCHMARKS.md @a4c6470: 2.2 ms (4B) to 4.8 ms (30B-A3B) a token"),
    )
}
# Prompt tokens/s x FLOPs per token: 11.9-15.3 of the M4 Max GPU's 16.2 TFLOPS (73-94%).
PREFILL = {
    "apple": Factor(
        0.7, 0.95, "mlx-lm BENCHMARKS.md @a4c6470: 2048-token prompts at 1570-1780 t/s, M4 Max"
    )
}


class Mlx(EngineBase):
    name = "mlx"
    label = "MLX (mlx-lm)"
    aliases = ("mlx-lm", "mlx_lm", "mlxlm")
    devices = frozenset({"apple"})
    int_formats: Mapping[str, str] = {"int4": "mlx_q4", "int8": "mlx_q8", "fp16": "fp16"}
    kv_precisions = frozenset({"bf16", "fp16"})
    kv_unit = KV_STEP
    ladder = ("bf16", "mlx_q8", "mlx_q6", "mlx_q5", "mlx_q4", "mlx_q3")
    tried = frozenset({"apple"})
    scales_rope = True
    # mlx-lm loads the language model only; a vision-language model's images need mlx-vlm, a
    # package of its own (github.com/Blaizzy/mlx-vlm), which the estimate does not model.
    sees_images = False
    decode: Mapping[str, tuple[Factor, Factor]] = DECODE
    prefill: Mapping[str, Factor] = PREFILL

    def accepts(self, fmt: WeightFormat) -> bool:
        return fmt.kind in ("float", "mlx", "mxfp4")

    def default_for(self, arch: Architecture, machine: Machine | None, sequences: int) -> bool:
        # What Mac users run (mlx-lm, LM Studio's MLX engine) wherever a conversion is published.
        return machine is not None and machine.kind == "apple" and has_mlx_build(arch.name)

    def default_format(self, arch: Architecture, machine: Machine | None) -> str:
        # mlx-community's usual download is the 4-bit conversion.
        return "mxfp4" if arch.checkpoint_precision == "mxfp4" else "mlx_q4"

    def memory_plan(self, r: Resolved, machine: Machine | None) -> InferencePlan:
        w = r.workload
        arch = w.model
        sequences = w.concurrency * w.batch
        wb = weight_bytes(arch, r.weight_format)
        steps = [weights_note(arch, r.weight_format, wb.total)]
        kv = kv_cache(
            self.kv_layout(arch, r.kv_element_bytes),
            context=r.context,
            sequences=sequences,
            block=KV_STEP,
        )
        steps.append(kv_note(arch, kv, KV_STEP))
        chunk = min(w.prompt_tokens or r.context, r.context, PREFILL_STEP)
        per_token = layer_peak_per_token(arch)
        prefill = per_token * chunk * min(sequences, PROMPT_CONCURRENCY)
        steps.append(
            Note(
                "mlx_prefill",
                {"tokens": chunk, "per_token_bytes": per_token, "bytes": prefill},
            )
        )
        steps.append(Note("overhead_mlx", {"bytes": WORKSPACE_BYTES}))
        return layered(
            arch, wb, kv, wb.embedding, wb.lm_head, prefill, WORKSPACE_BYTES, 1, steps, 0
        )

    def command(self, launch: Launch) -> str:
        """mlx_lm.server on mlx-community's conversion at the estimated bits, else on one
        `mlx_lm.convert` makes, with the sequences decoded together; a context past the
        config's on the card's RoPE scaling, written into a local copy. The server takes no KV
        cache limit (mlx_lm/server.py's flags: --decode-concurrency, --prompt-cache-bytes, no
        --max-kv-size, which only mlx_lm.generate has): the requests' lengths bound it."""
        serve: list[str] = []
        if launch.sequences > 1:
            serve.append(f"--decode-concurrency {launch.sequences}")
        fmt = launch.precision
        convert = ""
        if fmt.startswith("mlx_q"):
            bits = int(fmt.removeprefix("mlx_q"))
            path = mlx_repo(launch.model, bits)
            if path is None:
                path = f"{launch.model}-{bits}bit"
                convert = (
                    f"mlx_lm.convert --hf-path {launch.repo} -q --q-bits {bits} "
                    f"--q-group-size {MLX_GROUP} --mlx-path {path} && "
                )
        elif fmt == "fp16":
            path = f"{launch.model}-fp16"
            convert = (
                f"mlx_lm.convert --hf-path {launch.repo} --dtype float16 --mlx-path {path} && "
            )
        else:
            path = launch.repo
        if launch.rope is not None:
            convert += _rope_config(launch, path, local=bool(convert))
            path = path.split("/")[-1]
        return " ".join([f"{convert}mlx_lm.server --model {path}", *serve])


def _rope_config(launch: Launch, path: str, *, local: bool) -> str:
    """mlx-lm has no flag for RoPE scaling; it builds YaRN from config.json's rope_scaling
    (initialize_rope, mlx_lm/models/rope_utils.py), so the card's block goes into the config of
    a local copy (downloaded with huggingface_hub's `hf` unless `mlx_lm.convert` just wrote
    it)."""
    assert launch.rope is not None
    folder = path.split("/")[-1]
    fetch = "" if local else f"hf download {path} --local-dir {folder} && "
    fields = json.dumps(rope.config_fields(launch.rope))
    edit = (
        f'python -c \'import json; p = "{folder}/config.json"; c = json.load(open(p)); '
        f'c["rope_scaling"] = {fields}; json.dump(c, open(p, "w"))\' && '
    )
    return fetch + edit


ENGINE = Mlx()

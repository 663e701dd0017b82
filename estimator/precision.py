"""Storage formats of weights and of the KV cache: bytes per matrix, with every scale counted.

Sources (one per format, repeated in FORMATS so the answer can cite it):
- bitsandbytes NF4: 4-bit values in blocks of 64 with an absmax each; double quantization
  stores the absmax as 8-bit with one fp32 scale per 256 of them (QLoRA, arXiv:2305.14314 §3:
  "reduces the memory footprint from 32/64 = 0.5 bits, to 8/64 + 32/(64·256) = 0.127 bits").
- bitsandbytes LLM.int8(): int8 weights plus one fp32 scale per output row (SCB).
- GPTQ (AutoGPTQ / transformers GPTQConfig defaults): bits 4, group_size 128; int32-packed
  qweight and qzeros, fp16 scales per group and output column, int32 g_idx per input row.
- AWQ (AutoAWQ GEMM): the same without g_idx.
- FP8 (vLLM online fp8): e4m3 weights with one fp32 scale per tensor; embeddings and lm_head
  stay 16-bit. DeepSeek-V3's FP8 checkpoint: one fp32 scale per 128x128 block
  (its config.json quantization_config weight_block_size [128, 128]).
- MXFP4 (gpt-oss): MoE expert weights as 4-bit values with one e8m0 byte per 32
  (formulas.md §3: about 4.25 bits per parameter); everything else bf16.
- MLX (mlx-lm convert -q, affine mode): b-bit values in groups of 64 with a 16-bit scale and a
  16-bit bias per group (mlx.core.quantize; mlx_lm/utils.py quantize_model quantizes every
  Linear and Embedding, lm_head included): b + 0.5 bits per weight.
- EXL2 (ExLlamaV2): any average bits per weight from 2 to 8 over the decoder's linear layers,
  the output layer at 6 bits (convert_exl2.py --head_bits default 6), embeddings 16-bit.
- GGUF: llama.cpp's file-level bits per weight, measured on meta-llama/Llama-3.1-8B
  (ggml-org/llama.cpp tools/quantize/README.md @311c2c9f, the table llama-bench printed).
Linear layers inside the decoder are quantized; embeddings, lm_head, routers and norms keep
16 bits (transformers keeps lm_head unquantized for bitsandbytes, GPTQ and AWQ), except in GGUF
where the file-level figure already averages over every tensor.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .errors import EstimatorError
from .models.types import Architecture, Linear

QUANTIZED_GROUPS = frozenset({"attention", "mlp", "expert", "shared_expert"})


@dataclass(frozen=True, slots=True)
class WeightFormat:
    name: str
    kind: str  # float, nf4, int8, gptq, awq, fp8, fp8_block, mxfp4, mlx, exl2, gguf
    bits: float  # nominal bits of a quantized value (or of every value for float/gguf)
    label: str  # how the answer names it
    source: str
    gguf: bool = False


_SRC_NF4 = "QLoRA (arXiv:2305.14314) §3: NF4 blocks of 64, double quantization 8/64 + 32/(64·256)"
_SRC_INT8 = "bitsandbytes LLM.int8() (arXiv:2208.07339): int8 + fp32 scale per row"
_SRC_GPTQ = "AutoGPTQ/transformers GPTQConfig defaults: group_size 128, packed qweight/qzeros, fp16 scales, int32 g_idx"
_SRC_AWQ = "AutoAWQ GEMM format: group_size 128, packed qweight/qzeros, fp16 scales"
_SRC_FP8 = "vLLM fp8 quantization: e4m3 weights, per-tensor fp32 scale, lm_head kept 16-bit"
_SRC_FP8_BLOCK = (
    "DeepSeek-V3 config.json quantization_config: fp8 e4m3, weight_block_size [128, 128]"
)
_SRC_MXFP4 = "gpt-oss model card / config.json: MoE weights in MXFP4 (4-bit + e8m0 scale per 32)"
_SRC_MLX = "mlx.core.quantize affine: groups of 64, 16-bit scale and bias each (mlx_lm convert -q)"
_SRC_EXL2 = "exllamav2 conversion/convert_exl2.py: target bits per weight 2-8, head_bits 6"
_SRC_GGUF = "llama.cpp tools/quantize/README.md @311c2c9f: bits/weight measured on Llama-3.1-8B"
_SRC_FLOAT = "IEEE 754 / bfloat16 element sizes"

# GGUF file-level bits per weight: the Llama-3.1-8B table of llama.cpp's quantize README
# (@311c2c9f); Q3_K_M, Q4_0, Q4_1, Q5_0 and Q5_1, which that table lacks, from the sizes
# tools/quantize/quantize.cpp prints for Llama-3-8B (3.74, 4.34, 4.78, 5.21, 5.65 GiB) over its
# 8.03B parameters.
GGUF_BPW: dict[str, float] = {
    "iq1_s": 2.0042,
    "iq2_m": 2.9294,
    "q2_k": 3.1593,
    "q3_k_s": 3.6429,
    "iq3_m": 3.7628,
    "q3_k_m": 4.0007,
    "q3_k_l": 4.2979,
    "iq4_xs": 4.4597,
    "q4_0": 4.6425,
    "q4_k_s": 4.6672,
    "iq4_nl": 4.6818,
    "q4_k_m": 4.8944,
    "q4_1": 5.1131,
    "q5_k_s": 5.5704,
    "q5_0": 5.5731,
    "q5_k_m": 5.7036,
    "q5_1": 6.0438,
    "q6_k": 6.5633,
    "q8_0": 8.5008,
    "f16": 16.0005,
}

# mlx-lm's quantization widths (mlx_lm.convert --q-bits) at its default group size of 64.
MLX_GROUP = 64
MLX_BITS: dict[str, int] = {"mlx_q8": 8, "mlx_q6": 6, "mlx_q5": 5, "mlx_q4": 4, "mlx_q3": 3}

# ExLlamaV2's bits-per-weight range (convert_exl2.py -b) and output layer width (-hb default).
EXL2_BITS = (2.0, 8.0)
EXL2_HEAD_BITS = 6
_EXL2 = re.compile(r"^(?:exl2[_-]?)?(\d+(?:\.\d+)?)[_-]?(?:bpw|b)$|^exl2[_-]?(\d+(?:\.\d+)?)$")

FORMATS: dict[str, WeightFormat] = {
    "fp32": WeightFormat("fp32", "float", 32, "FP32", _SRC_FLOAT),
    "fp16": WeightFormat("fp16", "float", 16, "FP16", _SRC_FLOAT),
    "bf16": WeightFormat("bf16", "float", 16, "BF16", _SRC_FLOAT),
    "fp8": WeightFormat("fp8", "fp8", 8, "FP8", _SRC_FP8),
    "fp8_block": WeightFormat(
        "fp8_block", "fp8_block", 8, "FP8 (128x128 block scales)", _SRC_FP8_BLOCK
    ),
    "int8": WeightFormat("int8", "int8", 8, "INT8 (bitsandbytes)", _SRC_INT8),
    "nf4": WeightFormat("nf4", "nf4", 4, "NF4 (bitsandbytes, double quant)", _SRC_NF4),
    "gptq": WeightFormat("gptq", "gptq", 4, "GPTQ 4-bit g128", _SRC_GPTQ),
    "gptq-int8": WeightFormat("gptq-int8", "gptq", 8, "GPTQ 8-bit g128", _SRC_GPTQ),
    "awq": WeightFormat("awq", "awq", 4, "AWQ 4-bit g128", _SRC_AWQ),
    "mxfp4": WeightFormat("mxfp4", "mxfp4", 4, "MXFP4 experts + BF16", _SRC_MXFP4),
    **{
        name: WeightFormat(name, "mlx", bits, f"MLX {bits}-bit (group {MLX_GROUP})", _SRC_MLX)
        for name, bits in MLX_BITS.items()
    },
    **{
        name: WeightFormat(name, "gguf", bpw, f"GGUF {name.upper()}", _SRC_GGUF, gguf=True)
        for name, bpw in GGUF_BPW.items()
    },
}

# What people type for a format.
ALIASES: dict[str, str] = {
    "float32": "fp32",
    "f32": "fp32",
    "float16": "fp16",
    "half": "fp16",
    "bfloat16": "bf16",
    "float8": "fp8",
    "e4m3": "fp8",
    "fp8_e4m3": "fp8",
    "8bit": "int8",
    "8-bit": "int8",
    "bnb8": "int8",
    "llm.int8": "int8",
    "4bit": "int4",
    "4-bit": "int4",
    "bnb4": "nf4",
    "gptq-int4": "gptq",
    "gptq4": "gptq",
    "gptq8": "gptq-int8",
    "awq-int4": "awq",
    "q4km": "q4_k_m",
    "q5km": "q5_k_m",
    "q8": "q8_0",
    "q6k": "q6_k",
    "q2k": "q2_k",
    **{f"mlx{bits}": name for name, bits in MLX_BITS.items()},
    **{f"mlx-{bits}bit": name for name, bits in MLX_BITS.items()},
    **{f"mlx_{bits}bit": name for name, bits in MLX_BITS.items()},
}

KV_BYTES: dict[str, float] = {
    "fp32": 4.0,
    "fp16": 2.0,
    "bf16": 2.0,
    "fp8": 1.0,
    "q8_0": 34 / 32,  # ggml block_q8_0: fp16 scale + 32 int8
    "q4_0": 18 / 32,  # ggml block_q4_0: fp16 scale + 32 nibbles
    "q6": 26 / 32,  # exllamav2 ExLlamaV2Cache_Q6: 6-bit values + an fp16 scale per 32
}
KV_SOURCES = {
    "fp8": "vLLM --kv-cache-dtype fp8: one byte per element",
    "q8_0": "ggml block_q8_0: 34 bytes per 32 values",
    "q4_0": "ggml block_q4_0: 18 bytes per 32 values",
    "q6": "exllamav2 cache.py ExLlamaV2Cache_Q6: 6-bit values and an fp16 scale per 32",
    "int8": "Qwen KV-cache quantization (modeling_qwen.py quantize_cache_v): uint8 values + a 16-bit scale and zero per token and head",
}
KV_ALIASES = {
    "f16": "fp16",
    "float16": "fp16",
    "bfloat16": "bf16",
    "f32": "fp32",
    "8bit": "int8",
    "fp8_e4m3": "fp8",
    "fp8_e5m2": "fp8",
    "q8": "q8_0",
    "q4": "q4_0",
}


def weight_format(name: str) -> WeightFormat:
    key = name.strip().lower().replace(" ", "")
    key = ALIASES.get(key, key)
    fmt = FORMATS.get(key) or _exl2(key)
    if fmt is None:
        raise EstimatorError("unknown_precision", precision=name[:40], known=sorted(FORMATS))
    return fmt


def exl2_name(bits: float) -> str:
    return f"exl2_{bits:.2f}".rstrip("0").rstrip(".") + "bpw"


def _exl2(key: str) -> WeightFormat | None:
    """An EXL2 format at any bits per weight: "exl2_4.65bpw", "4.65bpw", "exl2-6"."""
    match = _EXL2.match(key)
    if match is None:
        return None
    bits = float(match.group(1) or match.group(2))
    low, high = EXL2_BITS
    if not low <= bits <= high:
        raise EstimatorError(
            "out_of_range", field="bits per weight", value=str(bits), low=low, high=high
        )
    return WeightFormat(exl2_name(bits), "exl2", bits, f"EXL2 {bits:g} bpw", _SRC_EXL2)


def kv_element_bytes(name: str, head_dim: int) -> float:
    """Bytes one cached K or V element takes, scales included."""
    key = name.strip().lower()
    key = KV_ALIASES.get(key, key)
    if key == "int8":
        return 1.0 + 2 * 2 / head_dim
    if key not in KV_BYTES:
        raise EstimatorError(
            "unknown_kv_precision", precision=name[:40], known=sorted([*KV_BYTES, "int8"])
        )
    return KV_BYTES[key]


def _linear_bytes(lin: Linear, fmt: WeightFormat) -> float:
    """Bytes of all `lin.count` matrices of one kind in format `fmt`, biases at 16 bits."""
    n = lin.d_in * lin.d_out
    bias = 2 * lin.d_out if lin.bias else 0
    quantized = lin.group in QUANTIZED_GROUPS
    kind = fmt.kind
    if kind == "mxfp4":
        quantized = lin.group == "expert"
    if kind == "float":
        return (n * fmt.bits / 8 + (lin.d_out if lin.bias else 0) * fmt.bits / 8) * lin.count
    if not quantized:
        return (2 * n + bias) * lin.count
    if kind == "nf4":
        blocks = math.ceil(n / 64)
        one = n / 2 + blocks + math.ceil(blocks / 256) * 4 + 4
    elif kind == "int8":
        one = n + 4 * lin.d_out
    elif kind in ("gptq", "awq"):
        groups = math.ceil(lin.d_in / 128)
        one = n * fmt.bits / 8 + groups * lin.d_out * (fmt.bits / 8 + 2)
        if kind == "gptq":
            one += 4 * lin.d_in
    elif kind == "fp8":
        one = n + 4
    elif kind == "fp8_block":
        one = n + math.ceil(lin.d_in / 128) * math.ceil(lin.d_out / 128) * 4
    elif kind == "mxfp4":
        one = n / 2 + n / 32
    elif kind == "mlx":
        one = _mlx_bytes(n, fmt.bits)
    elif kind == "exl2":
        one = n * fmt.bits / 8
    else:
        raise AssertionError(kind)
    return (one + bias) * lin.count


def _mlx_bytes(values: int, bits: float) -> float:
    return values * bits / 8 + math.ceil(values / MLX_GROUP) * 4


@dataclass(frozen=True, slots=True)
class WeightBytes:
    embedding: int
    lm_head: int
    linear: int
    other: int

    @property
    def total(self) -> int:
        return self.embedding + self.lm_head + self.linear + self.other


def group_bytes(arch: Architecture, fmt: WeightFormat, group: str) -> int:
    """Bytes of the linear layers of one group (e.g. "expert") stored in `fmt`."""
    chosen = [lin for lin in arch.linears if lin.group == group]
    if fmt.gguf:
        return round(sum(lin.params for lin in chosen) * fmt.bits / 8)
    return round(sum(_linear_bytes(lin, fmt) for lin in chosen))


def weight_bytes(arch: Architecture, fmt: WeightFormat) -> WeightBytes:
    """Bytes of the model's weights stored in `fmt`; the bytes the checkpoint's own headers
    count when it is stored in `fmt` (split over the parts as the formula splits them)."""
    computed = _formula_bytes(arch, fmt)
    if arch.measured_bytes and arch.measured_format == fmt.name and computed.total:
        scale = arch.measured_bytes / computed.total
        embedding = round(computed.embedding * scale)
        lm_head = round(computed.lm_head * scale)
        other = round(computed.other * scale)
        return WeightBytes(
            embedding, lm_head, arch.measured_bytes - embedding - lm_head - other, other
        )
    return computed


def _formula_bytes(arch: Architecture, fmt: WeightFormat) -> WeightBytes:
    if fmt.gguf:
        # The file-level figure averages over every tensor, embeddings included.
        per = fmt.bits / 8
        return WeightBytes(
            embedding=round(arch.embedding_params * per),
            lm_head=round(arch.lm_head_params * per),
            linear=round(arch.linear_params * per),
            other=round(arch.other_params * per),
        )
    wide = 4 if fmt.name == "fp32" else 2
    if fmt.kind == "mlx":
        # mlx-lm quantizes the embedding table and lm_head like every other matrix.
        return WeightBytes(
            embedding=round(_mlx_bytes(arch.embedding_params, fmt.bits)),
            lm_head=round(_mlx_bytes(arch.lm_head_params, fmt.bits)),
            linear=round(sum(_linear_bytes(lin, fmt) for lin in arch.linears)),
            other=arch.other_params * 2,
        )
    if fmt.kind == "exl2":
        return WeightBytes(
            embedding=arch.embedding_params * 2,
            lm_head=arch.lm_head_params * EXL2_HEAD_BITS // 8,
            linear=round(sum(_linear_bytes(lin, fmt) for lin in arch.linears)),
            other=arch.other_params * 2,
        )
    return WeightBytes(
        embedding=arch.embedding_params * wide,
        lm_head=arch.lm_head_params * wide,
        linear=round(sum(_linear_bytes(lin, fmt) for lin in arch.linears)),
        other=arch.other_params * wide,
    )

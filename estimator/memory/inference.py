"""Inference memory per device for each engine: transformers, vLLM, llama.cpp (Ollama)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import EstimatorError
from ..hardware.types import Machine
from ..models.types import Architecture
from ..precision import WeightBytes, weight_bytes
from ..resolve import Resolved
from ..result import Components, Note
from . import constants as k
from .activations import eager_scores_per_token, layer_peak_per_token
from .kv_cache import KvCache, KvLayout, kv_cache, layout, round_up
from .notes import weights_note
from .placement import split_layers


@dataclass(frozen=True, slots=True)
class InferencePlan:
    devices: list[Components]
    steps: list[Note]
    # For CPU offload: bytes of each decoder layer (weights + KV) and what must stay on the GPU.
    layer_bytes: list[int]
    gpu_fixed: int  # embeddings and lm_head when they sit on the GPUs
    host_only: int  # bytes that live in RAM anyway (llama.cpp's input embeddings)


def _kv_per_layer(arch: Architecture, kv: KvCache) -> list[int]:
    return list(kv.per_layer)


def _kv_note(arch: Architecture, kv: KvCache, block: int) -> Note:
    lay = kv.layout
    return Note(
        "kv_cache",
        {
            "layout": lay.layout,
            "layers": lay.full_layers + lay.sliding_layers,
            "full_layers": lay.full_layers,
            "sliding_layers": lay.sliding_layers,
            "window": lay.window,
            "kv_heads": arch.num_kv_heads,
            "head_dim": arch.head_dim,
            "elements_per_token_layer": lay.elements_per_token_layer,
            "element_bytes": lay.element_bytes,
            "per_token_bytes": kv.bytes_per_token,
            "tokens": kv.tokens_full,
            "sliding_tokens": kv.tokens_sliding,
            "sequences": kv.sequences,
            "block": block,
            "bytes": kv.bytes,
        },
    )


def plan(r: Resolved, machine: Machine | None) -> InferencePlan:
    w = r.workload
    arch = w.model
    engine = w.engine
    devices = machine.count if machine is not None and machine.kind == "gpu" else 1
    sequences = w.concurrency * w.batch
    context = w.context
    wb = weight_bytes(arch, r.weight_format)
    weights = wb.total
    steps = [weights_note(arch, r.weight_format, weights)]
    mla_latent = engine != "transformers"
    lay = layout(arch, r.kv_element_bytes, mla_latent=mla_latent, cap_sliding=engine != "vllm")
    if engine == "vllm":
        return _vllm(r, machine, devices, sequences, weights, lay, steps)
    if engine == "llama.cpp":
        block = k.LLAMACPP_CTX_PAD
        kv = kv_cache(
            lay,
            context=context,
            sequences=sequences,
            block=block,
            sliding_tokens=(arch.sliding_window or 0) + k.LLAMACPP_UBATCH,
        )
        steps.append(_kv_note(arch, kv, block))
        padded = round_up(context, block) * sequences
        # ggml reserves the worst micro-batch graph: all 512 tokens' logits in fp32, plus the
        # attention mask over the whole context (flash attention, on by default since
        # llama.cpp PR #15434). Logged: 258.50 MiB for Llama-3-8B, 456.98 MiB for gpt-oss-20b
        # at 131072 context.
        compute = 4 * arch.vocab_size * k.LLAMACPP_UBATCH + padded * k.LLAMACPP_UBATCH
        steps.append(
            Note(
                "compute_buffer",
                {
                    "ubatch": k.LLAMACPP_UBATCH,
                    "vocab": arch.vocab_size,
                    "context": padded,
                    "bytes": compute,
                },
            )
        )
        on_gpu = machine is not None and machine.kind == "gpu"
        # llama.cpp keeps the input embeddings in host memory ("very little benefit to
        # offloading the input layer", src/llama-model.cpp).
        host_only = wb.embedding if on_gpu else 0
        first = 0 if on_gpu else wb.embedding
        # A tied output layer is duplicated onto the GPU (llama.cpp TENSOR_DUPLICATED).
        last = wb.embedding if on_gpu and arch.tie_embeddings else wb.lm_head
        return _layered(arch, wb, kv, first, last, compute, 0, devices, steps, host_only)
    kv = kv_cache(lay, context=context, sequences=sequences)
    steps.append(_kv_note(arch, kv, 1))
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
    return _layered(
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
    )


def _layered(
    arch: Architecture,
    wb: WeightBytes,
    kv: KvCache,
    first: int,
    last: int,
    activations: int,
    overhead: int,
    devices: int,
    steps: list[Note],
    host_only: int,
) -> InferencePlan:
    """Devices for a contiguous layer split: the first holds the embeddings (unless they stay
    in host memory), the last the lm_head; each runs its layers' activations."""
    kv_layers = _kv_per_layer(arch, kv)
    layer_weights = [(wb.linear + wb.other) // arch.num_layers] * arch.num_layers
    layer_weights[-1] += (wb.linear + wb.other) - sum(layer_weights)
    layers = [a + b for a, b in zip(layer_weights, kv_layers, strict=True)]
    groups = split_layers(layers, devices, first, last)
    out = []
    for i, group in enumerate(groups):
        weights = sum(layer_weights[j] for j in group)
        weights += (first if i == 0 else 0) + (last if i == len(groups) - 1 else 0)
        out.append(
            Components(
                weights=weights,
                kv_cache=sum(kv_layers[j] for j in group),
                activations=activations,
                overhead=overhead,
            )
        )
    if devices > 1:
        steps.append(Note("layer_split", {"devices": devices}))
    return InferencePlan(out, steps, layers, first + last, host_only)


def _vllm(
    r: Resolved,
    machine: Machine | None,
    devices: int,
    sequences: int,
    weights: int,
    lay: KvLayout,
    steps: list[Note],
) -> InferencePlan:
    arch = r.workload.model
    tp = devices
    if arch.num_heads % tp:
        raise EstimatorError("tp_does_not_divide_heads", tp=tp, heads=arch.num_heads)
    if arch.mla is None and tp > arch.num_kv_heads and tp % arch.num_kv_heads:
        raise EstimatorError("tp_does_not_divide_kv_heads", tp=tp, kv_heads=arch.num_kv_heads)
    if arch.mla is None and tp <= arch.num_kv_heads and arch.num_kv_heads % tp:
        raise EstimatorError("tp_does_not_divide_kv_heads", tp=tp, kv_heads=arch.num_kv_heads)
    kv = kv_cache(lay, context=r.workload.context, sequences=sequences, block=k.VLLM_BLOCK_TOKENS)
    steps.append(_kv_note(arch, kv, k.VLLM_BLOCK_TOKENS))
    large = (
        machine is not None
        and machine.device_bytes >= k.VLLM_LARGE_GPU_BYTES
        and not (machine.gpu is not None and "A100" in machine.gpu.name)
    )
    batched = k.VLLM_BATCHED_TOKENS_LARGE if large else k.VLLM_BATCHED_TOKENS_SMALL
    max_seqs = k.VLLM_MAX_SEQS_LARGE if large else k.VLLM_MAX_SEQS_SMALL
    profile = layer_peak_per_token(arch) * batched + 2 * 4 * arch.vocab_size * max_seqs
    steps.append(
        Note("vllm_profile", {"batched_tokens": batched, "max_seqs": max_seqs, "bytes": profile})
    )
    steps.append(
        Note(
            "overhead_vllm",
            {"bytes": k.VLLM_CUDA_GRAPH_BYTES, "utilization": r.workload.gpu_memory_utilization},
        )
    )
    if arch.mla is not None:
        kv_per_device = kv.bytes  # the latent is one "head", replicated on every rank
    else:
        kv_per_device = kv.bytes * max(1, arch.num_kv_heads // tp) // arch.num_kv_heads
    device = Components(
        weights=math.ceil(weights / tp),
        kv_cache=kv_per_device,
        activations=math.ceil(profile / tp),
        overhead=k.VLLM_CUDA_GRAPH_BYTES,
    )
    if tp > 1:
        steps.append(
            Note(
                "tensor_parallel",
                {"devices": tp, "kv_heads_per_device": max(1, arch.num_kv_heads // tp)},
            )
        )
    return InferencePlan([device] * tp, steps, [], 0, 0)

"""The same workload under other choices, one change at a time: each a rung of the fit
ladders the advice rules walk (rules/ruleset.py), named as the rules name them.

Every alternative is a forward estimate, so the memory a recommendation quotes is exactly what
`llm-sizer estimate` says for that setting.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from .. import engines, inverse
from ..errors import EstimatorError
from ..estimate import estimate
from ..frameworks import FRAMEWORKS
from ..hardware.types import Machine
from ..models import catalog
from ..precision import weight_format
from ..result import Estimate
from ..vocabulary import FITTING, Verdict
from ..workload import Workload
from .biggest import smaller_relative

MAX_GPUS = 64


@dataclass(frozen=True, slots=True)
class Alternative:
    name: str
    workload: Workload
    machine: Machine | None
    estimate: Estimate
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def fits(self) -> bool:
        return self.estimate.verdict in FITTING

    @property
    def verdict(self) -> Verdict:
        return self.estimate.verdict


def _try(name: str, w: Workload, m: Machine | None, **params: Any) -> Alternative | None:
    try:
        return Alternative(name, w, m, estimate(w, m), params)
    except EstimatorError:
        return None


def fused_loss(w: Workload, m: Machine, asked: Estimate) -> Alternative | None:
    """The run with Liger's fused linear cross-entropy, on a framework that takes it and a loss
    that keeps the logits of every token (transformers' cross-entropy upcasts them to fp32 and
    keeps their gradient: about 12 bytes a token a vocabulary entry). On GPUs only: Liger's
    kernels are Triton's (linkedin/Liger-Kernel: CUDA and ROCm)."""
    i = asked.inputs
    framework = FRAMEWORKS.get(i.engine)
    if i.task != "training" or i.liger or framework is None or "liger" not in framework.options:
        return None
    if m.kind != "gpu":
        return None
    return _try("fused_loss", replace(w, liger=True), m)


def smaller_model(w: Workload, m: Machine) -> Alternative | None:
    """The biggest smaller model of the asked one's line that runs on `m` in 4 bits or more (a
    DeepSeek-R1 distill on a laptop), in the format and engine that run it."""
    found = smaller_relative(w, m)
    if found.value is None or found.estimate is None:
        return None
    entry = catalog.find(found.value)
    assert entry is not None  # the search answers with catalog names
    i = found.estimate.inputs
    return Alternative(
        "smaller_model",
        replace(w, model=entry.architecture, engine=i.engine, precision=i.precision),
        m,
        found.estimate,
        {
            "smaller": found.value,
            "smaller_precision": weight_format(i.precision).label,
            "smaller_engine": engines.get(i.engine).label,
        },
    )


def training(w: Workload, m: Machine, asked: Estimate) -> list[Alternative]:
    """The training ladder: LoRA, QLoRA, checkpointing, a shorter context, 8-bit Adam, ZeRO-3
    over more GPUs, CPU offload, the cheapest cloud instance."""
    i = asked.inputs
    out: list[Alternative | None] = []
    if i.method in ("full", "freeze"):
        out.append(_try("lora", replace(w, method="lora", precision=None), m))
    if i.method != "qlora":
        out.append(_try("qlora", replace(w, method="qlora", precision=None), m))
    if not i.grad_checkpointing:
        out.append(_try("checkpointing", replace(w, grad_checkpointing=True), m))
    shorter = inverse.max_context(replace(w, batch=1), m)
    if shorter.value is not None and shorter.estimate is not None and shorter.value < i.context:
        out.append(
            Alternative(
                "shorter",
                replace(w, batch=1, context=shorter.value),
                m,
                shorter.estimate,
                {"context": shorter.value},
            )
        )
    if i.method in ("full", "freeze") and i.optimizer in ("adamw", "paged_adamw"):
        out.append(_try("adam8bit", replace(w, optimizer="adamw_8bit"), m))
    if m.kind == "gpu" and m.gpu is not None:
        sharded = replace(
            w, engine="deepspeed" if w.engine in (None, "transformers") else w.engine, zero=3
        )
        count = inverse.gpus_needed(sharded, m.gpu, m.ram_bytes, MAX_GPUS)
        if count.value is not None and count.estimate is not None and count.value > m.count:
            more = m.more_of_first(count.value)
            out.append(Alternative("zero3", sharded, more, count.estimate, {"gpus": count.value}))
        out.append(_try("offload", replace(w, engine="deepspeed", zero=2, offload=True), m))
    out.append(_cloud(w))
    return [a for a in out if a is not None]


def inference(w: Workload, m: Machine, asked: Estimate) -> list[Alternative]:
    """The inference ladder: fp8/int8/int4 weights, a quantised KV cache, a shorter context,
    fewer users, tensor parallel, layers in CPU RAM, Apple's raised limit, the cloud."""
    i = asked.inputs
    engine = i.engine
    int8 = engines.get(engine).int_formats["int8"]
    int4 = engines.get(engine).int_formats["int4"]
    out: list[Alternative | None] = []
    if (
        m.gpu is not None
        and m.gpu.fp8
        and engines.get(engine).accepts(weight_format("fp8"))
        and i.precision != "fp8"
    ):
        out.append(_try("fp8", replace(w, precision="fp8"), m))
    if i.precision not in (int8, int4):
        out.append(_try("int8", replace(w, precision=int8), m, precision=int8))
    if i.precision != int4:
        out.append(_try("int4", replace(w, precision=int4), m, precision=int4))
    kv8 = engines.get(engine).kv8
    if i.kv_precision in ("bf16", "fp16", "fp32") and kv8:
        out.append(_try("kv8", replace(w, kv_precision=kv8), m, kv_precision=kv8))
    shorter = inverse.max_context(w, m)
    if shorter.value is not None and shorter.estimate is not None and shorter.value < i.context:
        out.append(
            Alternative(
                "shorter",
                replace(w, context=shorter.value),
                m,
                shorter.estimate,
                {"context": shorter.value},
            )
        )
    if i.concurrency > 1:
        fewer = inverse.max_concurrency(replace(w, concurrency=1), m)
        if fewer.value is not None and fewer.estimate is not None and fewer.value < i.concurrency:
            out.append(
                Alternative(
                    "fewer_users",
                    replace(w, concurrency=fewer.value),
                    m,
                    fewer.estimate,
                    {"concurrency": fewer.value},
                )
            )
    if m.kind == "gpu" and m.gpu is not None:
        # More GPUs: the engine's own split where rented servers run it (llama.cpp's layer split
        # for GGUF files), else vLLM's tensor parallel.
        split = replace(w, engine=engines.rented(engine).name)
        tp = inverse.gpus_needed(split, m.gpu, m.ram_bytes, 8)
        if tp.value is not None and tp.estimate is not None and tp.value > m.count:
            out.append(
                Alternative(
                    "tensor_parallel",
                    split,
                    m.more_of_first(tp.value),
                    tp.estimate,
                    {"gpus": tp.value, "split_engine": split.engine or engine},
                )
            )
        if m.ram_bytes is not None:
            runner = engines.in_ram(engine)
            gguf = (
                w
                if runner.name == engine
                else replace(w, engine=runner.name, precision=None, kv_precision=None)
            )
            layered = _try("offload_layers", gguf, m)
            if (
                layered is not None
                and layered.verdict == "offload"
                and layered.estimate.offload is not None
            ):
                off = layered.estimate.offload
                out.append(
                    replace(
                        layered, params={"gpu_layers": off.gpu_layers, "layers": off.total_layers}
                    )
                )
    if m.kind == "apple" and asked.verdict == "offload":
        out.append(Alternative("apple_limit", w, m, asked, {}))
    out.append(_cloud(w))
    return [a for a in out if a is not None]


def _cloud(w: Workload) -> Alternative | None:
    cheapest = inverse.cheapest_cloud(w)
    if cheapest.value is None or cheapest.estimate is None:
        return None
    instance = cheapest.value
    return Alternative(
        "cloud",
        w,
        None,
        cheapest.estimate,
        {
            "instance": f"{instance.provider} {instance.instance}",
            "usd_per_hour": instance.usd_per_hour,
        },
    )

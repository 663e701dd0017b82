"""Packaged hardware catalogs: GPUs (desktop, laptop, datacenter), Apple chips, cloud instances."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from functools import cache
from importlib import resources
from typing import Any

from ..errors import EstimatorError
from ..names import NameIndex
from .types import GIB, AppleChip, CloudInstance, CpuPlatform, Gpu, Machine

_FILLER = frozenset(
    {"nvidia", "geforce", "tesla", "amd", "radeon", "intel", "graphics", "card", "gpu"}
)
_LAPTOP = re.compile(r"\b(laptop|mobile|notebook|max-q)\b", re.IGNORECASE)
_MEMORY = re.compile(r"(\d+(?:\.\d+)?)\s*(?:gb|gib|g)\b", re.IGNORECASE)


def _data(name: str) -> Any:
    return json.loads(resources.files("estimator").joinpath(f"data/{name}").read_text())


@cache
def gpus() -> tuple[Gpu, ...]:
    return tuple(
        Gpu(
            name=g["name"],
            vendor=g["vendor"],
            segment=g["segment"],
            laptop=g["laptop"],
            memory_gib=g["memory_gib"],
            bandwidth_gbs=g["bandwidth_gbs"],
            tflops_bf16=g["tflops_bf16"],
            tflops_fp16acc=g["tflops_fp16_fp16acc"],
            tflops_fp32=g["tflops_fp32"],
            tflops_fp8=g["tflops_fp8"],
            fp8=g["fp8"],
            bf16=g["bf16"],
            flash_attention2=g["flash_attention2"],
            compute_capability=g["compute_capability"],
            tdp_w=g["tdp_w"],
            launch_year=g["launch_year"],
            launch_price_usd=g["launch_price_usd"],
            price_unverified_usd=g["price_unverified_usd"],
            nvlink=g["nvlink"],
            source=g["source"],
            notes=g["notes"],
        )
        for g in _data("gpus.json")["gpus"]
    )


@cache
def apple_chips() -> tuple[AppleChip, ...]:
    return tuple(
        AppleChip(
            chip=c["chip"],
            variant=c["variant"],
            year=c["year"],
            max_memory_gb=c["max_memory_gb"],
            memory_options_gb=tuple(c["memory_options_gb"]),
            bandwidth_gbs=c["bandwidth_gbs"],
            gpu_tflops_fp32=tuple(c["gpu_tflops_fp32"]),
            source=c["source"],
            notes=c["notes"],
        )
        for c in _data("apple.json")["chips"]
    )


@cache
def cloud_instances() -> tuple[CloudInstance, ...]:
    return tuple(
        CloudInstance(
            provider=i["provider"],
            instance=i["instance"],
            gpu=i["gpu_model"],
            gpu_count=i["gpu_count"],
            ram_gb=i["ram_gb"],
            usd_per_hour=i["usd_per_hour"],
            price_date=i["price_date"],
            source=i["source"],
            notes=i["notes"],
        )
        for i in _data("cloud.json")["instances"]
    )


@cache
def cpu_platforms() -> tuple[CpuPlatform, ...]:
    return tuple(
        CpuPlatform(
            name=c["name"],
            platforms=c["platforms"],
            bandwidth_gbs=c["bandwidth_gbs"],
            tflops_fp32=c["cpu_tflops_fp32"],
            source=c["source"],
            notes=c["notes"],
        )
        for c in _data("cpus.json")["platforms"]
    )


@cache
def _cpu_index() -> NameIndex[CpuPlatform]:
    index: NameIndex[CpuPlatform] = NameIndex(frozenset({"dual", "channel", "desktop", "socket"}))
    for cpu in cpu_platforms():
        index.add(cpu, cpu.name, [cpu.platforms])
    return index


def find_cpu(text: str) -> CpuPlatform:
    """A CPU memory platform ("ddr5-6000", "epyc genoa", "threadripper pro")."""
    found = _cpu_index().find(text)
    if found is None:
        candidates = _cpu_index().candidates(text)
        if candidates:
            return candidates[0]
        raise EstimatorError("unknown_cpu", cpu=text[:60], suggestions=_cpu_index().suggest(text))
    return found


def _short(name: str) -> str:
    """'GeForce RTX 4090' -> 'RTX 4090'; 'Tesla T4' -> 'T4'."""
    return re.sub(r"^(GeForce|Tesla|Radeon|Instinct)\s+", "", name)


@cache
def _gpu_index(laptop: bool) -> NameIndex[Gpu]:
    index: NameIndex[Gpu] = NameIndex(_FILLER | {"laptop"})
    for gpu in gpus():
        if gpu.laptop != laptop:
            continue
        short = _short(gpu.name)
        number = re.search(r"\b\d{3,4}\b", short)
        aliases = [short]
        # "4090" alone names the card; "3080" names its most common variant (listed first).
        if number and gpu.vendor == "NVIDIA" and gpu.segment == "consumer":
            aliases.append(number.group())
        index.add(gpu, gpu.name, aliases)
    return index


def find_gpu(text: str) -> Gpu | None:
    """The catalog GPU `text` names ("4090", "rtx 4090", "4090 laptop", "a100 80gb"), or None."""
    laptop = bool(_LAPTOP.search(text))
    query = _LAPTOP.sub(" ", text)
    index = _gpu_index(laptop)
    found = index.find(query)
    if found is not None:
        return found
    # "A100" or "3080" with several memory sizes: the memory in the text decides, else the first.
    matches = index.candidates(_MEMORY.sub(" ", query))
    memory = _MEMORY.search(query)
    if memory:
        matches = [g for g in matches if abs(g.memory_gib - float(memory.group(1))) < 0.5]
    return matches[0] if matches else None


def suggest_gpu(text: str) -> list[str]:
    laptop = bool(_LAPTOP.search(text))
    return _gpu_index(laptop).suggest(_LAPTOP.sub(" ", text))


def find_apple(text: str) -> tuple[AppleChip, int] | None:
    """An Apple chip and its unified memory in GB from text like "M3 Max 64GB"."""
    m = re.search(r"\bm\s*([1-5])\s*(pro|max|ultra)?\b", text, re.IGNORECASE)
    if not m:
        return None
    chip = f"M{m.group(1)}" + (f" {m.group(2).capitalize()}" if m.group(2) else "")
    variants = [c for c in apple_chips() if c.chip == chip]
    if not variants:
        return None
    memory = _MEMORY.search(text)
    if memory:
        gb = round(float(memory.group(1)))
        for c in variants:
            if gb in c.memory_options_gb or gb == c.max_memory_gb:
                return c, gb
        raise EstimatorError(
            "apple_memory_not_offered",
            chip=chip,
            memory_gb=gb,
            options=sorted({o for c in variants for o in c.memory_options_gb}),
        )
    # No memory given: the smallest configuration, so a "fits" is never too optimistic.
    smallest = min(variants, key=lambda c: min(c.memory_options_gb))
    return smallest, min(smallest.memory_options_gb)


def machine(
    gpu: str | None = None,
    gpu_memory_gb: float | None = None,
    gpus: int = 1,
    ram_gb: float | None = None,
    cpu: str | None = None,
) -> Machine | None:
    """The machine described by CLI-style inputs; None when no hardware was given."""
    found_machine = _machine(gpu, gpu_memory_gb, gpus, ram_gb)
    if found_machine is not None and cpu:
        return replace(found_machine, cpu=find_cpu(cpu))
    return found_machine


def _machine(
    gpu: str | None, gpu_memory_gb: float | None, gpus: int, ram_gb: float | None
) -> Machine | None:
    ram = None if ram_gb is None else round(ram_gb * GIB)
    if gpu:
        text = gpu.strip()
        if re.fullmatch(r"cpu|none|no gpu", text, re.IGNORECASE):
            if ram is None:
                raise EstimatorError("cpu_needs_ram")
            return Machine("cpu", "CPU", ram, 1, ram)
        apple = find_apple(text)
        if apple:
            chip, gb = apple
            return Machine("apple", f"{chip.chip} {gb}GB", gb * GIB, 1, gb * GIB, apple=chip)
        found = find_gpu(text)
        if found is None:
            raise EstimatorError("unknown_gpu", gpu=text[:60], suggestions=suggest_gpu(text))
        memory = found.memory_bytes if gpu_memory_gb is None else round(gpu_memory_gb * GIB)
        return Machine("gpu", found.name, memory, gpus, ram, gpu=found)
    if gpu_memory_gb is not None:
        return Machine(
            "gpu",
            f"{gpu_memory_gb:g} GB GPU",
            round(gpu_memory_gb * GIB),
            gpus,
            ram,
            from_catalog=False,
        )
    if ram is not None:
        return Machine("cpu", "CPU", ram, 1, ram)
    return None

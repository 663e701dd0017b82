"""The packaged hardware data files as catalog entries: GPUs (desktop, laptop, data centre, edge,
unified-memory PCs), Apple chips, CPU platforms and devices, cloud instances."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from .types import AppleChip, CloudInstance, CpuPlatform, Gpu


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
            # Infinity Fabric between MI300X-platform GPUs (7 links x 128 GB/s, AMD's MI300X
            # data sheet) links them as NVLink does; the data records it as an interconnect.
            nvlink=g["nvlink"] or g["interconnect_gbs"] is not None,
            source=g["source"],
            notes=g["notes"],
            aliases=tuple(g["aliases"]),
            form_factor=g["form_factor"],
            visible_memory_gib=g["visible_memory_gib"],
            unified=g["unified"],
            dies=g.get("dies", 1),
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
            aliases=tuple(c["aliases"]),
            channels=c["channel_count"],
            sockets=c["sockets"],
            device=c["device"],
            ram_options_gb=tuple(c["ram_options_gb"]),
        )
        for c in _data("cpus.json")["platforms"]
    )


@cache
def cpu_models() -> dict[str, tuple[str, ...]]:
    """Regular expressions of the CPU model numbers that run on each platform ("ryzen 9 7950x"
    runs on the AM5 DDR5 platform), by platform name."""
    return {c["name"]: tuple(c["models"]) for c in _data("cpus.json")["platforms"]}

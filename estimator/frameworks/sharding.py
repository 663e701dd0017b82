"""Which data-parallel backend a job runs with, when the question does not say.

A full fine-tune on several GPUs is planned as people run it, fully sharded (ZeRO-3 through
DeepSpeed for the Hugging Face family, FSDP for torchtune and the fsdp framework): a plain DDP
replica of 16 bytes per parameter on every GPU is what nobody launches for a 7B model. LoRA and
QLoRA start as DDP (one replica of a frozen base per GPU is cheap); the memory plan shards them
when that replica does not fit. DDP only when asked.
"""

from __future__ import annotations

from .profile import Settings, Sharding

BACKENDS = ("ddp", "deepspeed", "fsdp", "hsdp")
# GPUs per node: DGX/HGX servers and the 8-GPU cloud instances (p4d/p5, a2/a3, ND).
NODE_GPUS = 8


def node_counts(most: int) -> list[int]:
    """GPU counts a training job comes in: 1, 2, 4 or 8 in one node, then whole nodes of 8."""
    small = [n for n in (1, 2, 4, NODE_GPUS) if n <= most]
    return small + list(range(2 * NODE_GPUS, most + 1, NODE_GPUS))


def resolve(s: Settings, sharded: str, *, shard_adapters: bool = False) -> Sharding:
    """The backend `s` asks for, else `sharded` ("deepspeed" or "fsdp") for full fine-tuning on
    several GPUs (and for LoRA when `shard_adapters`), else DDP."""
    gpus = s.gpus
    backend = s.distributed
    if backend is None and s.zero:
        backend = sharded
    if backend is None and s.offload:
        backend = sharded
    if backend is None:
        if gpus == 1:
            return Sharding("single", devices=1)
        if s.method in ("full", "freeze") or shard_adapters:
            backend = sharded
        else:
            return Sharding("ddp", devices=gpus, group=gpus)
    if backend == "ddp":
        return Sharding("ddp" if gpus > 1 else "single", devices=gpus, group=gpus)
    offload = s.offload_device if s.offload else None
    if backend == "deepspeed":
        stage = s.zero or (3 if gpus > 1 or offload == "nvme" else 2 if offload else 0)
        return Sharding("deepspeed", stage, gpus, gpus, offload)
    group = min(gpus, s.node_gpus) if backend == "hsdp" else gpus
    return Sharding("fsdp", 2 if s.zero == 2 else 3, group, gpus, offload)

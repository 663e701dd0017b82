"""The DeepSpeed ZeRO backend: stages 1-3 with CPU (ZeRO-Offload) and NVMe (ZeRO-Infinity)
offload, as the Hugging Face Trainer / accelerate launch it (the "deepspeed" framework is HF
Trainer + ZeRO; the other HF-based frameworks use the same backend when asked for a ZeRO stage).

Bytes per parameter, as DeepSpeed's own estimators count them: 16-bit weights and gradients (2 + 2)
whole, and the fp32 gradient partition, fp32 master and Adam states (4 + 4 + 8) divided by the
GPUs below stage 3 (deepspeed/runtime/zero/stage_1_and_2.py estimate_zero2_model_states_mem_needs:
4·P + 16·P/N on the GPU); at stage 3 the 16-bit gradients are reduce-scattered bucket by bucket
and everything else is divided (stage3.py estimate_zero3_model_states_mem_needs: 18·P/N plus
largest_layer_memory = 4 x the largest layer's parameters for gathering).

Communication buffers per GPU, with the values the transformers integration fills for "auto"
(transformers docs, DeepSpeed: reduce_bucket_size = hidden_size², stage3_prefetch_bucket_size =
0.9 x hidden_size²): stages 1-2 keep two 16-bit reduce buckets (contiguous_gradients with
overlap_comm), stage 3 one prefetch bucket and the gathered largest layer.

Offload: offload_optimizer moves the fp32 master, the Adam states and the fp32 gradient partition
to CPU RAM (or NVMe at stage 3); offload_param (stage 3) moves the 16-bit parameters too. NVMe
offload keeps pinned staging buffers in RAM: offload_param buffer_count 5 x buffer_size 1e8
16-bit values, offload_optimizer buffer_count 4 x the fp32 sub-group (sub_group_size 1e9)
(DeepSpeed config docs, zero_optimization.offload_param / offload_optimizer defaults).
"""

from __future__ import annotations

from .optimizers import optimizer_bytes
from .profile import StateBytes

GATHER_LAYER_COPIES = 4
PREFETCH_SHARE = 0.9
REDUCE_BUCKETS = 2
NVME_PARAM_BUFFERS = 5 * 100_000_000 * 2
NVME_OPTIMIZER_BUFFERS = 4
NVME_SUB_GROUP = 1_000_000_000


def state_bytes(optimizer: str, stage: int) -> StateBytes:
    """16-bit weights, 16-bit gradients (whole below stage 3, not kept at stage 3), an fp32
    gradient partition, fp32 master, the optimizer: 4·P + 16·P/N below stage 3, 18·P/N at it."""
    return StateBytes(2, 0 if stage == 3 else 2, 4, optimizer_bytes(optimizer, 4), gradient_fp32=4)


def buffer_bytes(stage: int, hidden: int, largest_layer_params: int) -> int:
    """Communication buffers per GPU for a stage, with the transformers "auto" bucket sizes."""
    bucket = hidden * hidden
    if stage == 3:
        return round(2 * PREFETCH_SHARE * bucket) + GATHER_LAYER_COPIES * largest_layer_params
    if stage in (1, 2):
        return REDUCE_BUCKETS * 2 * bucket
    return 0


def nvme_ram_bytes(partition_params: int) -> int:
    """Pinned RAM one GPU's ZeRO-Infinity swapping needs."""
    return NVME_PARAM_BUFFERS + NVME_OPTIMIZER_BUFFERS * 4 * min(NVME_SUB_GROUP, partition_params)

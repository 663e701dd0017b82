"""What the figure means: allocated, reserved and nvidia-smi views of one device."""

from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.memory.constants import CUDA_CONTEXT_BYTES
from estimator.memory.reported import (
    NCCL_BYTES,
    NON_TORCH_BYTES,
    RESERVE_FIXED_BYTES,
    RESERVE_SHARE,
    views,
)
from estimator.result import Components
from estimator.workload import Workload


def test_views_by_hand():
    parts = Components(weights=10_000, activations=3_000, overhead=1_000)
    v = views(parts, kind="gpu", gpus=1, transient=2_000)
    assert v.allocated == 14_000
    assert v.reserved == 14_000 + RESERVE_FIXED_BYTES + round(RESERVE_SHARE * 2_000)
    assert v.device_total == v.reserved + CUDA_CONTEXT_BYTES + NON_TORCH_BYTES
    several = views(parts, kind="gpu", gpus=2, transient=2_000)
    assert several.device_total == v.device_total + NCCL_BYTES
    apple = views(parts, kind="apple", gpus=1, transient=2_000)
    assert apple.allocated == apple.reserved == apple.device_total == 14_000


def test_managed_memory_is_seen_by_nvidia_smi_only():
    parts = Components(weights=10_000, optimizer_states=4_000)
    v = views(parts, kind="gpu", gpus=1, transient=0, managed=4_000)
    assert v.allocated == 10_000
    assert v.device_total == 10_000 + RESERVE_FIXED_BYTES + 4_000 + CUDA_CONTEXT_BYTES + (
        NON_TORCH_BYTES
    )


def test_an_estimate_carries_the_views_and_a_step(arch):
    est = estimate(
        Workload(model=arch("qwen2.5 7b"), task="training", method="qlora"),
        machine(gpu="RTX 4090"),
    )
    d = est.devices[0]
    assert d.allocated_bytes == d.components.total < d.reserved_bytes < d.device_total_bytes
    step = next(n.params for n in est.steps if n.key == "device_views")
    assert step["device_total"] == d.device_total_bytes
